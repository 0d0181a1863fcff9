"""Reading progress as `ingest` and `worker` show it."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click


def page_progress() -> Callable[[str, int, int], None]:
    """Pages read of pages, on stderr: rewritten in place on a terminal; in a log, the first page
    and the last (a log shows which file a long read is on without a line per page)."""
    last: dict[str, int] = {}

    def show(name: str, done: int, total: int) -> None:
        step = max(total // 20, 1)
        live = sys.stderr.isatty()
        if done == total or (done - last.get(name, 0) >= step if live else done == 1):
            last[name] = done
            end = "\n" if done == total else "\r"
            click.echo(f"  reading {name}: page {done}/{total}{end}", err=True, nl=False)

    return show
