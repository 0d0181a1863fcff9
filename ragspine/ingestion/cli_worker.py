"""`ragspine worker`: the ingestion worker's command (the worker itself is ``ingestion.worker``).

Imports happen inside the command, so `ragspine --help` stays fast.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import click

from ragspine.cli_errors import known_errors
from ragspine.cli_options import (
    LEVEL,
    corpus_option,
    db_option,
    index_dir_option,
    page_progress,
    profile_option,
    say,
)
from ragspine.ingestion.limit_options import file_limit_options, limits_from
from ragspine.interrupts import stop_requested
from ragspine.store_location import check_one_transaction


@click.command()
@click.option(
    "--inbox",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="the folder to watch; files move to done/ or failed/ inside it",
)
@corpus_option()
@index_dir_option()
@db_option()
@profile_option("maps table rows to metrics; the store remembers it")
@click.option("--once", is_flag=True, help="ingest what is there, then exit")
@click.option(
    "--interval", type=click.FloatRange(min=0.1), default=5.0, show_default=True,
    help="seconds between looks at the inbox",
)  # fmt: skip
@click.option(
    "--sensitivity", type=LEVEL, default=None,
    help="every file's level, its passages' and its figures' (files without front matter are "
    "INTERNAL)",
)  # fmt: skip
@click.option(
    "--settle", type=click.FloatRange(min=0), default=5.0, show_default=True,
    envvar="RAGSPINE_SETTLE", show_envvar=True,
    help="seconds a file's size and time must stand still before it is read (a copy in progress "
    "waits)",
)  # fmt: skip
@file_limit_options
@known_errors
def worker(
    inbox: Path,
    corpus: Path,
    db: Path,
    profile: Path | None,
    once: bool,
    interval: float,
    sensitivity: str | None,
    settle: float,
    **limit_flags: Any,
) -> None:
    """Ingest every file dropped in INBOX, one transaction each (Ctrl-C stops).

    A file that cannot be read, or is over a limit (--max-*), moves to INBOX/failed/ with
    NAME.error.txt saying why in one line; so does a symbolic link, unread. One worker per
    inbox (a second is one error line). --once exits 0 when the round ran, failed files or not;
    1 when it could not (another worker, a store or the index not writable: the file under way
    stays in the inbox). A file is read once seen unchanged for --settle seconds (--once looks,
    waits that long, and leaves one still changing for the next run); a file it never reads (a
    .png, a folder) is said once.
    """
    from ragspine.errors import RagSpineError
    from ragspine.ingestion.inbox import Notice
    from ragspine.ingestion.pipeline import FileReport
    from ragspine.ingestion.report import details, headline
    from ragspine.ingestion.worker import Worker, inbox_lock
    from ragspine.profile.stored import GivenProfile, fill_profile
    from ragspine.retrieval.chunking.chunk_store import ChunkStore
    from ragspine.storage.fact_store import FactStore

    if not inbox.is_dir():
        raise click.UsageError(f"{inbox}: no such folder")

    def done(r: FileReport, record: Path | None) -> None:
        for line in [headline(r), *details(r)]:
            click.echo(line)
        if record is not None:
            click.echo(f"           every value not stored, with its locator: {record}")

    def notice(n: Notice) -> None:  # once per file, never every look
        click.echo(f"{n.kind:>9}  {n.path.name}: {n.why}", err=True)

    def failed(path: Path, why: str) -> None:
        click.echo(f"   failed  {path.name}: {why}", err=True)

    def stopped(exc: RagSpineError) -> None:
        click.echo(f"error: {exc} (trying again in {interval:g} s)", err=True)

    given = GivenProfile(profile) if profile is not None else None  # a bad one creates no store
    check_one_transaction(db, corpus)  # before either store is made
    with inbox_lock(inbox), ChunkStore(corpus) as chunks, FactStore(db) as facts:
        chunks.init_schema()
        facts.init_schema()
        prof, note = fill_profile(facts, given)
        say(note)
        w = Worker(
            inbox,
            chunks,
            facts,
            prof,
            sensitivity=sensitivity,
            progress=page_progress(),
            on_done=done,
            on_failed=failed,
            limits=limits_from(limit_flags),
            on_error=stopped,
            settle=settle,
            on_notice=notice,
        )
        stopping = "stopping after the file under way (Ctrl-C again stops now; it is not kept)"
        try:
            with stop_requested(signal.SIGINT, signal.SIGTERM, on_request=stopping) as stop:
                if once:
                    if settle > 0:  # a file is taken once seen standing still that long
                        w.first_look()
                        click.echo(
                            f"looking again in {settle:g} s (--settle): a file still changing "
                            "then is left for the next run",
                            err=True,
                        )
                        stop.sleep(settle)
                    batch = w.run_once(stop)
                    waiting = f", {len(batch.waiting)} waiting" if batch.waiting else ""
                    click.echo(
                        f"{len(batch.done)} ingested, {len(batch.failed)} failed{waiting}; "
                        f"inbox {inbox}"
                    )
                    return
                click.echo(f"watching {inbox} every {interval:g} s (Ctrl-C stops)", err=True)
                w.run_forever(interval, stop)
        except KeyboardInterrupt:  # the second: a file not yet stored stays in the inbox
            click.echo("stopped; a file not yet stored stays in the inbox", err=True)
            sys.exit(130)
        click.echo("stopped", err=True)
