"""A run (``report.html``) and a model comparison (``compare.html``) as one self-contained page.

No network: the charts are inline SVG drawn in Python, the styles inline, and a few lines of
vanilla JS filter the case table. Questions, answers and model output are hostile text: all of
it is escaped, the data the script reads sits in a JSON block that cannot close its tag, and a
Content-Security-Policy lets only this page's own script and styles run. The same input always
gives the same bytes: the page adds no timestamp of its own.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from ragspine.evals.report import charts as ch
from ragspine.evals.report.charts import Bar, esc
from ragspine.evals.report.markdown import (
    CONFUSION_NOTE,
    cost_text,
    flatten_metrics,
    is_rate,
    narrative_note,
    num,
    ordered,
    repeats_note,
)
from ragspine.evals.report.wording import check_text
from ragspine.evals.run.records import CaseResult, RunRecord, Summary

HTML_FILE = "report.html"

JS = """\
(function () {
  "use strict";
  var meta = JSON.parse(document.getElementById("case-data").textContent);
  var rows = document.querySelectorAll("#cases tbody tr");
  var failed = document.getElementById("f-failed"), tag = document.getElementById("f-tag");
  var route = document.getElementById("f-route"), q = document.getElementById("f-q");
  var count = document.getElementById("count");
  function decode(text) {
    try { return decodeURIComponent(text); } catch (e) { return text; }
  }
  function fromHash() {
    failed.checked = false; tag.value = ""; route.value = ""; q.value = "";
    location.hash.slice(1).split("&").forEach(function (part) {
      var at = part.indexOf("="), key = at < 0 ? part : part.slice(0, at);
      var value = at < 0 ? "" : decode(part.slice(at + 1));
      if (key === "failed") { failed.checked = true; }
      else if (key === "tag") { tag.value = value; }
      else if (key === "route") { route.value = value; }
      else if (key === "q") { q.value = value; }
    });
  }
  function toHash() {
    var parts = failed.checked ? ["failed"] : [];
    if (tag.value) { parts.push("tag=" + encodeURIComponent(tag.value)); }
    if (route.value) { parts.push("route=" + encodeURIComponent(route.value)); }
    if (q.value) { parts.push("q=" + encodeURIComponent(q.value)); }
    history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname);
  }
  function apply() {
    var needle = q.value.trim().toLowerCase(), shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var m = meta[Number(rows[i].getAttribute("data-row"))];
      var ok = (!failed.checked || m.status !== "pass") &&
        (!tag.value || m.tags.indexOf(tag.value) >= 0) &&
        (!route.value || m.route === route.value) &&
        (!needle || rows[i].textContent.toLowerCase().indexOf(needle) >= 0);
      rows[i].hidden = !ok;
      if (ok) { shown++; }
    }
    count.textContent = "showing " + shown + " of " + rows.length;
  }
  [failed, tag, route].forEach(function (el) {
    el.addEventListener("change", function () { toHash(); apply(); });
  });
  q.addEventListener("input", function () { toHash(); apply(); });
  window.addEventListener("hashchange", function () { fromHash(); apply(); });
  fromHash();
  apply();
})();
"""


# -- a run ------------------------------------------------------------------------------------


def _ci(rate: dict[str, Any], name: str) -> str:
    text, value = _ci_text(rate), rate.get("value")
    title = f"{name}: {ch.fmt(value)}, 95% CI {text}"
    return ch.interval(value, rate.get("ci_low"), rate.get("ci_high"), title=title) + f" {text}"


def _headline(summary: Summary) -> str:
    rows = []
    for name, value in ordered(summary.metrics):
        if is_rate(value):
            count = f"{value.get('count', 0)}/{value.get('total', 0)}"
            cells = f'<td class="n">{ch.fmt(value.get("value"))}</td><td class="n">{count}</td>'
            rows.append(f"<tr><td>{esc(name)}</td>{cells}<td>{_ci(value, name)}</td></tr>")
            continue
        for leaf, v in flatten_metrics({name: value}).items():
            rows.append(
                f'<tr><td>{esc(leaf)}</td><td class="n">{num(v)}</td><td></td><td></td></tr>'
            )
    headers = ["metric", "value", "count/total", "95% CI (0 to 1)"]
    return ch.table(headers, rows, ' data-chart="headline"')


def _rate_text(r: dict[str, Any]) -> str:
    return f"{ch.fmt(r['value'])} ({r['count']}/{r['total']}; {_ci_text(r)})"


def _ci_text(r: dict[str, Any]) -> str:
    low, high = r.get("ci_low"), r.get("ci_high")
    return "—" if low is None or high is None else f"{low:.3f}–{high:.3f}"


def _per_tag(summary: Summary) -> str:
    tags = [(t, r["pass_rate"]) for t, r in summary.per_tag.items() if is_rate(r.get("pass_rate"))]
    if not tags:
        return '<p class="note">no tags</p>'
    tags.sort(key=lambda tr: (tr[1]["value"] if tr[1]["value"] is not None else 2, tr[0]))
    bars = [Bar(tag, r["value"], _rate_text(r), r["ci_low"], r["ci_high"]) for tag, r in tags]
    svg = ch.hbars("per-tag", f"pass_rate per tag, {len(bars)} tags", bars)
    note = "Lowest first; the whiskers are the 95% interval. A case counts once under each tag."
    return ch.figure("per-tag", svg, note)


def _confusion(summary: Summary) -> str:
    c = summary.guard_confusion
    if not c:
        return '<p class="note">no case states whether the guard should fire</p>'
    if not set(c) <= {"tp", "fp", "fn", "tn"}:
        rows = [f'<tr><td>{esc(k)}</td><td class="n">{v}</td></tr>' for k, v in c.items()]
        return ch.table(["cell", "cases"], rows)
    title = "guard confusion: " + ", ".join(f"{k.upper()} {c.get(k, 0)}" for k in c)
    grid = ch.figure("guard-confusion", ch.heat_grid(title, c), CONFUSION_NOTE)
    return grid + f'<p class="note">{esc(narrative_note(summary))}</p>'


def _unsupported(results: list[CaseResult]) -> str:
    by_route: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in results:
        sums = by_route[r.route or "(none)"]
        sums[0] += len(r.unsupported_numbers)
        sums[1] += len(r.raw_unsupported)
    groups = [(route, sums) for route, sums in sorted(by_route.items())]
    answer, raw = sum(s[0] for _, s in groups), sum(s[1] for _, s in groups)
    series = ["in the answer", "in the model's raw prose"]
    title = f"unsupported numbers by route: {answer} in answers, {raw} in raw prose"
    svg = ch.columns("unsupported", title, groups, series)
    note = "Numbers the audit could not trace to a fact, summed over the results of each route."
    return ch.figure("unsupported-by-route", svg, note)


def _latency(summary: Summary, results: list[CaseResult]) -> str:
    values = [r.latency_ms for r in results]
    if not values:
        return '<p class="note">no results</p>'
    leaves = summary.metrics.get("latency_ms") or {}
    markers = [(k, float(leaves[k])) for k in ("p50", "p95") if leaves.get(k) is not None]
    title = "latency per result: " + ", ".join(f"{k} {v:g} ms" for k, v in markers)
    svg = ch.histogram("latency", title, values, markers, "ms")
    return ch.figure("latency", svg, "Results per latency bin; the dashed lines are p50 and p95.")


def _errors(summary: Summary) -> str:
    kinds = summary.errors_by_kind
    bars = [Bar(kind, n, str(n), color=ch.ORANGE) for kind, n in kinds.items()]
    title = "errors by kind: " + ", ".join(f"{k} {n}" for k, n in kinds.items())
    svg = ch.hbars("errors", title, bars, scale=None)
    note = (
        "A case the provider failed counts against pass_rate but never as a miss of a check: "
        "the check rates and answered_pass_rate are over the answered cases only."
    )
    return ch.section("Errors by kind", ch.figure("errors-by-kind", svg, note))


def _repeats(summary: Summary) -> str:
    r = summary.repeats
    if not r:
        return ""
    k, cases = r["k"], r["cases"]
    bars = [
        Bar("stable pass", r["stable_pass"], str(r["stable_pass"]), color=ch.GREEN),
        Bar("flaky", r["flaky"], str(r["flaky"]), color=ch.ORANGE),
        Bar("stable fail", r["stable_fail"], str(r["stable_fail"]), color=ch.RED),
    ]
    svg = ch.hbars("repeats", f"verdicts over {k} repeats of {cases} cases", bars, scale=cases)
    rates = ch.meta(
        [
            (f"pass@{k} (some repeat passes)", num(r["pass_at_k"])),
            (f"pass^{k} (every repeat passes)", num(r["pass_hat_k"])),
            ("flaky cases", esc(", ".join(r["flaky_cases"]) or "none")),
        ]
    )
    note = (
        "The intervals above cluster each case's repeats: they are not independent trials. "
        "A flaky case is never retried until it is green. " + repeats_note(r)
    )
    fig = ch.figure("repeats", svg, note)
    return ch.section(f"Repeats ({k} per case, {cases} cases)", fig, rates)


def _raw_findings(results: list[CaseResult]) -> str:
    flagged = [r for r in results if r.raw_unsupported]
    if not flagged:
        return '<p class="note">the audit found no unsupported number in any model prose</p>'
    items = [
        f"<li>{esc(r.case_id)}: {esc(', '.join(r.raw_unsupported))} "
        f"(the guard removed {r.guard_removed})</li>"
        for r in flagged
    ]
    return "<ul>" + "".join(items) + "</ul>"


def _status(r: CaseResult) -> str:
    return "error" if r.error is not None else "pass" if r.passed else "fail"


def _checks(r: CaseResult) -> str:
    items = [f"<li><b>error</b> {ch.trimmed(r.error, 'ans')}</li>"] if r.error is not None else []
    for c in r.checks:
        if c.passed:
            continue
        aside = " (informational)" if c.informational else ""
        worded = ch.clip(check_text(c), 400)
        why = "" if not c.why or c.why == worded else f"{esc(c.why)}<br>"
        items.append(f"<li><b>{esc(c.name)}</b>{aside}: {why}{esc(worded)}</li>")
    return f'<ul class="checks">{"".join(items)}</ul>' if items else ""


def _case_row(i: int, r: CaseResult) -> str:
    status = _status(r)
    kind = f" {esc(r.error_kind)}" if r.error_kind else ""
    case = esc(r.case_id) + (f" #{r.repeat}" if r.repeat else "")
    tags = "".join(f'<span class="tag">{esc(t)}</span>' for t in r.tags)
    answer = "—" if r.answer is None else ch.trimmed(r.answer, "ans")
    sources = "<br>".join(esc(" · ".join(s.values())) for s in r.sources)
    return (
        f'<tr data-row="{i}"><td>{case}</td><td>{tags}</td><td>{esc(r.route or "—")}</td>'
        f'<td><span class="badge {status}">{status}</span>{kind}</td>'
        f'<td class="q">{esc(r.question)}</td><td>{answer}</td><td>{_checks(r)}</td>'
        f"<td>{sources}</td></tr>"
    )


def _options(values: list[str]) -> str:
    return '<option value="">all</option>' + "".join(
        f'<option value="{esc(v)}">{esc(v)}</option>' for v in values
    )


def _cases(results: list[CaseResult]) -> str:
    data = [
        {"id": r.case_id, "status": _status(r), "tags": r.tags, "route": r.route or "(none)"}
        for r in results
    ]
    tags = sorted({t for r in results for t in r.tags})
    routes = sorted({r.route or "(none)" for r in results})
    filters = (
        '<div class="filters" role="search">'
        '<label><input type="checkbox" id="f-failed"> failed only</label>'
        f'<label>tag <select id="f-tag">{_options(tags)}</select></label>'
        f'<label>route <select id="f-route">{_options(routes)}</select></label>'
        '<label>search <input type="search" id="f-q" placeholder="case, question, answer…">'
        f'</label><span id="count" aria-live="polite" data-total="{len(results)}"></span></div>'
    )
    headers = ["case", "tags", "route", "result", "question", "answer", "failed checks"]
    rows = [_case_row(i, r) for i, r in enumerate(results)]
    cases = ch.table([*headers, "sources"], rows, ' id="cases"')
    return filters + cases + ch.json_block("case-data", data)


def render_run_html(record: RunRecord, summary: Summary, results: list[CaseResult]) -> str:
    """``report.html``: what report.md says, with charts and a filterable table of every case."""
    results = sorted(results, key=lambda r: r.key)
    failed = sum(not r.passed for r in results)
    rate: dict[str, Any] = summary.metrics.get("pass_rate") or {}
    cards = [
        ("pass_rate", ch.fmt(rate.get("value"))),
        ("results", f"{len(results)} of {record.cases_planned}"),
        ("failed", str(failed)),
        ("errors", str(summary.metrics.get("errors", 0))),
    ]
    items = [
        ("provider", esc(record.provider)),
        ("model", esc(record.model or "—")),
        ("endpoint", esc(record.endpoint or "—")),
        ("golden set", f"{esc(record.golden_path)} ({esc(record.golden_hash)})"),
        ("git commit", esc(record.git_commit or "unknown")),
        ("cost", esc(cost_text(summary.cost) if summary.cost else "—")),
        ("status", esc(record.status)),
        (
            "started / finished",
            f"{esc(record.started_at or '—')} / {esc(record.finished_at or '—')}",
        ),
    ]
    head = (
        f"<header><h1>Eval run {esc(record.run_id or 'baseline')}</h1>{ch.meta(items)}"
        '<div class="cards">'
        + "".join(f'<div class="card">{k}<b>{esc(v)}</b></div>' for k, v in cards)
        + "</div></header>"
    )
    body = [
        head,
        ch.section("Headline metrics", _headline(summary)),
        _errors(summary) if summary.errors_by_kind else "",
        _repeats(summary),
        ch.section("Guard confusion matrix", _confusion(summary)),
        ch.section("Unsupported numbers by route", _unsupported(results)),
        ch.section("The model's raw prose", _raw_findings(results)),
        ch.section("Latency", _latency(summary, results)),
        ch.section("Pass rate per tag", _per_tag(summary)),
        ch.section(f"Cases ({len(results)}, {failed} failed)", _cases(results)),
    ]
    return ch.page(f"Eval run {record.run_id or 'baseline'}", "".join(body), JS)


def write_run_html(
    folder: Path, record: RunRecord, summary: Summary, results: list[CaseResult]
) -> Path:
    """``report.html`` in the run folder, written whole or not at all."""
    return ch.write_atomic(folder / HTML_FILE, render_run_html(record, summary, results))
