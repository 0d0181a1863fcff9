"""``index.html``: every run found under a folder, one row each, linking to what it wrote.

``ragspine eval view [DIR]`` writes it. A row says when the run finished (or started), its
provider and model, its golden set and suites, how far it got, and its headline rates (pass
rate, answered pass rate, error rate, unsupported numbers, cost), with a link to each of its
``report.html``, ``compare.html`` and ``diff.md`` that exists. A comparison written outside a run
folder (``eval compare --out``) gets a row of its own. Self-contained like the reports: no script,
no network, a Content-Security-Policy that lets nothing load; suite, model and folder names are
untrusted text and escaped, links are percent-encoded paths relative to the page. A folder whose
``run.json`` cannot be read is listed with why, never a reason to fail the whole page.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ragspine.errors import RagSpineError, RecordError
from ragspine.evals.compare.diff import DIFF_MD
from ragspine.evals.compare.paired import COMPARE_JSON
from ragspine.evals.compare.paired_md import COMPARE_MD
from ragspine.evals.report import charts as ch
from ragspine.evals.report.charts import esc
from ragspine.evals.report.html import HTML_FILE
from ragspine.evals.report.html_compare import COMPARE_HTML
from ragspine.evals.report.markdown import cost_text, is_rate
from ragspine.evals.run.folder import load_run, unfinished_state
from ragspine.evals.run.records import RUN_FILE

INDEX_FILE = "index.html"
LINKED = (HTML_FILE, COMPARE_HTML, DIFF_MD, COMPARE_MD)  # what a row links to, when it exists
RATES = ("pass_rate", "answered_pass_rate", "error_rate")
SUITES_SHOWN = 6


@dataclass(frozen=True)
class RunRow:
    """One run folder as the index shows it (``problem`` set when it could not be read)."""

    folder: Path  # relative to the indexed folder
    links: list[str] = field(default_factory=list)  # the LINKED files it holds
    problem: str | None = None
    when: str | None = None
    provider: str = ""
    model: str | None = None
    golden: str = ""
    suites: list[str] = field(default_factory=list)
    results: int = 0
    planned: int = 0
    unfinished: str | None = None  # how far an unfinished run got; None: finished
    rates: dict[str, dict[str, Any]] = field(default_factory=dict)
    unsupported: int | None = None  # cases with an unsupported number in their answer
    cost: dict[str, Any] | None = None


@dataclass(frozen=True)
class CompareRow:
    """A comparison written outside a run folder (``eval compare A B --out FOLDER``)."""

    folder: Path
    links: list[str]
    a: str = ""
    b: str = ""


def _links(folder: Path) -> list[str]:
    return [name for name in LINKED if (folder / name).is_file()]


def _run_row(root: Path, folder: Path) -> RunRow:
    rel, links = folder.relative_to(root), _links(folder)
    try:
        run = load_run(folder)
        summary = run.summary
    except RagSpineError as exc:
        return RunRow(rel, links, problem=str(exc))
    record = run.record
    metrics = summary.metrics
    numbers = metrics.get("unsupported_numbers")
    return RunRow(
        rel,
        links,
        when=record.finished_at or record.started_at,
        provider=record.provider,
        model=record.model,
        golden=record.golden_path,
        # a golden case's first tag is its suite
        suites=sorted({r.tags[0] for r in run.results if r.tags}),
        results=len(run.results),
        planned=record.cases_planned,
        unfinished=unfinished_state(record, len(run.results)),
        rates={name: metrics[name] for name in RATES if is_rate(metrics.get(name))},
        unsupported=numbers.get("cases") if isinstance(numbers, dict) else None,
        cost=summary.cost,
    )


def _compare_row(root: Path, folder: Path) -> CompareRow:
    sides = {"a": "", "b": ""}
    try:
        data = json.loads((folder / COMPARE_JSON).read_text("utf-8"))
        for key in sides:
            side = data[key]
            sides[key] = f"{side['provider']} · {side['folder']}"
    except (OSError, ValueError, KeyError, TypeError):
        pass  # the page links to what is there; the sides are a courtesy
    return CompareRow(folder.relative_to(root), _links(folder), sides["a"], sides["b"])


def find_runs(root: Path) -> tuple[list[RunRow], list[CompareRow]]:
    """The run folders under ``root`` (a folder with ``run.json``; runs do not nest, so none is
    looked into) newest first, undated ones (a blessed baseline) last; then the comparisons
    written elsewhere. Hidden folders are skipped."""
    runs: list[RunRow] = []
    compares: list[CompareRow] = []
    for here, dirs, files in os.walk(root):
        folder = Path(here)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if RUN_FILE in files:
            runs.append(_run_row(root, folder))
            dirs[:] = []
        elif COMPARE_HTML in files or COMPARE_MD in files:
            compares.append(_compare_row(root, folder))
    runs.sort(key=lambda r: r.folder.as_posix())
    runs.sort(key=lambda r: r.when or "", reverse=True)
    return runs, compares


def _href(rel: Path, name: str) -> str:
    return esc(quote((rel / name).as_posix()))


def _link_cell(rel: Path, links: list[str]) -> str:
    return " · ".join(f'<a href="{_href(rel, name)}">{esc(name)}</a>' for name in links) or "—"


def _rate_cell(rate: dict[str, Any] | None) -> str:
    if not rate or rate.get("value") is None:
        return '<td class="n">—</td>'
    return (
        f'<td class="n" title="{rate.get("count", 0)}/{rate.get("total", 0)}">'
        f"{ch.fmt(rate['value'])}</td>"
    )


def _when_cell(when: str | None) -> str:
    """``2026-11-26 09:12`` (UTC, as the run wrote it), the whole timestamp on hover."""
    if not when:
        return "<td>—</td>"
    return f'<td class="nw" title="{esc(when)}">{esc(when[:16].replace("T", " "))}</td>'


def _cost_cell(cost: dict[str, Any] | None) -> str:
    """The dollars, the price they are at (or why there are none) on hover."""
    if not cost:
        return '<td class="n">—</td>'
    usd = cost.get("usd")
    shown = "unknown" if usd is None else f"${usd:.4f}"
    return f'<td class="n" title="{esc(cost_text(cost))}">{shown}</td>'


def _suites(row: RunRow) -> str:
    shown = ", ".join(row.suites[:SUITES_SHOWN])
    more = f", … {len(row.suites) - SUITES_SHOWN} more" if len(row.suites) > SUITES_SHOWN else ""
    return f"{esc(row.golden)}<br><small>{esc(shown + more)}</small>"


def _run_tr(row: RunRow) -> str:
    name = f'<td class="nw">{esc(row.folder.as_posix())}</td>'
    if row.problem is not None:
        return (
            f'<tr data-run="{esc(row.folder.as_posix())}">{name}'
            f'<td colspan="9"><span class="badge error">unreadable</span> {esc(row.problem)}</td>'
            f"<td>{_link_cell(row.folder, row.links)}</td></tr>"
        )
    named = row.model and not row.provider.endswith(row.model)  # anthropic:m names its model
    model = esc(row.provider) + (f"<br><small>{esc(row.model)}</small>" if named else "")
    state = (
        f'<span class="badge error">{esc(row.unfinished)}</span>'
        if row.unfinished
        else f"{row.results}"
    )
    cost = _cost_cell(row.cost)
    cells = [
        name,
        _when_cell(row.when),
        f"<td>{model}</td>",
        f"<td>{_suites(row)}</td>",
        f'<td class="n">{state}</td>',
        *(_rate_cell(row.rates.get(rate)) for rate in RATES),
        f'<td class="n">{"—" if row.unsupported is None else row.unsupported}</td>',
        cost,
        f"<td>{_link_cell(row.folder, row.links)}</td>",
    ]
    return f'<tr data-run="{esc(row.folder.as_posix())}">' + "".join(cells) + "</tr>"


def render_index(root: Path, runs: list[RunRow], compares: list[CompareRow]) -> str:
    """The page: a table of the runs, then one of the comparisons found outside them."""
    headers = [
        "run",
        "date",
        "provider / model",
        "golden set / suites",
        "results",
        *(rate.replace("_", " ") for rate in RATES),  # room to wrap
        "unsupported",
        "cost",
        "files",
    ]
    body = [f"<header><h1>Eval runs in {esc(root.as_posix())}</h1></header>"]
    if runs:
        body.append(
            ch.section(
                f"Runs ({len(runs)})", ch.table(headers, [_run_tr(r) for r in runs], ' id="runs"')
            )
        )
    else:
        body.append(f'<p class="note">No run folder (one with {RUN_FILE}) under this folder.</p>')
    if compares:
        rows = [
            f'<tr data-compare="{esc(c.folder.as_posix())}"><td>{esc(c.folder.as_posix())}</td>'
            f"<td>{esc(c.a or '—')}</td><td>{esc(c.b or '—')}</td>"
            f"<td>{_link_cell(c.folder, c.links)}</td></tr>"
            for c in compares
        ]
        body.append(
            ch.section(
                f"Comparisons ({len(compares)})", ch.table(["folder", "A", "B", "files"], rows)
            )
        )
    return ch.page(f"Eval runs in {root.as_posix()}", "".join(body))


def write_index(root: Path) -> tuple[Path, list[RunRow], list[CompareRow]]:
    """``root/index.html`` for the runs under ``root``, written whole or not at all."""
    if not root.is_dir():
        raise RecordError(f"{root}: no such folder")
    runs, compares = find_runs(root)
    page = ch.write_atomic(root / INDEX_FILE, render_index(root, runs, compares))
    return page, runs, compares
