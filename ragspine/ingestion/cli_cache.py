"""The cache of read documents on the command line: `--no-cache` for the commands that read
files (`ingest`, `profile draft`, `profile check`), and `ragspine cache` to see or clear it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ragspine.cli_errors import known_errors
from ragspine.ingestion.cache import (
    DEFAULT_MB,
    ENV_FOLDER,
    ENV_MB,
    MB,
    DocumentCache,
    default_folder,
    limit_from,
)

F = TypeVar("F", bound=Callable[..., Any])


def no_cache_option(command: F) -> F:
    """--no-cache: every file read again, and nothing kept (the cache is left as it is)."""
    return click.option(
        "--no-cache",
        is_flag=True,
        help=f"read every file again, without the cache of read documents ({ENV_FOLDER}); "
        "nothing is kept in it either",
    )(command)


def cache_from(no_cache: bool) -> DocumentCache | None:
    """The cache the environment names, saying on stderr a file it was not read again for."""
    if no_cache:
        return None
    return DocumentCache.from_env(say=lambda line: click.echo(line, err=True))


def _cache() -> DocumentCache:
    """The folder the environment names, whether the cache is on or off (0 MB)."""
    return DocumentCache(default_folder(), max_bytes=limit_from())


@click.group("cache")
def cache_group() -> None:
    """The cache of read documents: what `ingest` and `profile` read, kept by content."""


@cache_group.command("info")
@known_errors
def cache_info() -> None:
    """Where the cache is, how many documents it holds and its size."""
    found = _cache()
    entries = found.entries()
    limit = f"{found.max_bytes / MB:g} MB" if found.max_bytes else "off"
    click.echo(
        f"{found.folder}: {len(entries)} documents, {found.size() / MB:.1f} MB; "
        f"kept under {limit} ({ENV_MB}, {DEFAULT_MB} unless set)"
    )


@cache_group.command("clear")
@known_errors
def cache_clear() -> None:
    """Remove every read document from the cache: the next command reads its files again."""
    found = _cache()
    removed, freed = found.clear()
    click.echo(f"removed {removed} documents ({freed / MB:.1f} MB) from {found.folder}")
