"""`ragspine eval …`: validate, run, diff, gate, bless. Heavy imports happen inside commands."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ragspine.errors import RagSpineError

if TYPE_CHECKING:
    from ragspine.evals.records import Summary
    from ragspine.evals.runner import RunOptions


def _fail(exc: RagSpineError) -> None:
    click.echo(f"error: {exc}", err=True)
    sys.exit(1)


@click.group(name="eval")
def eval_group() -> None:
    """Golden-set evaluation: run a provider over golden cases, score, compare, gate."""


@eval_group.command()
@click.option(
    "--golden", type=click.Path(path_type=Path), default=Path("golden"), show_default=True
)
def validate(golden: Path) -> None:
    """Check the golden files without running anything."""
    from ragspine.evals.golden import load_golden

    try:
        gs = load_golden(golden)
    except RagSpineError as exc:
        _fail(exc)
    suites = sorted({c.suite for c in gs.cases})
    click.echo(f"ok: {len(gs.cases)} cases in {len(gs.files)} files ({', '.join(suites)})")


@eval_group.command()
@click.option(
    "--golden", type=click.Path(path_type=Path), default=Path("golden"), show_default=True
)
@click.option(
    "--provider",
    default="mock",
    show_default=True,
    help="mock, anthropic, anthropic:MODEL or python:MODULE:ATTR",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="run folder [default: reports/<run id>]",
)
@click.option(
    "--filter",
    "filter_expr",
    default=None,
    help="tag expression, e.g. 'zh and not (restricted or id:st-*)'",
)
@click.option("--limit", type=click.IntRange(min=1), default=None)
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--concurrency", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--resume",
    "resume_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="finish an interrupted run in this folder",
)
@click.option(
    "--db", type=click.Path(path_type=Path), default=Path("data/fact_metric.db"), show_default=True
)
@click.option(
    "--corpus", type=click.Path(path_type=Path), default=Path("data/chunks.db"), show_default=True
)
@click.option(
    "--profile",
    type=click.Path(path_type=Path),
    default=None,
    help="domain profile YAML [default: demo]",
)
def run(
    golden: Path,
    provider: str,
    out: Path | None,
    filter_expr: str | None,
    limit: int | None,
    repeat: int,
    concurrency: int,
    resume_dir: Path | None,
    db: Path,
    corpus: Path,
    profile: Path | None,
) -> None:
    """Run the golden set; results are appended as each case finishes."""
    from datetime import UTC, datetime

    from ragspine.evals.records import (
        SUMMARY_FILE,
        CaseResult,
        iter_results,
        read_results,
        write_json,
    )
    from ragspine.evals.report import write_report
    from ragspine.evals.runner import RunOptions, run_eval
    from ragspine.evals.summary import summarize

    folder = resume_dir or out or Path("reports") / datetime.now(UTC).strftime("run-%Y%m%dT%H%M%SZ")
    opts = RunOptions(
        golden=golden,
        out=folder,
        provider=provider,
        db=db,
        corpus=corpus,
        filter=filter_expr,
        limit=limit,
        repeat=repeat,
        concurrency=concurrency,
        profile=profile,
    )
    bar = None
    failures: list[str] = []

    def on_result(r: CaseResult) -> None:
        if not r.passed:
            failures.append(r.case_id)
        if bar is not None:
            bar.update(1)

    try:
        if sys.stderr.isatty():
            with click.progressbar(length=_planned(opts), label="evaluating", file=sys.stderr) as b:
                bar = b
                record = run_eval(opts, resume=resume_dir is not None, on_result=on_result)
        else:
            record = run_eval(opts, resume=resume_dir is not None, on_result=on_result)
        summary = summarize(record.run_id, record.provider, iter_results(folder))
        results = read_results(folder)
    except RagSpineError as exc:
        _fail(exc)
    write_json(folder / SUMMARY_FILE, summary)
    write_report(folder, record, summary, results)  # report.md and junit.xml
    click.echo(headline(summary))
    click.echo(f"run: {folder} (report.md, results.jsonl, summary.json, junit.xml)")


def _planned(opts: RunOptions) -> int:
    from ragspine.evals.golden import scan_golden

    return scan_golden(opts.golden, filter_expr=opts.filter, limit=opts.limit).count * opts.repeat


def headline(summary: Summary) -> str:
    """One line per headline metric: value, count/total, 95% interval."""
    from ragspine.evals.report import HEADLINE

    m = summary.metrics
    lines = [f"cases: {summary.cases}  errors: {m.get('errors', 0)}"]
    for name in HEADLINE:
        rate = m.get(name)
        if isinstance(rate, dict) and rate.get("total"):
            lines.append(
                f"{name:<24}{rate['value']:.3f}  ({rate['count']}/{rate['total']}, "
                f"95% CI {rate['ci_low']:.3f}–{rate['ci_high']:.3f})"
            )
    bad = m.get("unsupported_numbers", {})
    lines.append(
        f"{'unsupported_numbers':<24}{bad.get('numbers', 0)} in {bad.get('cases', 0)} cases"
    )
    latency = m.get("latency_ms", {})
    if latency:
        lines.append(f"{'latency_ms':<24}p50 {latency['p50']}  p95 {latency['p95']}")
    return "\n".join(lines)


@eval_group.command()
@click.argument("a", type=click.Path(path_type=Path))
@click.argument("b", type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="where diff.md / diff.json go [default: B]",
)
def diff(a: Path, b: Path, out: Path | None) -> None:
    """Compare run A (e.g. the baseline) with run B, case by case."""
    from ragspine.evals.diff import diff_runs, write_diff

    try:
        result = diff_runs(a, b)
        write_diff(result, out or b)
    except RagSpineError as exc:
        _fail(exc)
    click.echo(f"diff: {(out or b) / 'diff.md'}")


@eval_group.command()
@click.option(
    "--baseline", type=click.Path(path_type=Path), default=Path("evals/baseline"), show_default=True
)
@click.option("--current", type=click.Path(path_type=Path), required=True)
@click.option(
    "--thresholds", type=click.Path(path_type=Path), default=None, help="e.g. evals/thresholds.yaml"
)
def gate(baseline: Path, current: Path, thresholds: Path | None) -> None:
    """Exit 1, listing why, if the current run regressed or broke a threshold."""
    from ragspine.evals.gate import gate as run_gate
    from ragspine.evals.gate import load_thresholds

    try:
        verdict = run_gate(baseline, current, load_thresholds(thresholds) if thresholds else None)
    except RagSpineError as exc:
        _fail(exc)
    if verdict.passed:
        click.echo("gate: passed")
        return
    click.echo("gate: FAILED", err=True)
    for reason in verdict.reasons:
        click.echo(f"  - {reason}", err=True)
    sys.exit(1)


@eval_group.command()
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option(
    "--baseline", type=click.Path(path_type=Path), default=Path("evals/baseline"), show_default=True
)
def bless(run_dir: Path, baseline: Path) -> None:
    """Make RUN_DIR the new baseline (volatile fields left out)."""
    from ragspine.evals.gate import bless as do_bless

    try:
        do_bless(run_dir, baseline)
    except RagSpineError as exc:
        _fail(exc)
    click.echo(f"blessed {run_dir} as {baseline}")
