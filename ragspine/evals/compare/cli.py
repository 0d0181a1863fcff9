"""`ragspine eval compare A B`: is model B better or worse than model A on the same golden set?

Imports happen inside the command, so `ragspine --help` stays fast.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ragspine.cli_errors import fail
from ragspine.errors import RagSpineError


@click.command(name="compare")
@click.argument("a", type=click.Path(file_okay=False, path_type=Path))
@click.argument("b", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="where compare.md, compare.html and compare.json go [default: B]",
)
@click.option(
    "--gate", is_flag=True, help="exit 1 when B is worse beyond the margin or states a number"
)
@click.option(
    "--margin",
    type=click.FloatRange(min=0, max=1),
    default=0.0,
    show_default=True,
    help="with --gate: how much worse a rate may be before the gate fails",
)
def compare_command(a: Path, b: Path, out: Path | None, gate: bool, margin: float) -> None:
    """Compare run A with run B case by case: paired deltas, intervals and tests per rate."""
    from ragspine.evals.cli import warn_unfinished
    from ragspine.evals.compare.paired import COMPARE_MD, compare_runs, metric_table, write_compare
    from ragspine.evals.report.html_compare import COMPARE_HTML, write_compare_html

    out = out if out is not None else b
    try:
        result = compare_runs(a, b, margin=margin)
        write_compare(result, out, gate=gate)
        write_compare_html(result, out, gate=gate)
    except RagSpineError as exc:
        fail(exc)
    except OSError as exc:  # the out folder cannot be written
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    warn_unfinished(result.a, result.b)
    click.echo(f"{result.pairs} pairs ({result.cases} cases)")
    click.echo(metric_table(result, full=False))
    click.echo(f"compare: {out / COMPARE_MD}, {out / COMPARE_HTML}")
    if gate:
        if result.gate.passed:
            click.echo("gate: passed")
            return
        click.echo("gate: FAILED", err=True)
        for reason in result.gate.reasons:
            click.echo(f"  - {reason}", err=True)
        sys.exit(1)
