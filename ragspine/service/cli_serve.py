"""`ragspine serve`: the HTTP service, with the limits that hold it up against hostile clients.

Imports happen inside the command, so `ragspine --help` stays fast.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import click
import click.core

from ragspine.cli_errors import known_errors
from ragspine.cli_options import (
    corpus_option,
    db_option,
    faq_option,
    index_dir_option,
    profile_option,
    provider_option,
    say,
    shown_default,
    store_default,
)
from ragspine.service.keys import KeysError
from ragspine.service.settings import ServiceSettings
from ragspine.store_location import PgLocation

FD_RESERVE = 128  # descriptors beyond the connections: stores, index, logs, threads


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)
@db_option()
@corpus_option(read=True)
@index_dir_option()
@profile_option()
@provider_option()
@faq_option()
@click.option(
    "--keys",
    type=click.Path(dir_okay=False, path_type=Path),
    default=store_default("keys", Path("data/keys.yaml")),
    show_default=shown_default("keys", Path("data/keys.yaml")),
    help="API keys (hashed) and their clearance, re-read when the file changes; "
    "RAGSPINE_API_KEYS adds more",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=30.0,
    show_default=True,
    help="seconds per HTTP request",
)
@click.option(
    "--header-timeout",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="seconds a connection has to send its request head (line and headers), then 408",
)
@click.option(
    "--body-timeout",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="seconds a request body has to arrive once its head has, then 408",
)
@click.option(
    "--keep-alive",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="seconds an idle connection is kept open between two requests",
)
@click.option(
    "--max-connections",
    type=click.IntRange(min=2),
    default=256,
    show_default=True,
    help="open connections per worker; past it the one idle longest is closed (503 if none is)",
)
@click.option(
    "--docs/--no-docs",
    default=False,
    show_default=True,
    help="serve the OpenAPI document (/openapi.json) and its page (/docs)",
)
@known_errors
def serve(
    host: str,
    port: int,
    workers: int,
    db: Path,
    corpus: Path,
    profile: Path | None,
    provider: str,
    faq: Path | None,
    keys: Path,
    timeout: float,
    header_timeout: float,
    body_timeout: float,
    keep_alive: int,
    max_connections: int,
    docs: bool,
) -> None:
    """Serve POST /v1/ask over HTTP (with --docs, OpenAPI at /docs)."""
    import uvicorn

    from ragspine.engine import Engine, profile_override
    from ragspine.service.balance import BOARD_ENV, new_board

    settings = ServiceSettings(
        db=db,
        corpus=corpus,
        profile=profile,
        provider=provider,
        faq=faq,
        keys=keys if keys.exists() else None,
        timeout=timeout,
        body_timeout=body_timeout,
        header_timeout=header_timeout,
        keep_alive=keep_alive,
        max_connections=max_connections,
        docs=docs,
        master_pid=os.getpid() if workers > 1 else None,
    )
    if isinstance(db, PgLocation):
        say(_keys_not_used(db, keys))
    if not _key_count(settings):  # before a worker starts: one clear line
        where = f"--db {db}" if isinstance(db, PgLocation) else f"--file {keys}"
        raise KeysError(
            f"no API keys in {where.partition(' ')[2]}"
            + ("" if isinstance(db, PgLocation) else " or RAGSPINE_API_KEYS")
            + f": create one with `ragspine keys new NAME --clearance INTERNAL {where}`"
        )
    # asyncio accepts up to `backlog` sockets in one go before the protocol can turn any away:
    # with the backlog at the cap, open sockets stay under twice the cap
    _enough_descriptors(2 * max_connections + FD_RESERVE)
    say(profile_override(db, profile))
    with Engine.open(db, corpus, profile=profile, provider=provider, faq=faq):
        pass  # the stores, the FAQ and the provider open, or the error is one line now
    os.environ.update(settings.to_env())
    where = f"http://{host}:{port}"
    click.echo(f"serving on {where}" + (f" (docs: {where}/docs)" if docs else ""), err=True)
    with tempfile.TemporaryDirectory(prefix="ragspine-serve-") as tmp:
        if workers > 1:  # each new connection to the worker holding the fewest
            os.environ[BOARD_ENV] = str(new_board(Path(tmp) / "board"))
        _run(uvicorn, host, port, workers, keep_alive, timeout, max_connections)


def _run(
    uvicorn: Any, host: str, port: int, workers: int, keep_alive: int, timeout: float,
    max_connections: int,
) -> None:  # fmt: skip
    from ragspine.service.logs import log_config
    from ragspine.service.protocol import GuardedH11Protocol
    from ragspine.service.settings import MAX_HEAD

    uvicorn.run(
        "ragspine.service.api.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        loop="ragspine.service.balance:FairLoop" if workers > 1 else "auto",
        http=GuardedH11Protocol,
        backlog=max_connections,
        h11_max_incomplete_event_size=MAX_HEAD,
        timeout_keep_alive=keep_alive,
        timeout_graceful_shutdown=int(timeout) + 1,  # answers in flight, then the workers go
        log_config=log_config(),
        access_log=False,  # the service's own line has the request id, caller and route
    )


def _keys_not_used(db: PgLocation, keys: Path) -> str | None:
    """With --db on PostgreSQL the service checks the database's keys only: a keys file or
    RAGSPINE_API_KEYS that holds keys is said to be unused (a warning, at start), or, a file
    named by --keys itself, refused, so nobody believes keys are active that are not."""
    from ragspine.errors import ConfigError
    from ragspine.service.keys import ENV, load_keys

    named = click.get_current_context().get_parameter_source("keys")
    if named is click.core.ParameterSource.COMMANDLINE and keys.exists():
        raise ConfigError(
            f"--keys {keys}: with --db {db} the service checks the database's keys, never a "
            f"file's: copy them in with `ragspine store migrate --from sqlite:FOLDER --to {db}`"
            " (or `ragspine keys new … --db`)"
        )
    unused = [ENV] if os.environ.get(ENV, "").strip() else []
    try:
        if keys.is_file() and len(load_keys(keys, environ={})):
            unused.append(str(keys))
    except KeysError:
        unused.append(str(keys))
    if not unused:
        return None
    return (
        f"{' and '.join(unused)} {'is' if len(unused) == 1 else 'are'} not used: with --db {db} "
        "the service checks the database's keys only (`ragspine keys list --db`); "
        "`ragspine store migrate` copies a keys file's"
    )


def _key_count(settings: ServiceSettings) -> int:
    """The keys the service will check (its database's when --db is PostgreSQL)."""
    from ragspine.service.keys_pg import PgKeys, service_keys

    ring = service_keys(settings.db, settings.keys)
    try:
        return len(ring)
    finally:
        if isinstance(ring, PgKeys):
            ring.close()


def _enough_descriptors(needed: int) -> None:
    """Raise the soft limit on open files to ``needed`` if the hard one allows, so connections
    hit the cap (and are turned away cleanly) before the process runs out of descriptors (and
    every accept fails)."""
    import resource

    from ragspine.errors import ConfigError

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            raise ConfigError(
                f"--max-connections needs {needed} open files and the limit is {hard}: "
                "lower it or raise `ulimit -n`"
            )
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
