"""`ragspine eval compare A B`: is model B better or worse than model A on the same golden set?

Imports happen inside the command, so `ragspine --help` stays fast.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ragspine.cli_errors import fail
from ragspine.cli_options import max_error_rate_option
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
    "--gate",
    is_flag=True,
    help="exit 1 when B is worse beyond the margin, errored past the limit or states a number",
)
@click.option(
    "--margin",
    type=click.FloatRange(min=0, max=1),
    default=0.0,
    show_default=True,
    help="with --gate: how much worse a rate may be before the gate fails",
)
@click.option(
    "--thresholds",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="e.g. evals/thresholds.yaml: its compare: section names the primary rate and the family "
    "[default: primary pass_rate, every other rate in the family]",
)
@max_error_rate_option(
    "above this share of errored results in A or B no rate is judged: the verdict is "
    "inconclusive, and the gate fails naming the errors"
)
def compare_command(
    a: Path,
    b: Path,
    out: Path | None,
    gate: bool,
    margin: float,
    thresholds: Path | None,
    max_error_rate: float,
) -> None:
    """Compare run A with run B case by case: per rate, the difference, its interval and an
    exact test over cases; the primary rate alone, the family Holm-adjusted."""
    from ragspine.evals.cli import warn_unfinished
    from ragspine.evals.compare.gate import load_thresholds
    from ragspine.evals.compare.paired import compare_runs, write_compare
    from ragspine.evals.compare.paired_md import COMPARE_MD, mde_note, metric_table, repeats_table
    from ragspine.evals.report.html_compare import COMPARE_HTML, write_compare_html

    out = out if out is not None else b
    try:
        config = load_thresholds(thresholds).compare if thresholds else None
        result = compare_runs(a, b, margin=margin, config=config, max_error_rate=max_error_rate)
        write_compare(result, out, gate=gate)
        write_compare_html(result, out, gate=gate)
    except RagSpineError as exc:
        fail(exc)
    except OSError as exc:  # the out folder cannot be written
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    warn_unfinished(result.a, result.b)
    click.echo(f"{result.cases} cases ({result.pairs} pairs)")
    if result.inconclusive:
        click.echo(f"inconclusive: {result.inconclusive}: no rate was judged")
    click.echo(metric_table(result, full=False))
    if note := mde_note(result):  # "no detectable difference" is read with what it could see
        click.echo(note)
    if repeats := repeats_table(result):
        click.echo(f"repeats, each side over its answered repeats:\n{repeats}")
    click.echo(f"compare: {out / COMPARE_MD}, {out / COMPARE_HTML}")
    if gate:
        if result.gate.passed:
            click.echo("gate: passed")
            return
        click.echo("gate: FAILED", err=True)
        for reason in result.gate.reasons:
            click.echo(f"  - {reason}", err=True)
        sys.exit(1)
