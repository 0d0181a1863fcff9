"""Two runs of one golden set by two models, compared case by case: is B really better or worse?

`diff` lists what changed; this says whether a change in a rate is more than noise. Results are
paired by ``(case_id, repeat)`` on the cases both runs hold (the comparison core, ``pairing``),
and the CASE is the unit of every test: each rate gets, over the cases both runs answered, each
case's share of passing repeats on each side (``cases``), B − A with Agresti–Min's 95% interval
over cases, an exact paired permutation test on the per-case differences (``stats``), and a
verdict at the level its role sets (``family``: the primary rate alone at α, the family
Holm-adjusted, the rest not judged). Errors are apart from quality: an errored repeat is no
failure of any rate, errored pairs are listed apart, and a run that errored past
``max_error_rate`` gets no quality verdict at all ("inconclusive: B errored on N cases"). An
unfinished run is compared on the pairs it has and named as such; with the gate, an unfinished B
fails it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ragspine.evals.compare import cases as evidence_of
from ragspine.evals.compare.cases import Evidence
from ragspine.evals.compare.family import CompareConfig, judge
from ragspine.evals.compare.paired_md import COMPARE_MD, p_text, render_compare
from ragspine.evals.compare.pairing import Paired, flip, pair_runs
from ragspine.evals.compare.record import (
    Agreement,
    CaseRef,
    Comparison,
    Gate,
    MetricComparison,
    Side,
)
from ragspine.evals.compare.stats import paired_interval
from ragspine.evals.run.folder import LoadedRun, load_run
from ragspine.evals.run.records import CaseResult, RecordError
from ragspine.evals.score.metrics import Metric, all_metrics

COMPARE_JSON = "compare.json"
MAX_ERROR_RATE = 0.1  # as `eval run` and `eval gate`
TOKENS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


def measure(m: Metric, e: Evidence) -> MetricComparison:
    """A rate's difference, interval and discordance over the cases of its evidence; untested."""
    out = MetricComparison(name=m.name, better=m.better, cases=len(e.cases))
    if not e.cases:
        return out
    d = e.diff
    low, high = paired_interval(d)
    out.a, out.b = round(Evidence.share(e.a), 6), round(Evidence.share(e.b), 6)
    out.delta, out.ci_low, out.ci_high = round(float(d.mean()), 6), round(low, 6), round(high, 6)
    out.a_only, out.b_only = int((d < 0).sum()), int((d > 0).sum())
    out.discordance = round(float((d * d).mean()), 6)
    return out


def _agreement(name: str, answered: list[Any], what: Callable[[CaseResult], Any]) -> Agreement:
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
        errored_cases=evidence_of.errored_cases(paired),
        unsupported_numbers=sum(len(x.unsupported_numbers) for x in run.results),
        tokens={k: v for k, v in tokens.items() if v or k in TOKENS[:2]},
        cost=run.summary.cost,
        unfinished=run.unfinished,
        repeats=evidence_of.repeats(paired),
    )


def inconclusive(a: Side, b: Side, pairs: int, limit: float) -> str | None:
    """``B errored on 40 cases`` when a side's errored share of the pairs is over ``limit``."""
    over = [(name, s) for name, s in (("A", a), ("B", b)) if s.errors / pairs > limit]
    if not over:
        return None
    said = [f"{name} errored on {s.errored_cases} cases" for name, s in over]
    return " and ".join(said)


def _error_reason(a: Side, b: Side, pairs: int, limit: float, why: str) -> str:
    shares = ", ".join(
        f"{name} {s.errors} of {pairs} results ({s.errors / pairs:.0%})"
        for name, s in (("A", a), ("B", b))
        if s.errors / pairs > limit
    )
    return (
        f"inconclusive: {why} ({shares}), above the error-rate limit {limit:g}: quality was not "
        "judged; the errors are listed apart"
    )


def _gate(c: Comparison, b: LoadedRun, margin: float) -> Gate:
    """Fails on an unfinished B, on a run errored past its limit (named as errors, never as a
    quality regression), on a judged rate worse beyond the margin with confidence, or on any
    unsupported number in B."""
    reasons = [f"B {b.folder}: {b.unfinished}"] if b.unfinished else []
    if c.inconclusive:
        reasons.append(_error_reason(c.a, c.b, c.pairs, c.max_error_rate, c.inconclusive))
    for m in c.metrics:
        if m.verdict != "worse" or m.same_as or m.ci_low is None or m.ci_high is None:
            continue
        beyond = m.ci_low > margin if m.better == "lower" else m.ci_high < -margin
        if beyond:
            test = "p" if m.role == "primary" else "Holm p"
            reasons.append(
                f"{m.name} is worse: Δ {m.delta:+.3f} (95% CI {m.ci_low:+.3f} to "
                f"{m.ci_high:+.3f}, {test} {p_text(m.p_adjusted)}), beyond the margin {margin:g}"
            )
    found = [r for r in b.results if r.unsupported_numbers]
    if found:
        total = sum(len(r.unsupported_numbers) for r in found)
        named = ", ".join(f"{r.case_id} ({', '.join(r.unsupported_numbers)})" for r in found[:10])
        more = f", … and {len(found) - 10} more" if len(found) > 10 else ""
        reasons.append(f"B has {total} unsupported number(s) in {len(found)} result(s): ")
        reasons[-1] += named + more
    return Gate(margin=margin, passed=not reasons, reasons=reasons)


def compare_paired(
    paired: Paired,
    *,
    margin: float = 0.0,
    config: CompareConfig | None = None,
    max_error_rate: float = MAX_ERROR_RATE,
) -> Comparison:
    """The statistics of B against A on the cases both hold."""
    ra, rb, pairs = paired.a, paired.b, paired.pairs
    if not pairs:
        raise RecordError(
            f"{ra.folder} and {rb.folder} share no case: nothing to compare "
            f"(golden {ra.record.golden_hash} and {rb.record.golden_hash})"
        )
    config = config or CompareConfig()
    answered = [(x, y) for x, y in pairs if x.error is None and y.error is None]
    a = _side(ra, [x for x, _ in pairs], paired.left_out("a"))
    b = _side(rb, [y for _, y in pairs], paired.left_out("b"))
    rates = [m for m in all_metrics() if m.kind == "rate"]
    evidence = {m.name: evidence_of.evidence(m, pairs) for m in rates}
    metrics = [measure(m, evidence[m.name]) for m in rates]
    why = inconclusive(a, b, len(pairs), max_error_rate)
    judge(metrics, evidence, config, inconclusive=why)
    flips = [(flip(x, y), x, y) for x, y in pairs]
    c = Comparison(
        a=a,
        b=b,
        pairs=len(pairs),
        cases=len({x.case_id for x, _ in pairs}),
        primary=config.primary,
        family=config.members(),
        max_error_rate=max_error_rate,
        inconclusive=why,
        metrics=metrics,
        agreement=[
            _agreement("route", answered, lambda r: r.route),
            _agreement("statuses", answered, lambda r: sorted(r.statuses)),
        ],
        per_tag=[t for t in paired.per_tag if t.pairs],
        regressed=[_ref(x, y) for f, x, y in flips if f == "regressed"],
        fixed=[_ref(x, y) for f, x, y in flips if f == "fixed"],
        errored=[_ref(x, y, errors=True) for f, x, y in flips if f == "errored"],
        gate=Gate(margin=margin, passed=True, reasons=[]),
    )
    c.gate = _gate(c, rb, margin)
    return c


def compare_runs(
    a: Path,
    b: Path,
    *,
    margin: float = 0.0,
    config: CompareConfig | None = None,
    max_error_rate: float = MAX_ERROR_RATE,
) -> Comparison:
    """Compare run A with run B (the candidate) on the cases both hold."""
    return compare_paired(
        pair_runs(load_run(a), load_run(b)),
        margin=margin,
        config=config,
        max_error_rate=max_error_rate,
    )


def write_compare(result: Comparison, out: Path, *, gate: bool = False) -> None:
    """``compare.json`` (the record) and ``compare.md`` (a pull-request comment) in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(result.model_dump(mode="json"), ensure_ascii=False, indent=2, sort_keys=True)
    (out / COMPARE_JSON).write_text(text + "\n", encoding="utf-8", errors="replace")
    (out / COMPARE_MD).write_text(render_compare(result, gate=gate), "utf-8", errors="replace")
