"""What follows a run: its summary, its report and its JUnit file, from what is on disk."""

from __future__ import annotations

from pathlib import Path

from ragspine.evals.report.html import write_run_html
from ragspine.evals.report.markdown import write_report
from ragspine.evals.run.cost import load_prices, run_cost
from ragspine.evals.run.folder import load_run
from ragspine.evals.run.records import SUMMARY_FILE, Summary, write_json
from ragspine.evals.score.summary import summarize


def finish_run(folder: Path) -> Summary:
    """Write ``summary.json``, ``report.md``, ``report.html`` and ``junit.xml`` for the run.

    Everything is read back from ``run.json`` and ``results.jsonl``, so a resumed or copied run
    is finished the same way as a fresh one.
    """
    run = load_run(folder)
    record, results = run.record, run.results
    summary = summarize(record.run_id, record.provider, results)
    prices = record.options.get("prices")
    table = load_prices(Path(prices) if prices else None)
    summary.cost = run_cost(record.provider, record.model, results, table, record.retried_usage)
    write_json(folder / SUMMARY_FILE, summary)
    write_report(folder, record, summary, results)
    write_run_html(folder, record, summary, results)
    return summary
