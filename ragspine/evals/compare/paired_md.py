"""``compare.md``: a comparison as a pull-request comment, and the sentences the page shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabulate import tabulate

from ragspine.evals.compare.record import ALPHA, CaseRef, Comparison, MetricComparison, Side
from ragspine.evals.report.markdown import num
from ragspine.evals.report.wording import md
from ragspine.evals.run.folder import unfinished_note

COMPARE_MD = "compare.md"
MAX_LISTED = 50  # cases per section in compare.md; GitHub comments stop at 65,536 characters
REPEAT_ROWS = (
    ("pass_at_k", "pass@{k} (some repeat passes)"),
    ("pass_hat_k", "pass^{k} (every repeat passes)"),
    ("stable_pass", "stable pass (cases)"),
    ("flaky", "flaky (cases)"),
    ("stable_fail", "stable fail (cases)"),
)


def _signed(value: float | None) -> str:
    return "—" if value is None else f"{value:+.3f}"


def p_text(p: float | None) -> str:
    """A p-value as people read one: 0.0123, or < 0.0001 (a float underflows to 0); — when no
    test was run."""
    if p is None:
        return "—"
    return "< 0.0001" if p < 1e-4 else f"{p:.3g}"


def role_text(m: MetricComparison) -> str:
    if m.same_as:
        return f"= {m.same_as}"
    return m.role or "—"


def metric_table(c: Comparison, *, full: bool = True) -> str:
    """The rates as a github table; ``full`` adds the role, the tests and the power."""
    rows = []
    for m in c.metrics:
        ci = "—" if m.ci_low is None else f"[{_signed(m.ci_low)}, {_signed(m.ci_high)}]"
        more = [role_text(m), str(m.cases)] if full else []
        tests = [p_text(m.p), p_text(m.p_adjusted), num(m.mde)] if full else []
        rows.append([m.name, *more, num(m.a), num(m.b), _signed(m.delta), ci, *tests, m.verdict])
    heads = ["role", "cases"] if full else []
    tests = ["p (exact)", "adjusted p", "80% power at"] if full else []
    return _table(rows, ["metric", *heads, "A", "B", "Δ", "95% CI", *tests, "verdict"])


def method_note(c: Comparison) -> str:
    """How the table was made, in the words of the table."""
    return (
        "Each rate is over the cases both runs answered, a case counting as its share of passing "
        "repeats over the repeats each side answered (errors are counted apart, below); Δ is "
        "B − A, with Agresti–Min's 95% interval over cases; p is the exact paired permutation "
        f"test on the per-case differences. The primary rate ({c.primary}) is tested alone at "
        f"α {ALPHA:g}; the family's rates are Holm-adjusted together, each distinct test once "
        "(= NAME: the same evidence as NAME, so the same test); a rate in neither is shown, not "
        f"judged. A verdict needs its p under {ALPHA:g} and an interval clear of 0."
    )


def mde_note(c: Comparison) -> str | None:
    """The primary rate's power, in words: what size of difference this comparison would find."""
    m = c.metric(c.primary)
    if not m.cases or m.p is None:
        return None
    if m.mde is None:
        return (
            f"With {m.cases} cases no difference in {m.name}, however large, would be found 80% "
            f"of the time (α {ALPHA:g}): too few cases to judge, so no detectable difference "
            "here says nothing either way."
        )
    return (
        f"A difference of {m.mde:.3g} in {m.name} ({round(m.mde * m.cases)} of {m.cases} cases) "
        f"would be found 80% of the time (α {ALPHA:g}, A and B disagreeing as often as they do "
        "here); a smaller one may be missed: no detectable difference is not no difference."
    )


def repeat_rows(c: Comparison) -> list[list[str]]:
    """pass@k, pass^k and the flaky counts of A and B, with B − A."""
    ra, rb = c.a.repeats or {}, c.b.repeats or {}
    k = rb.get("k") or ra.get("k")
    rows = []
    for key, name in REPEAT_ROWS:
        va, vb = ra.get(key), rb.get(key)
        if va is None or vb is None:
            text = "—"
        else:  # a count's delta as a count, a rate's signed
            text = num(vb - va) if isinstance(va, int) and isinstance(vb, int) else _signed(vb - va)
        rows.append([name.format(k=k), num(va), num(vb), text])
    return rows


def repeats_table(c: Comparison) -> str | None:
    """The repeats' table (compare.md and the console), None when neither run repeated."""
    if not (c.a.repeats or c.b.repeats):
        return None
    return _table(repeat_rows(c), ["", "A", "B", "Δ"])


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
        lines.append(f"- … and {len(refs) - MAX_LISTED} more in compare.json")
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


def errors_line(c: Comparison) -> str:
    """Errors apart from quality: how many, and whether they stopped the verdicts."""

    def side(s: Side) -> str:
        return f"{s.errors} results in {s.errored_cases} cases"

    said = f"Errored results among the pairs: A {side(c.a)}, B {side(c.b)}"
    if c.inconclusive:
        return f"{said}: above the error-rate limit {c.max_error_rate:g}, so no rate was judged."
    return f"{said} (limit {c.max_error_rate:g} of the pairs)."


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
    if c.inconclusive:
        lines += [f"> **Inconclusive: {md(c.inconclusive)}.** {errors_line(c)}", ""]
    lines += [
        f"Compared on **{c.cases} cases** ({c.pairs} pairs); left out: {c.a.left_out} results "
        f"only in A, {c.b.left_out} only in B.",
        "",
    ]
    if c.a.golden_hash != c.b.golden_hash:
        lines += ["> The golden sets differ: only the cases both runs hold are compared.", ""]
    lines += [metric_table(c), "", method_note(c), ""]
    if note := mde_note(c):
        lines += [f"> {note}", ""]
    if repeats := repeats_table(c):
        lines += ["### Repeats (each side over its answered repeats)", "", repeats, ""]
    lines += ["### Agreement between A and B (answered pairs)", ""]
    lines += [*(f"- {a.name}: {_share(a.agree, a.total)}" for a in c.agreement), ""]
    headers = ["tag", "pairs", "A", "B", "Δ", "fixed", "regressed", "errored"]
    lines += ["### pass_rate per tag", "", _table(tags, headers) if tags else "_none_", ""]
    lines += _listed("Regressed (pass → fail)", c.regressed, lambda _: "")
    lines += _listed("Fixed (fail → pass)", c.fixed, lambda _: "")
    lines += [errors_line(c), ""]
    lines += _listed("Errored pairs (not counted as flips)", c.errored, _errors)
    lines += ["### Tokens (over the pairs) and cost", "", _table(tokens, ["", "A", "B"]), ""]
    if gate:
        verdict = "passed" if c.gate.passed else "FAILED"
        lines += [f"### Gate: {verdict} (margin {c.gate.margin:g})", ""]
        lines += [*(f"- {md(r, 2000)}" for r in c.gate.reasons), ""] if c.gate.reasons else []
    return "\n".join(lines)
