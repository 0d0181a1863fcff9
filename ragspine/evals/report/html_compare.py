"""``compare.html``: two models side by side, per metric and per tag, with intervals; one
self-contained file like ``report.html`` (``html_report`` and ``html_charts``)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ragspine.evals.compare.paired_md import (
    errors_line,
    label,
    mde_note,
    method_note,
    p_text,
    repeat_rows,
    role_text,
)
from ragspine.evals.compare.record import CaseRef, Comparison, Side
from ragspine.evals.report import charts as ch
from ragspine.evals.report.charts import esc

COMPARE_HTML = "compare.html"


# -- a comparison -----------------------------------------------------------------------------

VERDICT_COLOR = {"better": ch.GREEN, "worse": ch.RED}


def _name(s: Side) -> str:
    """``anthropic:sloppy-1``, not ``anthropic:sloppy-1:sloppy-1``."""
    return s.provider if s.model and s.provider.endswith(s.model) else label(s)


def _side(name: str, s: Side) -> tuple[str, str]:
    return name, (
        f"<b>{esc(_name(s))}</b> · {esc(s.folder)} · run {esc(s.run_id or 'baseline')} · "
        f"golden {esc(s.golden_hash[:19])} · {s.results} results, {s.left_out} left out"
    )


def _span(c: Comparison) -> float:
    """One axis for every Δ, so the intervals compare by eye: ±0.1 at least, in tenths."""
    ends = [abs(v) for m in c.metrics for v in (m.ci_low, m.ci_high, m.delta) if v is not None]
    return min(1.0, max(0.1, math.ceil(max([0.0, *ends]) * 10 - 1e-9) / 10))


def _metric_rows(c: Comparison) -> str:
    span, rows = _span(c), []
    for m in c.metrics:
        ci = "—" if m.ci_low is None else f"[{m.ci_low:+.3f}, {m.ci_high:+.3f}]"
        delta = "—" if m.delta is None else f"{m.delta:+.3f}"
        color = VERDICT_COLOR.get(m.verdict, ch.BLUE)
        title = f"{m.name}: Δ {delta}, 95% CI {ci}"
        bar = ch.interval(m.delta, m.ci_low, m.ci_high, lo=-span, hi=span, color=color, title=title)
        pair = ch.paired(m.a, m.b, title=f"{m.name}: A {ch.fmt(m.a)}, B {ch.fmt(m.b)}")
        css = m.verdict if m.verdict in VERDICT_COLOR else "same"
        badge = f'<span class="badge {css}">{esc(m.verdict)}</span>'
        mde = "—" if m.mde is None else f"{m.mde:.3f}"
        rows.append(
            f'<tr data-metric="{esc(m.name)}"><td>{esc(m.name)}</td><td>{esc(role_text(m))}</td>'
            f'<td class="n">{m.cases}</td><td>{pair}</td>'
            f'<td>{bar} <span class="nw">{delta} {ci}</span></td>'
            f'<td class="n">{p_text(m.p)}</td><td class="n">{p_text(m.p_adjusted)}</td>'
            f'<td class="n">{mde}</td><td>{badge}</td></tr>'
        )
    headers = ["metric", "role", "cases", "A vs B", f"Δ = B − A, 95% CI (axis ±{span:g})"]
    headers += ["p (exact)", "adjusted p", "80% power at", "verdict"]
    # a chart keeps the width it is drawn at; the interval's text goes under it when short
    rates = ch.table(headers, rows, ' class="figs" data-chart="metrics"')
    return rates + f'<p class="note">{esc(method_note(c))}</p>'


def _repeats(c: Comparison) -> str:
    if not (c.a.repeats or c.b.repeats):
        return ""
    rows = [
        f'<tr><td>{esc(name)}</td><td class="n">{a}</td><td class="n">{b}</td>'
        f'<td class="n">{d}</td></tr>'
        for name, a, b, d in repeat_rows(c)
    ]
    table = ch.table(["", "A", "B", "Δ"], rows, ' class="narrow" data-chart="repeats-compare"')
    return ch.section("Repeats (each side over its answered repeats)", table)


def _tag_rows(c: Comparison) -> str:
    if not c.per_tag:
        return '<p class="note">none</p>'
    rows = []
    for t in sorted(c.per_tag, key=lambda t: ((t.b_passed - t.a_passed) / t.pairs, t.tag)):
        a, b = t.a_passed / t.pairs, t.b_passed / t.pairs
        pair = ch.paired(a, b, title=f"{t.tag}: A {t.a_passed}/{t.pairs}, B {t.b_passed}/{t.pairs}")
        counts = "".join(f'<td class="n">{n}</td>' for n in (t.fixed, t.regressed, t.errored))
        rows.append(
            f'<tr><td>{esc(t.tag)}</td><td class="n">{t.pairs}</td><td>{pair}</td>'
            f'<td class="n">{t.a_passed}/{t.pairs} → {t.b_passed}/{t.pairs}</td>'
            f'<td class="n">{b - a:+.3f}</td>{counts}</tr>'
        )
    headers = ["tag", "pairs", "A vs B", "passed", "Δ", "fixed", "regressed", "errored"]
    note = '<p class="note">Most worsened first; Δ is B − A in the share passed.</p>'
    return ch.table(headers, rows, ' class="figs" data-chart="per-tag-compare"') + note


def _refs(refs: list[CaseRef], *, errors: bool = False) -> str:
    if not refs:
        return '<p class="note">none</p>'

    def side(err: str | None) -> str:
        return "answered" if err is None else ch.trimmed(err, "ans")

    rows = [
        f"<tr><td>{esc(r.case_id)}{f' #{r.repeat}' if r.repeat else ''}</td>"
        f'<td class="q">{esc(r.question)}</td>'
        + (f"<td>{side(r.error_a)}</td><td>{side(r.error_b)}</td>" if errors else "")
        + "</tr>"
        for r in refs
    ]
    return ch.table(["case", "question", *(["A", "B"] if errors else [])], rows)


def _cost(cost: dict[str, Any] | None) -> str:
    usd = (cost or {}).get("usd")
    if isinstance(usd, int | float):
        return f"${usd:.4f}"
    return "—" if cost is None else esc(cost.get("note", "unknown"))


def _tokens(c: Comparison) -> str:
    rows = [
        f'<tr><td>{esc(k)}</td><td class="n">{c.a.tokens.get(k, 0)}</td>'
        f'<td class="n">{c.b.tokens.get(k, 0)}</td></tr>'
        for k in c.b.tokens
    ]
    if c.a.cost is not None or c.b.cost is not None:
        rows.append(
            f"<tr><td>cost (whole run)</td><td>{_cost(c.a.cost)}</td>"
            f"<td>{_cost(c.b.cost)}</td></tr>"
        )
    return ch.table(["", "A", "B"], rows, ' class="narrow" data-chart="tokens"')


def render_compare_html(comparison: Comparison, *, gate: bool = True) -> str:
    """``compare.html``: what compare.md says, A, B and Δ drawn; ``gate`` adds its verdict."""
    c = comparison
    title = f"Model comparison: {_name(c.a)} → {_name(c.b)}"
    intro = (
        f"<p>Compared on <b>{c.cases} cases</b> ({c.pairs} pairs); left out: {c.a.left_out} "
        f"results only in A, {c.b.left_out} only in B.</p>"
    )
    if c.inconclusive:
        intro += (
            f'<p class="note" data-note="inconclusive"><b>Inconclusive: {esc(c.inconclusive)}.'
            f"</b> {esc(errors_line(c))}</p>"
        )
    for name, side in (("A", c.a), ("B", c.b)):
        if side.unfinished:
            intro += (
                f'<p class="note" data-note="unfinished"><b>{name} is unfinished.</b> '
                f"{esc(side.folder)}: {esc(side.unfinished)}.</p>"
            )
    if c.a.golden_hash != c.b.golden_hash:
        intro += (
            '<p class="note">The golden sets differ: only the cases both hold are compared.</p>'
        )
    if note := mde_note(c):
        intro += f'<p class="note" data-note="mde">{esc(note)}</p>'
    agreement = "".join(f"<li>{esc(a.name)}: {a.agree}/{a.total}</li>" for a in c.agreement)
    body = [
        f"<header><h1>{esc(title)}</h1>{ch.meta([_side('A', c.a), _side('B', c.b)])}"
        f"{intro}</header>",
        ch.section("Rates, A vs B", _metric_rows(c)),
        _repeats(c),
        ch.section("Agreement between A and B (answered pairs)", f"<ul>{agreement}</ul>"),
        ch.section("pass_rate per tag", _tag_rows(c)),
        ch.section(f"Regressed: pass → fail ({len(c.regressed)})", _refs(c.regressed)),
        ch.section(f"Fixed: fail → pass ({len(c.fixed)})", _refs(c.fixed)),
        ch.section(
            f"Errored pairs, not counted as flips ({len(c.errored)})",
            f'<p class="note">{esc(errors_line(c))}</p>',
            _refs(c.errored, errors=True),
        ),
        ch.section("Tokens (over the pairs) and cost", _tokens(c)),
    ]
    if gate:
        verdict = "passed" if c.gate.passed else "FAILED"
        css = "better" if c.gate.passed else "worse"
        reasons = "".join(f"<li>{esc(r)}</li>" for r in c.gate.reasons)
        body.append(
            ch.section(
                f"Gate (margin {c.gate.margin:g})",
                f'<p data-gate="{verdict}"><span class="badge {css}">{verdict}</span></p>',
                f"<ul>{reasons}</ul>" if reasons else "",
            )
        )
    return ch.page(title, "".join(body))


def write_compare_html(comparison: Comparison, out: Path, *, gate: bool = True) -> Path:
    """``compare.html`` in ``out`` (created if need be), written whole or not at all."""
    out.mkdir(parents=True, exist_ok=True)
    return ch.write_atomic(out / COMPARE_HTML, render_compare_html(comparison, gate=gate))
