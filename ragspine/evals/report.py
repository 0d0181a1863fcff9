"""A run, rendered for people (``report.md``) and for CI test reporters (``junit.xml``).

Answers and questions are untrusted text: markdown cells escape what would break a table or
inject HTML, and XML goes through ElementTree with characters XML 1.0 forbids replaced.
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from tabulate import tabulate

from ragspine.evals.metrics import all_metrics
from ragspine.evals.records import JUNIT_FILE, REPORT_FILE, CaseResult, RunRecord, Summary

# XML 1.0 forbids these even as character references; ElementTree would write them anyway.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ERROR_TYPE = re.compile(r"[A-Za-z_][\w.]{0,99}(?=:)")  # "ProviderError: ..." → ProviderError


def clean(text: str) -> str:
    """Text safe for XML and terminals: forbidden characters shown as ``\\xNN``."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def show(value: Any) -> str:
    """A check's expected/actual as one short line: strings bare, the rest as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def md(value: Any, limit: int = 200) -> str:
    """Untrusted text for a markdown line or table cell: one line, no HTML, no stray pipes."""
    text = clean(show(value))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    text = html.escape(text, quote=False).replace("|", "\\|")
    return " ".join(text.split()) or " "


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
    lines = [f"cases: {summary.cases}  errors: {m.get('errors', 0)}{_kinds(summary)}"]
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
    if r := summary.repeats:
        lines.append(
            f"{'repeats':<24}{r['k']} per case: {r['stable_pass']} stable pass, {r['flaky']} "
            f"flaky, {r['stable_fail']} stable fail; pass@{r['k']} {r['pass_at_k']:.3f}  "
            f"pass^{r['k']} {r['pass_hat_k']:.3f}"
        )
    return "\n".join(lines)


def cost_text(cost: dict[str, Any]) -> str:
    """``$0.0123 (claude-opus-4-8 at the prices of 2026-11-01)`` or why there is none."""
    if cost.get("usd") is None:
        return f"unknown ({cost.get('note', 'no price')})"
    if "price" not in cost:
        return f"${cost['usd']:.4f} ({cost.get('note', '')})"
    return f"${cost['usd']:.4f} ({cost['price']} at the prices of {cost['as_of']})"


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
        [f"pass@{k} (some repeat passes)", f"{r['pass_at_k']:.3f}"],
        [f"pass^{k} (every repeat passes)", f"{r['pass_hat_k']:.3f}"],
    ]
    flaky = ", ".join(md(c) for c in r["flaky_cases"]) or "_none_"
    return [
        f"## Repeats ({k} per case, {r['cases']} cases)",
        "",
        _table(rows, ["verdict", "cases"]),
        "",
        "The intervals above cluster each case's repeats: they are not independent trials. "
        "A flaky case is never retried until it is green.",
        "",
        f"Flaky cases: {flaky}",
        "",
    ]


def _per_tag(summary: Summary) -> str:
    rows = [
        [md(tag), *_rate_cells(rates["pass_rate"])]
        for tag, rates in sorted(summary.per_tag.items())
        if is_rate(rates.get("pass_rate"))
    ]
    return _table(rows, ["tag", "pass_rate", "count/total", "95% CI"]) if rows else "_no tags_"


def _confusion(summary: Summary) -> str:
    c = summary.guard_confusion
    if not c:
        return "_no case states whether the guard should fire_"
    if set(c) <= {"tp", "fp", "fn", "tn"}:
        rows = [
            ["expected to fire", str(c.get("tp", 0)), str(c.get("fn", 0))],
            ["expected quiet", str(c.get("fp", 0)), str(c.get("tn", 0))],
        ]
        note = "Cases whose golden entry states guard_triggered; errored cases are left out."
        removed = summary.metrics.get("narrative_removed") or {}
        raw = summary.metrics.get("raw_unsupported") or {}
        narrative = (
            f"Narrative guard: {removed.get('numbers', 0)} number(s) removed in "
            f"{removed.get('cases', 0)} case(s); the audit found {raw.get('numbers', 0)} "
            f"unsupported number(s) in the model's raw prose in {raw.get('cases', 0)} case(s)."
        )
        return _table(rows, ["", "guard fired", "guard quiet"]) + f"\n\n{note}\n\n{narrative}"
    return _table([[md(k), str(v)] for k, v in c.items()], ["cell", "cases"])


def _failure(r: CaseResult) -> list[str]:
    title = f"### {md(r.case_id)}" + (f" (repeat {r.repeat})" if r.repeat else "")
    lines = [title, "", f"> {md(r.question, 500)}", ""]
    if r.error is not None:
        lines.append(f"- **error**: {md(r.error, 500)}")
    for check in r.checks:
        if not check.passed:
            lines.append(
                f"- **{md(check.name)}** — expected: {md(check.expected)} · "
                f"actual: {md(check.actual)} — {md(check.why or 'failed', 500)}"
            )
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
    text = render_report(record, summary, results)
    (folder / REPORT_FILE).write_text(text, encoding="utf-8", errors="replace")
    write_junit(folder, record, results)


def _failure_message(r: CaseResult) -> str:
    whys = [c.why or f"{c.name} failed" for c in r.checks if not c.passed]
    return "; ".join(whys) or "case failed"


def _failure_detail(r: CaseResult) -> str:
    lines = [f"question: {r.question}"]
    lines += [
        f"{c.name}: expected {show(c.expected)}, actual {show(c.actual)}: {c.why}"
        for c in r.checks
        if not c.passed
    ]
    if r.answer is not None:
        lines.append(f"answer: {r.answer}")
    return clean("\n".join(lines))


def render_junit(record: RunRecord, results: list[CaseResult]) -> ET.Element:
    """One testsuite, one testcase per result; errors and failures counted apart, as CI expects."""
    ordered = sorted(results, key=lambda r: r.key)
    errors = sum(r.error is not None for r in ordered)
    failures = sum(not r.passed and r.error is None for r in ordered)
    root = ET.Element("testsuites")
    suite = ET.SubElement(
        root,
        "testsuite",
        name="ragspine-evals",
        tests=str(len(ordered)),
        failures=str(failures),
        errors=str(errors),
        skipped="0",
        time=f"{sum(r.latency_ms for r in ordered) / 1000:.3f}",
    )
    props = ET.SubElement(suite, "properties")
    for key in ("run_id", "provider", "model", "golden_hash", "git_commit"):
        value = getattr(record, key)
        if value is not None:
            ET.SubElement(props, "property", name=key, value=clean(str(value)))
    for r in ordered:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=clean(r.tags[0] if r.tags else "ragspine"),
            name=clean(r.case_id + (f"#{r.repeat}" if r.repeat else "")),
            time=f"{r.latency_ms / 1000:.3f}",
        )
        if r.error is not None:
            kind = m.group() if (m := _ERROR_TYPE.match(r.error)) else "error"
            node = ET.SubElement(case, "error", message=clean(r.error[:1000]), type=kind)
        elif not r.passed:
            node = ET.SubElement(case, "failure", message=clean(_failure_message(r)[:1000]))
        else:
            continue
        node.text = _failure_detail(r)
    ET.indent(root)
    return root


def write_junit(folder: Path, record: RunRecord, results: list[CaseResult]) -> None:
    root = render_junit(record, results)
    ET.ElementTree(root).write(folder / JUNIT_FILE, encoding="utf-8", xml_declaration=True)
