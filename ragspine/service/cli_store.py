"""`ragspine store migrate`: a deployment's stores from SQLite to PostgreSQL, back, or between
two databases, verified table by table (``service.store_migrate``)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from ragspine.cli_errors import known_errors

if TYPE_CHECKING:
    from ragspine.storage.copy import Progress


@click.group("store")
def store_group() -> None:
    """A deployment's stores as a whole: facts, corpus, FAQ and API keys."""


@store_group.command("migrate")
@click.option(
    "--from", "source", required=True, metavar="URL|FOLDER",
    help="postgresql://USER@HOST/DATABASE, or sqlite:FOLDER holding facts.db, chunks.db, "
    "faq.db and keys.yaml (a RAGSPINE_HOME)",
)  # fmt: skip
@click.option("--to", "target", required=True, metavar="URL|FOLDER", help="the same kinds")
@click.option("--replace", is_flag=True, help="delete what the target holds first")
@known_errors
def migrate_command(source: str, target: str, replace: bool) -> None:
    """Copy every store (facts with their lineage and history, stored profiles, documents and
    chunks, FAQ, API keys) in one transaction per target store, then compare each table's rows
    and checksum on both sides. Exit 1 if any differs."""
    from tabulate import tabulate

    from ragspine.errors import StoreError
    from ragspine.service.store_migrate import migrate, parse_side

    src, dst = parse_side(source, "--from"), parse_side(target, "--to")
    outcome = migrate(src, dst, replace=replace, progress=_progress())
    rows = [
        [c.store, c.table, c.rows_from, c.rows_to, c.sum_from[:16], c.sum_to[:16],
         "ok" if c.ok else "DIFFERS"]
        for c in outcome.checks
    ]  # fmt: skip
    headers = ["store", "table", "rows (from)", "rows (to)", "sha256 (from)", "sha256 (to)", ""]
    click.echo(tabulate(rows, headers=headers, tablefmt="github"))
    if outcome.skipped:
        click.echo(f"not in {src}, not copied: {', '.join(outcome.skipped)}")
    if outcome.mismatched:
        named = ", ".join(f"{c.store}.{c.table}" for c in outcome.mismatched)
        raise StoreError(f"{dst}: the copy differs from {src} in {named}")
    total = sum(c.rows_to for c in outcome.checks)
    click.echo(
        f"copied {total} rows in {len(outcome.checks)} tables from {src} to {dst}; every "
        "count and checksum matches"
        + (f"; corpus generation {outcome.generation}" if outcome.generation is not None else "")
    )


def _progress() -> Progress:
    """Rows copied of a table's rows, on stderr: in place on a terminal, else each table's
    first batch and its last."""
    live = sys.stderr.isatty()

    def show(table: str, done: int, total: int) -> None:
        last = done >= total
        if live or last or done <= 1000:
            end = "\n" if last else "\r" if live else "\n"
            click.echo(f"  {table}: {done}/{total} rows", err=True, nl=False)
            click.echo(end, err=True, nl=False)

    return show
