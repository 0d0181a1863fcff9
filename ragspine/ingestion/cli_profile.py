"""`ragspine profile draft` and `ragspine profile check`: a company's profile from its own
report in minutes, and every row label in its files with what the profile maps it to."""

from __future__ import annotations

from pathlib import Path

import click

from ragspine.cli_errors import known_errors
from ragspine.cli_options import page_progress
from ragspine.ingestion.cli_cache import cache_from, no_cache_option
from ragspine.profile import DomainProfile
from ragspine.profile.extends import BASES

_FILE = click.Path(dir_okay=False, path_type=Path)
_WIDEST = 40  # a label longer than this (a note's sentence) is cut in the listing


@click.group("profile")
def profile_group() -> None:
    """Profiles: draft one from a company's report, check one against files."""


@profile_group.command("draft")
@click.argument("report", type=_FILE)
@click.argument("statements", nargs=-1, type=_FILE)
@click.option(
    "--base", type=click.Choice(BASES), default="cas", show_default=True,
    help="the shipped base profile the draft extends",
)  # fmt: skip
@no_cache_option
@known_errors
def draft_command(report: Path, statements: tuple[Path, ...], base: str, no_cache: bool) -> None:
    """Print a profile for the company REPORT (its annual report) is about, over a base.

    The report's first pages give the company's names (公司代码, 公司简称, 公司的中文名称, 公司的
    外文名称); its statements, and each STATEMENTS workbook's sheets, are mapped through the
    base: the years most line items have figures for become the coverage (a line item with other
    years gets its own), and each statement row that names nothing becomes a commented
    candidate, with where it was seen. Redirect it to a file
    (`> profile.yaml`), edit, then `ragspine profile check`. A file read before (the same
    bytes, by `ingest` or `profile`) is taken from the cache of read documents (--no-cache
    reads it again).
    """
    from ragspine.ingestion.draft import draft, render
    from ragspine.ingestion.row_labels import read

    progress, cache = page_progress(), cache_from(no_cache)
    first = read(report, progress, cache)
    others = [read(path, progress, cache) for path in statements]
    drafted = draft(first, others, base)
    click.echo(render(drafted), nl=False)
    click.echo(
        f"drafted {drafted.entity_code} ({drafted.names.legal or drafted.names.short}): "
        f"{len(drafted.mapped)} statement row labels mapped, {len(drafted.candidates)} "
        "candidates left as comments",
        err=True,
    )


@profile_group.command("check")
@click.argument("profile_file", metavar="PROFILE", type=_FILE)
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option("--not-mapped", is_flag=True, help="list only the labels that map to nothing")
@no_cache_option
@known_errors
def check_command(
    profile_file: Path, files: tuple[Path, ...], not_mapped: bool, no_cache: bool
) -> None:
    """Validate PROFILE, then list each row label with figures in FILES and what it maps to.

    A label is listed once per file (with where it is first seen and how many tables hold it):
    a metric code, a derived metric (computed, never stored), or "not mapped" (`ingest` leaves
    its figures out). Exit 1 only on an error (a profile that does not load, a file that cannot
    be read); labels not mapped are a listing, not a failure. A file read before is taken
    from the cache of read documents (--no-cache reads it again).
    """
    from tabulate import tabulate

    from ragspine.ingestion.pipeline import expand
    from ragspine.ingestion.row_labels import distinct, map_tables, read
    from ragspine.profile import load_profile
    from ragspine.readers import BINARY_SUFFIXES
    from ragspine.retrieval.documents import SUPPORTED_SUFFIXES

    cache = cache_from(no_cache)
    prof = load_profile(profile_file)
    paths = expand(list(files), (*SUPPORTED_SUFFIXES, *BINARY_SUFFIXES))  # all there, first
    click.echo(
        f"{profile_file}: valid: {len(prof.metrics)} metrics, {len(prof.derived_metrics)} derived, "
        f"{len(prof.entities)} entities, coverage {', '.join(prof.coverage or []) or 'not said'}"
    )
    progress = page_progress()
    rows: list[tuple[str, str, str, str]] = []
    mapped = unmapped = 0
    for path in paths:
        for seen in distinct(path.name, map_tables(read(path, progress, cache), prof).labels):
            if seen.code is None:
                unmapped += 1
            else:
                mapped += 1
            if not_mapped and seen.code is not None:
                continue
            where = seen.where + (f" (+{seen.times - 1})" if seen.times > 1 else "")
            label = seen.label if len(seen.label) <= _WIDEST else seen.label[: _WIDEST - 1] + "…"
            rows.append((seen.file, where, label, _maps_to(seen.code, prof)))
    if files:
        if rows:
            click.echo(tabulate(rows, headers=["file", "where", "label", "maps to"]))
        click.echo(f"{mapped + unmapped} row labels with figures: {mapped} mapped, {unmapped} not")


def _maps_to(code: str | None, prof: DomainProfile) -> str:
    if code is None:
        return "not mapped"
    return f"{code} (derived: computed, not stored)" if prof.derived(code) else code
