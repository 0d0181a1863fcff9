"""Two runs of one golden set by two models, compared pair by pair: is B really better or worse?

`diff` lists what changed; this says whether a change in a rate is more than noise. Results are
paired by ``(case_id, repeat)`` on the cases both runs hold (the comparison core, ``pairing``);
each rate gets B − A with a 95% bootstrap interval that resamples whole cases, an exact McNemar p
on the discordant pairs and a Holm adjustment across the rates. A verdict needs both: an adjusted
p < 0.05 and an interval clear of 0. An error is an outage, not a quality flip: errored pairs are
listed apart. An unfinished run is compared on the pairs it has and named as such; with the gate,
an unfinished B fails it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from tabulate import tabulate

from ragspine.evals.compare.pairing import Pair, Paired, StrictModel, TagDelta, flip, pair_runs
from ragspine.evals.compare.stats import (
    holm,
    mcnemar_exact,
    min_detectable_effect,
    paired_bootstrap,
)
from ragspine.evals.report.markdown import num
from ragspine.evals.report.wording import md
from ragspine.evals.run.folder import LoadedRun, load_run, unfinished_note
from ragspine.evals.run.records import CaseResult, RecordError
from ragspine.evals.score.metrics import Better, Metric, all_metrics

COMPARE_SCHEMA_VERSION = 1
COMPARE_JSON = "compare.json"
COMPARE_MD = "compare.md"
ALPHA = 0.05
MDE_NOTE = 0.05  # above this minimum detectable effect the report says the set is small
MAX_LISTED = 50  # cases per section in compare.md; GitHub comments stop at 65,536 characters
TOKENS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
Verdict = Literal["better", "worse", "no detectable difference", "not judged"]


class Side(StrictModel):
    folder: str
    run_id: str | None = None
    provider: str
    model: str | None = None
    golden_hash: str
    results: int  # in the run
    left_out: int  # results whose (case, repeat) the other run does not hold
    errors: int  # errored results among the pairs
    unsupported_numbers: int  # over every result of the run
    tokens: dict[str, int]  # summed over the pairs, so both sides count the same cases
    cost: dict[str, Any] | None = None  # summary.json's, over the whole run, when it has one
    unfinished: str | None = None  # what every command says of an unfinished run; None: finished


class MetricComparison(StrictModel):
    name: str
    better: Better
    pairs: int  # pairs both runs judged
    a: float | None = None
    b: float | None = None
    delta: float | None = None  # B − A
    ci_low: float | None = None
    ci_high: float | None = None
    a_only: int = 0  # discordant pairs: passed in A only
    b_only: int = 0  # … in B only
    p: float = 1.0  # exact McNemar
    p_holm: float = 1.0
    verdict: Verdict = "not judged"


class Agreement(StrictModel):
    name: str
    agree: int
    total: int  # answered pairs


class CaseRef(StrictModel):
    case_id: str
    repeat: int
    question: str
    error_a: str | None = None
    error_b: str | None = None


class Gate(StrictModel):
    margin: float
    passed: bool
    reasons: list[str]


class Comparison(StrictModel):
    schema_version: int = COMPARE_SCHEMA_VERSION
    a: Side
    b: Side
    pairs: int
    cases: int  # distinct case ids among the pairs: the bootstrap's clusters
    metrics: list[MetricComparison]
    agreement: list[Agreement]
    per_tag: list[TagDelta]  # pass_rate over the pairs, for the tags the pairs have
    regressed: list[CaseRef]  # pass → fail, answered pairs only
    fixed: list[CaseRef]  # fail → pass, answered pairs only
    errored: list[CaseRef]
    mde: float
    gate: Gate


# -- comparing --------------------------------------------------------------------------------


def _outcome(m: Metric, x: CaseResult, y: CaseResult) -> tuple[bool, bool] | None:
    """Both results' verdicts on one rate, or None when the pair does not count for it."""
    if m.over == "answered" and (x.error is not None or y.error is not None):
        return None
    if m.check is None:
        return x.passed, y.passed
    cx, cy = x.check(m.check), y.check(m.check)
    return None if cx is None or cy is None else (cx.passed, cy.passed)


def _metric(m: Metric, pairs: list[Pair]) -> MetricComparison:
    judged = [(o, x.case_id) for x, y in pairs if (o := _outcome(m, x, y)) is not None]
    out = MetricComparison(name=m.name, better=m.better, pairs=len(judged))
    if not judged:
        return out
    xs = [float(pa) for (pa, _), _ in judged]
    ys = [float(pb) for (_, pb), _ in judged]
    delta, low, high = paired_bootstrap(xs, ys, clusters=[case for _, case in judged])
    out.a, out.b = round(sum(xs) / len(xs), 6), round(sum(ys) / len(ys), 6)
    out.delta, out.ci_low, out.ci_high = round(delta, 6), round(low, 6), round(high, 6)
    out.a_only = sum(1 for (pa, pb), _ in judged if pa and not pb)
    out.b_only = sum(1 for (pa, pb), _ in judged if pb and not pa)
    out.p = mcnemar_exact(out.a_only, out.b_only)
    return out


def _verdict(m: MetricComparison) -> Verdict:
    """Better or worse only when the adjusted test and the interval agree there is a change."""
    if m.ci_low is None or m.ci_high is None:
        return "not judged"
    if m.p_holm >= ALPHA or m.ci_low <= 0 <= m.ci_high:
        return "no detectable difference"
    return "better" if (m.ci_low > 0) == (m.better != "lower") else "worse"


def _agreement(name: str, answered: list[Pair], what: Callable[[CaseResult], Any]) -> Agreement:
    """How often A and B did the same thing, whether or not it was what the golden expects."""
    agree = sum(1 for x, y in answered if what(x) == what(y))
    return Agreement(name=name, agree=agree, total=len(answered))


def _ref(x: CaseResult, y: CaseResult, *, errors: bool = False) -> CaseRef:
    ref = CaseRef(case_id=y.case_id, repeat=y.repeat, question=y.question or x.question)
    if errors:
        ref.error_a, ref.error_b = x.error, y.error
    return ref


def _side(run: LoadedRun, paired: list[CaseResult], left_out: int) -> Side:
    r = run.record
    tokens = {k: sum(x.usage.get(k, 0) for x in paired) for k in TOKENS}
    return Side(
        folder=str(run.folder),
        **r.model_dump(include={"run_id", "provider", "model", "golden_hash"}),
        results=len(run.results),
        left_out=left_out,
        errors=sum(1 for x in paired if x.error is not None),
        unsupported_numbers=sum(len(x.unsupported_numbers) for x in run.results),
        tokens={k: v for k, v in tokens.items() if v or k in TOKENS[:2]},
        cost=run.summary.cost,
        unfinished=run.unfinished,
    )


def _gate(metrics: list[MetricComparison], b: LoadedRun, margin: float) -> Gate:
    """Fails on an unfinished B, a rate worse beyond the margin with confidence, or on any
    unsupported number."""
    reasons = [f"B {b.folder}: {b.unfinished}"] if b.unfinished else []
    for m in metrics:
        if m.verdict != "worse" or m.ci_low is None or m.ci_high is None:
            continue
        beyond = m.ci_low > margin if m.better == "lower" else m.ci_high < -margin
        if beyond:
            reasons.append(
                f"{m.name} is worse: Δ {m.delta:+.3f} (95% CI {m.ci_low:+.3f} to "
                f"{m.ci_high:+.3f}, Holm p {p_text(m.p_holm)}), beyond the margin {margin:g}"
            )
    found = [r for r in b.results if r.unsupported_numbers]
    if found:
        total = sum(len(r.unsupported_numbers) for r in found)
        named = ", ".join(f"{r.case_id} ({', '.join(r.unsupported_numbers)})" for r in found[:10])
        more = f", … and {len(found) - 10} more" if len(found) > 10 else ""
        reasons.append(f"B has {total} unsupported number(s) in {len(found)} result(s): ")
        reasons[-1] += named + more
    return Gate(margin=margin, passed=not reasons, reasons=reasons)


def compare_paired(paired: Paired, *, margin: float = 0.0) -> Comparison:
    """The statistics of B against A on the (case, repeat) pairs both hold."""
    ra, rb, pairs = paired.a, paired.b, paired.pairs
    if not pairs:
        raise RecordError(
            f"{ra.folder} and {rb.folder} share no case: nothing to compare "
            f"(golden {ra.record.golden_hash} and {rb.record.golden_hash})"
        )
    answered = [(x, y) for x, y in pairs if x.error is None and y.error is None]
    metrics = [_metric(m, pairs) for m in all_metrics() if m.kind == "rate"]
    adjusted = holm({m.name: m.p for m in metrics if m.pairs})
    for m in metrics:
        m.p_holm = round(adjusted.get(m.name, 1.0), 6)
        m.verdict = _verdict(m)
    cases = len({x.case_id for x, _ in pairs})
    flips = [(flip(x, y), x, y) for x, y in pairs]
    return Comparison(
        a=_side(ra, [x for x, _ in pairs], paired.left_out("a")),
        b=_side(rb, [y for _, y in pairs], paired.left_out("b")),
        pairs=len(pairs),
        cases=cases,
        metrics=metrics,
        agreement=[
            _agreement("route", answered, lambda r: r.route),
            _agreement("statuses", answered, lambda r: sorted(r.statuses)),
        ],
        per_tag=[t for t in paired.per_tag if t.pairs],
        regressed=[_ref(x, y) for f, x, y in flips if f == "regressed"],
        fixed=[_ref(x, y) for f, x, y in flips if f == "fixed"],
        errored=[_ref(x, y, errors=True) for f, x, y in flips if f == "errored"],
        mde=round(min_detectable_effect(cases), 6),
        gate=_gate(metrics, rb, margin),
    )


def compare_runs(a: Path, b: Path, *, margin: float = 0.0) -> Comparison:
    """Compare run A with run B (the candidate) on the (case, repeat) pairs both hold."""
    return compare_paired(pair_runs(load_run(a), load_run(b)), margin=margin)


# -- writing ----------------------------------------------------------------------------------


def _signed(value: float | None) -> str:
    return "—" if value is None else f"{value:+.3f}"


def p_text(p: float | None) -> str:
    """A p-value as people read one: 0.0123, or < 0.0001 (a float underflows to 0)."""
    if p is None:
        return "—"
    return "< 0.0001" if p < 1e-4 else f"{p:.3g}"


def metric_table(c: Comparison, *, full: bool = True) -> str:
    """The rates as a github table; ``full`` adds the McNemar and Holm p columns."""
    rows = []
    for m in c.metrics:
        ci = "—" if m.ci_low is None else f"[{_signed(m.ci_low)}, {_signed(m.ci_high)}]"
        tests = [p_text(m.p), p_text(m.p_holm)] if full else []
        rows.append([m.name, num(m.a), num(m.b), _signed(m.delta), ci, *tests, m.verdict])
    tests = ["McNemar p", "Holm p"] if full else []
    return _table(rows, ["metric", "A", "B", "Δ", "95% CI", *tests, "verdict"])


def _table(rows: list[list[str]], headers: list[str]) -> str:
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def label(s: Side) -> str:
    """``provider:model`` as the run names them."""
    return f"{s.provider}:{s.model}" if s.model else s.provider


def _describe(name: str, s: Side) -> str:
    return (
        f"- **{name}** {md(s.folder)}: {md(label(s))} · run {md(s.run_id or 'baseline')} · "
        f"golden {md(s.golden_hash[:19])} · {s.results} results, {s.left_out} left out"
    )


def _listed(title: str, refs: list[CaseRef], more: Callable[[CaseRef], str]) -> list[str]:
    lines = [f"### {title} ({len(refs)})", "", *([] if refs else ["_none_"])]
    for r in refs[:MAX_LISTED]:
        repeat = f" (repeat {r.repeat})" if r.repeat else ""
        lines.append(f"- **{md(r.case_id)}**{repeat}: {md(r.question, 160)}{more(r)}")
    if len(refs) > MAX_LISTED:
        lines.append(f"- … and {len(refs) - MAX_LISTED} more in {COMPARE_JSON}")
    return [*lines, ""]


def _errors(r: CaseRef) -> str:
    def side(err: str | None) -> str:
        return "answered" if err is None else f"error: {md(err, 160)}"

    return f" · A {side(r.error_a)} · B {side(r.error_b)}"


def _cost(cost: dict[str, Any] | None) -> str:
    usd = (cost or {}).get("usd")
    if isinstance(usd, int | float):
        return f"${usd:.4f}"
    return "—" if cost is None else md(cost.get("note", "unknown"))


def _share(n: int, total: int) -> str:
    return f"{n}/{total}" + (f" ({n / total:.0%})" if total else "")


def render_compare(c: Comparison, *, gate: bool = False) -> str:
    """compare.md, a pull-request comment; ``gate`` adds the gate's verdict and its reasons."""
    tags = [
        [md(t.tag), str(t.pairs), _share(t.a_passed, t.pairs), _share(t.b_passed, t.pairs)]
        + [_signed((t.b_passed - t.a_passed) / t.pairs)]
        + [str(n) for n in (t.fixed, t.regressed, t.errored)]
        for t in c.per_tag
    ]
    tokens = [[k, str(c.a.tokens.get(k, 0)), str(c.b.tokens.get(k, 0))] for k in c.b.tokens]
    if c.a.cost is not None or c.b.cost is not None:
        tokens.append(["cost (whole run)", _cost(c.a.cost), _cost(c.b.cost)])
    lines = [f"## Model comparison: {md(label(c.a))} → {md(label(c.b))}", ""]
    lines += [_describe("A", c.a), _describe("B", c.b), ""]
    lines += unfinished_note("A", c.a.folder, c.a.unfinished)
    lines += unfinished_note("B", c.b.folder, c.b.unfinished)
    lines += [
        f"Compared on **{c.pairs} pairs** ({c.cases} cases); left out: {c.a.left_out} results "
        f"only in A, {c.b.left_out} only in B.",
        "",
    ]
    if c.a.golden_hash != c.b.golden_hash:
        lines += ["> The golden sets differ: only the cases both runs hold are compared.", ""]
    lines += [
        metric_table(c),
        "",
        "A and B are over the pairs both runs judged; Δ is B − A; the 95% interval resamples "
        f"whole cases. A verdict needs Holm p < {ALPHA:g} and an interval clear of 0.",
        "",
    ]
    if c.mde > MDE_NOTE:
        lines += [
            f"> With {c.cases} cases a difference in a rate smaller than about {c.mde:.2f} "
            f"cannot be detected (α {ALPHA:g}, power 0.8): no detectable difference is not "
            "no difference.",
            "",
        ]
    lines += ["### Agreement between A and B (answered pairs)", ""]
    lines += [*(f"- {a.name}: {_share(a.agree, a.total)}" for a in c.agreement), ""]
    headers = ["tag", "pairs", "A", "B", "Δ", "fixed", "regressed", "errored"]
    lines += ["### pass_rate per tag", "", _table(tags, headers) if tags else "_none_", ""]
    lines += _listed("Regressed (pass → fail)", c.regressed, lambda _: "")
    lines += _listed("Fixed (fail → pass)", c.fixed, lambda _: "")
    lines += [f"Errored results among the pairs: A {c.a.errors}, B {c.b.errors}.", ""]
    lines += _listed("Errored pairs (not counted as flips)", c.errored, _errors)
    lines += ["### Tokens (over the pairs) and cost", "", _table(tokens, ["", "A", "B"]), ""]
    if gate:
        verdict = "passed" if c.gate.passed else "FAILED"
        lines += [f"### Gate: {verdict} (margin {c.gate.margin:g})", ""]
        lines += [*(f"- {md(r, 2000)}" for r in c.gate.reasons), ""] if c.gate.reasons else []
    return "\n".join(lines)


def write_compare(result: Comparison, out: Path, *, gate: bool = False) -> None:
    """``compare.json`` (the record) and ``compare.md`` (a pull-request comment) in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(result.model_dump(mode="json"), ensure_ascii=False, indent=2, sort_keys=True)
    (out / COMPARE_JSON).write_text(text + "\n", encoding="utf-8", errors="replace")
    (out / COMPARE_MD).write_text(render_compare(result, gate=gate), "utf-8", errors="replace")
