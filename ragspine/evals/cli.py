"""`ragspine eval …`: validate, run, diff, gate, bless, view, audit. Imports happen inside commands,
so `ragspine --help` stays fast."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import click

from ragspine.cli_errors import fail, known_errors
from ragspine.cli_options import (
    corpus_option,
    db_option,
    max_error_rate_option,
    profile_option,
    say,
)
from ragspine.errors import RagSpineError, RecordError

if TYPE_CHECKING:
    from ragspine.evals.audit.pack import ClassResult


@click.group(name="eval")
def eval_group() -> None:
    """Golden-set evaluation: run a provider over golden cases, score, compare, gate."""


@eval_group.command()
@click.option(
    "--golden", type=click.Path(path_type=Path), default=Path("golden"), show_default=True
)
def validate(golden: Path) -> None:
    """Check the golden files without running anything."""
    from ragspine.evals.golden.suite import load_golden

    try:
        gs = load_golden(golden)
    except RagSpineError as exc:
        fail(exc)
    suites = sorted({c.suite for c in gs.cases})
    click.echo(f"ok: {len(gs.cases)} cases in {len(gs.files)} files ({', '.join(suites)})")


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
    from ragspine.evals.compare.diff import diff_runs, write_diff

    try:
        result = diff_runs(a, b)
        write_diff(result, out or b)
    except RagSpineError as exc:
        fail(exc)
    click.echo(f"diff: {(out or b) / 'diff.md'}")
    warn_unfinished(result.a, result.b)


class Side(Protocol):
    folder: str
    unfinished: str | None


def warn_unfinished(*sides: Side) -> None:
    """One ``warning:`` line on stderr for each run read that did not finish."""
    for side in sides:
        if side.unfinished:
            click.echo(f"warning: {side.folder}: {side.unfinished}", err=True)


@eval_group.command()
@click.option(
    "--baseline", type=click.Path(path_type=Path), default=Path("evals/baseline"), show_default=True
)
@click.option("--current", type=click.Path(path_type=Path), required=True)
@click.option(
    "--thresholds", type=click.Path(path_type=Path), default=None, help="e.g. evals/thresholds.yaml"
)
@click.option(
    "--allow-subset",
    is_flag=True,
    help="gate a run of some of the baseline's cases (the others are not checked)",
)
@max_error_rate_option(
    "fail when more of the results than this ended in an error: the run is inconclusive, and "
    "no regression or rate threshold is read"
)
def gate(
    baseline: Path,
    current: Path,
    thresholds: Path | None,
    allow_subset: bool,
    max_error_rate: float,
) -> None:
    """Exit 1, listing why, if the current run regressed, broke a threshold or proves nothing."""
    from ragspine.evals.compare.gate import gate as run_gate
    from ragspine.evals.compare.gate import load_thresholds

    try:
        verdict = run_gate(
            baseline,
            current,
            load_thresholds(thresholds) if thresholds else None,
            allow_subset=allow_subset,
            max_error_rate=max_error_rate,
        )
    except RagSpineError as exc:
        fail(exc)
    for warning in verdict.warnings:
        click.echo(f"warning: {warning}", err=True)
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
@click.option(
    "--thresholds",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="lines the run must not cross [default: thresholds.yaml beside the baseline folder, "
    "if there is one]",
)
@click.option(
    "--force",
    is_flag=True,
    help="bless even a run that regressed, breaks a threshold, or is empty, unfinished or a subset",
)
def bless(run_dir: Path, baseline: Path, thresholds: Path | None, force: bool) -> None:
    """Make RUN_DIR the new baseline (volatile fields and machine paths left out), after saying
    what it blesses: the cases that regressed against the current baseline and the thresholds it
    breaks, which are refused without --force."""
    from ragspine.evals.compare.bless import default_thresholds, review, write_baseline
    from ragspine.evals.compare.gate import load_thresholds

    try:
        lines = thresholds or default_thresholds(baseline)
        found = review(
            run_dir,
            baseline,
            load_thresholds(lines) if lines else None,
            thresholds_file=lines,
            force=force,
        )
        for line in found.lines():
            click.echo(line)
        if found.objections and not force:
            raise RecordError(found.refusal())
        write_baseline(found.run, baseline)
    except RagSpineError as exc:
        fail(exc)
    forced = f", with {found.objected()} (--force)" if found.objections else ""
    click.echo(f"blessed {run_dir} as {baseline}{forced}")


@eval_group.command()
@click.argument(
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("reports"),
    required=False,
)
@known_errors
def view(folder: Path) -> None:
    """Write FOLDER/index.html [default: reports/]: every run found under FOLDER (date, provider
    and model, golden set and suites, headline rates) with links to its report.html,
    compare.html and diff.md. One static, self-contained page, like the reports."""
    from ragspine.evals.report.index import write_index

    page, runs, compares = write_index(folder)
    click.echo(
        f"view: {page} ({len(runs)} run(s), {len(compares)} other comparison(s)); "
        f"open {page.resolve().as_uri()}"
    )


@eval_group.command(name="audit")
@click.option(
    "--cases",
    type=click.Path(path_type=Path),
    default=Path("evals/adversarial/cases.yaml"),
    show_default=True,
    help="the questions every hostile provider is asked",
)
@click.option(
    "--attacks",
    "attacks_file",
    type=click.Path(path_type=Path),
    default=None,
    help="a YAML file of scripted attacks and controls to run instead of the pack's classes",
)
@click.option(
    "--measure",
    is_flag=True,
    help="report only: exit 0 whatever the verdicts (an invalid file still fails)",
)
@db_option()
@corpus_option(read=True)
@profile_option()
def audit_pack(
    cases: Path,
    attacks_file: Path | None,
    measure: bool,
    db: Path,
    corpus: Path,
    profile: Path | None,
) -> None:
    """Run the adversarial pack: per attack class, did the engine hold (judged by what the
    attack fabricated) and did the audit catch it; per probe, any false alarm or removal?
    With --attacks FILE: the file's scripted attacks and controls, one row per entry."""
    from tabulate import tabulate

    from ragspine.engine import Engine, profile_override
    from ragspine.evals.audit.attacks.scripted import load_script
    from ragspine.evals.audit.pack import run_pack, run_script

    try:
        script = None if attacks_file is None else load_script(attacks_file, cases)
        say(profile_override(db, profile))
        with Engine.open(db, corpus, profile=profile) as engine:
            rows = run_pack(engine, cases) if script is None else run_script(engine, script)
    except RagSpineError as exc:
        fail(exc)
    if script is not None:
        for row in rows:
            row.what = f"[{script.entry(row.name).case}] {row.what}"
        click.echo(
            tabulate(
                _pack_table(rows), headers=_PACK_HEADERS, tablefmt="github", disable_numparse=True
            )
        )
        for r in rows:
            for problem in r.problems if not r.ok else []:
                click.echo(f"  {r.name}: {problem}", err=True)
        click.echo(_script_summary(rows))
        if not measure and any(not r.ok for r in rows):
            sys.exit(1)
        return
    click.echo(
        tabulate(_pack_table(rows), headers=_PACK_HEADERS, tablefmt="github", disable_numparse=True)
    )
    failed = [r for r in rows if not r.ok]
    for r in failed:
        problems = r.problems or ["the attack found nothing to corrupt in any case"]
        for problem in problems[:5]:
            click.echo(f"  {r.name}: {problem}", err=True)
    attacks = [r for r in rows if r.kind == "attack"]
    probes = [r for r in rows if r.kind == "probe"]
    click.echo(
        f"audit: {sum(r.ok for r in attacks)}/{len(attacks)} attack classes held and caught "
        f"({sum(0 < r.held == r.applied for r in attacks)} held, "
        f"{sum(0 < r.caught == r.applied for r in attacks)} caught in every case); "
        f"{sum(r.ok for r in probes)}/{len(probes)} correct-answer probes quiet "
        f"({sum(r.alarms for r in probes)} false alarm(s), "
        f"{sum(r.blocked for r in probes)} over-blocked)"
    )
    if failed and not measure:
        sys.exit(1)


def _script_summary(rows: list[ClassResult]) -> str:
    """Totals of a scripted run: each attack held and caught, each control quiet."""
    attacks = [r for r in rows if r.kind == "attack"]
    controls = [r for r in rows if r.kind == "probe"]
    idle = [r.name for r in rows if r.applied == 0]
    return (
        f"scripted: held {sum(r.held for r in attacks)}/{len(attacks)}, "
        f"caught {sum(r.caught for r in attacks)}/{len(attacks)} attacks "
        f"({sum(r.ok for r in attacks)} both); "
        f"controls quiet {sum(r.ok for r in controls)}/{len(controls)} "
        f"({sum(r.alarms for r in controls)} false alarm(s), "
        f"{sum(r.blocked for r in controls)} over-blocked)"
        + (f"; not applied: {', '.join(idle)}" if idle else "")
    )


_PACK_HEADERS = [
    "class",
    "what",
    "applied",
    "held (ground truth)",
    "caught (audit, raw)",
    "false alarms",
    "over-blocked",
    "",
]


def _pack_table(rows: list[ClassResult]) -> list[list[str]]:
    def share(n: int, r: ClassResult) -> str:
        return f"{n}/{r.applied}"

    return [
        [
            r.name,
            r.what,
            str(r.applied),
            "—" if r.kind == "probe" else share(r.held, r),
            "—" if r.kind == "probe" else share(r.caught, r),
            share(r.alarms, r) if r.kind == "probe" else "—",
            share(r.blocked, r) if r.kind == "probe" else "—",
            "ok" if r.ok else "FAILED",
        ]
        for r in rows
    ]


def _register() -> None:
    from ragspine.evals.compare.cli import compare_command
    from ragspine.evals.run.cli import run

    eval_group.add_command(run)
    eval_group.add_command(compare_command)


_register()
