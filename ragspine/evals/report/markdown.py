"""A run, rendered for people (``report.md``) and for CI test reporters (``junit.xml``).

Answers and questions are untrusted text: markdown cells escape what would break a table or
inject HTML, and XML goes through ElementTree with characters XML 1.0 forbids replaced.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tabulate import tabulate

from ragspine.evals.report.wording import check_text, md
from ragspine.evals.run.folder import unfinished_state
from ragspine.evals.run.records import REPORT_FILE, CaseResult, RunRecord, Summary
from ragspine.evals.score.metrics import all_metrics


def num(value: float | None) -> str:
    if value is None:
        return "—"
    if isinstance(value, int):
        return str(value)
    return f"{round(value, 4):g}"


def is_rate(value: Any) -> bool:
    return isinstance(value, dict) and "value" in value and "total" in value


def ordered(metrics: dict[str, Any]) -> list[tuple[str, Any]]:
    """Declared metrics first, in their order (summary.json is written with sorted keys)."""
    rank = {m.name: i for i, m in enumerate(all_metrics())}
    return sorted(metrics.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0]))


def flatten_metrics(metrics: dict[str, Any]) -> dict[str, float | None]:
    """``summary.metrics`` as ``name`` / ``name.leaf`` → number: a rate is its ``value``."""
    out: dict[str, float | None] = {}

    def walk(name: str, value: Any) -> None:
        if is_rate(value):
            walk(name, value["value"])
        elif isinstance(value, dict):
            for key, inner in value.items():
                walk(f"{name}.{key}", inner)
        elif value is None or (isinstance(value, int | float) and not isinstance(value, bool)):
            out[name] = value

    for key, value in ordered(metrics):
        walk(key, value)
    return out


def headline_text(summary: Summary) -> str:
    """The console's summary: a line per headline metric, rates with count/total and interval."""
    m = summary.metrics
    r = summary.repeats
    # with repeats a result is one trial of a case: the cases are counted as cases
    cases = f"{r['cases']} × {r['k']} repeats ({summary.cases} results)" if r else summary.cases
    lines = [f"cases: {cases}  errors: {m.get('errors', 0)}{_kinds(summary)}"]
    for metric in all_metrics():
        value = m.get(metric.name)
        if not metric.headline or not value:
            continue
        if metric.kind in ("rate", "share"):
            if is_rate(value) and value.get("total"):
                lines.append(
                    f"{metric.name:<24}{value['value']:.3f}  ({value['count']}/{value['total']}, "
                    f"95% CI {value['ci_low']:.3f}–{value['ci_high']:.3f})"
                )
        elif metric.kind == "numbers":
            lines.append(f"{metric.name:<24}{value['numbers']} in {value['cases']} cases")
        else:  # latency: "p50 …  p95 …"; a plain count as its number
            leaves = [f"{leaf} {value.get(leaf)}" for leaf in metric.leaves]
            lines.append(f"{metric.name:<24}{'  '.join(leaves) if leaves else num(value)}")
    if "unsupported_numbers" not in m:  # an empty run still says it found nothing unsupported
        lines.append(f"{'unsupported_numbers':<24}0 in 0 cases")
    if summary.cost is not None:
        lines.append(f"{'cost':<24}{cost_text(summary.cost)}")
    if r:
        fewer = f"; {r['short']} case(s) over fewer answered repeats" if r.get("short") else ""
        none = f"; {r['unanswered']} case(s) with none answered" if r.get("unanswered") else ""
        lines.append(
            f"{'repeats':<24}{r['k']} per case: {r['stable_pass']} stable pass, {r['flaky']} "
            f"flaky, {r['stable_fail']} stable fail; pass@{r['k']} {num(r['pass_at_k'])}  "
            f"pass^{r['k']} {num(r['pass_hat_k'])}{fewer}{none}"
        )
    return "\n".join(lines)


def cost_text(cost: dict[str, Any]) -> str:
    """``$0.0123 (claude-opus-4-8 at the prices of 2026-11-01)`` or why there is none."""
    if cost.get("usd") is None:
        return f"unknown ({cost.get('note', 'no price')})"
    if "price" not in cost:
        return f"${cost['usd']:.4f} ({cost.get('note', '')})"
    paid = f"; this run folder paid ${cost['paid_usd']:.4f}" if "paid_usd" in cost else ""
    return f"${cost['usd']:.4f} ({cost['price']} at the prices of {cost['as_of']}{paid})"


def _kinds(summary: Summary) -> str:
    """`` (rate_limit 3, server 1)``: an outage told apart from a quality result."""
    kinds = summary.errors_by_kind
    return f" ({', '.join(f'{k} {n}' for k, n in kinds.items())})" if kinds else ""


def _rate_cells(rate: dict[str, Any]) -> list[str]:
    value, low, high = rate.get("value"), rate.get("ci_low"), rate.get("ci_high")
    return [
        "—" if value is None else f"{value:.3f}",
        f"{rate.get('count', 0)}/{rate.get('total', 0)}",
        "—" if low is None or high is None else f"{low:.3f}–{high:.3f}",
    ]


def _table(rows: list[list[str]], headers: list[str]) -> str:
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def _headline(summary: Summary) -> str:
    rows: list[list[str]] = []
    for name, value in ordered(summary.metrics):
        if is_rate(value):
            rows.append([name, *_rate_cells(value)])
        else:
            rows += [[leaf, num(v), "", ""] for leaf, v in flatten_metrics({name: value}).items()]
    return _table(rows, ["metric", "value", "count/total", "95% CI"])


def _errors(summary: Summary) -> str:
    kinds = summary.errors_by_kind
    if not kinds:
        return "_none: the provider answered every case_"
    rows = [[kind, str(n)] for kind, n in kinds.items()]
    note = (
        "A case the provider failed counts against `pass_rate` but never as a miss of a check: "
        "the check rates and `answered_pass_rate` are over the answered cases only."
    )
    return _table(rows, ["kind", "cases"]) + "\n\n" + note


def _repeats(summary: Summary) -> list[str]:
    r = summary.repeats
    if not r:
        return []
    k = r["k"]
    rows = [
        ["stable pass", str(r["stable_pass"])],
        ["flaky", str(r["flaky"])],
        ["stable fail", str(r["stable_fail"])],
        [f"pass@{k} (some repeat passes)", num(r["pass_at_k"])],
        [f"pass^{k} (every repeat passes)", num(r["pass_hat_k"])],
    ]
    flaky = ", ".join(md(c) for c in r["flaky_cases"]) or "_none_"
    return [
        f"## Repeats ({k} per case, {r['cases']} cases)",
        "",
        _table(rows, ["verdict", "cases"]),
        "",
        "The intervals above cluster each case's repeats: they are not independent trials. "
        "A flaky case is never retried until it is green. " + repeats_note(r),
        "",
        f"Flaky cases: {flaky}",
        "",
    ]


def repeats_note(r: dict[str, Any]) -> str:
    """How errors shaped the repeat verdicts: each case is read over its answered repeats."""
    note = "Each case is read over the repeats its provider answered."
    if r.get("short"):
        note += f" {r['short']} case(s) had fewer than {r['k']} answered (the rest errored)."
    if r.get("unanswered"):
        note += f" {r['unanswered']} case(s) had none answered and are in no rate."
    return note


def _per_tag(summary: Summary) -> str:
    rows = [
        [md(tag), *_rate_cells(rates["pass_rate"])]
        for tag, rates in sorted(summary.per_tag.items())
        if is_rate(rates.get("pass_rate"))
    ]
    return _table(rows, ["tag", "pass_rate", "count/total", "95% CI"]) if rows else "_no tags_"


CONFUSION_NOTE = "Cases whose golden entry states guard_triggered; errored cases are left out."


def narrative_note(summary: Summary) -> str:
    """What the narrative guard removed and what the audit found in the model's raw prose."""
    removed = summary.metrics.get("narrative_removed") or {}
    raw = summary.metrics.get("raw_unsupported") or {}
    return (
        f"Narrative guard: {removed.get('numbers', 0)} number(s) removed in "
        f"{removed.get('cases', 0)} case(s); the audit found {raw.get('numbers', 0)} "
        f"unsupported number(s) in the model's raw prose in {raw.get('cases', 0)} case(s)."
    )


def _confusion(summary: Summary) -> str:
    c = summary.guard_confusion
    if not c:
        return "_no case states whether the guard should fire_"
    if set(c) <= {"tp", "fp", "fn", "tn"}:
        rows = [
            ["expected to fire", str(c.get("tp", 0)), str(c.get("fn", 0))],
            ["expected quiet", str(c.get("fp", 0)), str(c.get("tn", 0))],
        ]
        table = _table(rows, ["", "guard fired", "guard quiet"])
        return f"{table}\n\n{CONFUSION_NOTE}\n\n{narrative_note(summary)}"
    return _table([[md(k), str(v)] for k, v in c.items()], ["cell", "cases"])


def _failure(r: CaseResult) -> list[str]:
    title = f"### {md(r.case_id)}" + (f" (repeat {r.repeat})" if r.repeat else "")
    lines = [title, "", f"> {md(r.question, 500)}", ""]
    if r.error is not None:
        lines.append(f"- **error**: {md(r.error, 500)}")
    for check in r.checks:
        if not check.passed:
            lines.append(f"- **{md(check.name)}**: {md(check_text(check), 500)}")
    if r.answer is not None:
        lines += ["", f"answer: {md(r.answer, 500)}"]
    return [*lines, ""]


def _raw_findings(results: list[CaseResult]) -> list[str]:
    """Per case, what the audit found in the model's prose and whether the answer still shows it."""
    flagged = sorted((r for r in results if r.raw_unsupported), key=lambda r: r.key)
    if not flagged:
        return ["_the audit found no unsupported number in any model prose_"]
    return [
        f"- {md(r.case_id)}: {md(', '.join(r.raw_unsupported), 500)}"
        f" (the guard removed {r.guard_removed})"
        for r in flagged
    ]


def _unfinished(record: RunRecord, results: int) -> list[str]:
    state = unfinished_state(record, results)
    if state is None:
        return []
    return [
        f"> **The run is {state}.** What follows covers the results so far; "
        "`ragspine eval run --resume` on this folder finishes it.",
        "",
    ]


def render_report(record: RunRecord, summary: Summary, results: list[CaseResult]) -> str:
    failed = sorted((r for r in results if not r.passed), key=lambda r: r.key)
    model = f" · model {md(record.model)}" if record.model else ""
    model += f" · endpoint {md(record.endpoint)}" if record.endpoint else ""
    lines = [
        f"# Eval run {md(record.run_id)}",
        "",
        f"- provider: {md(record.provider)}{model}",
        f"- golden set: {md(record.golden_path)} ({md(record.golden_hash)})",
        f"- git commit: {md(record.git_commit or 'unknown')}",
        f"- cost: {cost_text(summary.cost) if summary.cost else '—'}",
        f"- results: {len(results)} of {record.cases_planned} planned · {record.status}"
        f" · started {record.started_at or '—'} · finished {record.finished_at or '—'}",
        "",
        *_unfinished(record, len(results)),
        "## Headline metrics",
        "",
        _headline(summary),
        "",
        "## Errors by kind",
        "",
        _errors(summary),
        "",
        *_repeats(summary),
        "## Pass rate per tag",
        "",
        _per_tag(summary),
        "",
        "## Guard confusion matrix",
        "",
        _confusion(summary),
        "",
        "## The model's raw prose",
        "",
        *_raw_findings(results),
        "",
        f"## Failures ({len(failed)})",
        "",
    ]
    if not failed:
        lines += ["_none: every case passed_", ""]
    for r in failed:
        lines += _failure(r)
    return "\n".join(lines)


def write_report(
    folder: Path, record: RunRecord, summary: Summary, results: list[CaseResult]
) -> None:
    """``report.md`` and ``junit.xml`` in the run folder."""
    from ragspine.evals.report.junit import write_junit

    text = render_report(record, summary, results)
    (folder / REPORT_FILE).write_text(text, encoding="utf-8", errors="replace")
    write_junit(folder, record, results)
