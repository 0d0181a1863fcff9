"""A real PostgreSQL server for the tests: one per pytest session (per pytest-xdist worker),
started by ``benchmarks.pg_server`` (initdb and pg_ctl in a temporary folder, as an unprivileged
user when run as root; the service bench starts its own the same way) and stopped at the
session's end. Each test that asks gets a fresh database, copied from a template
whose stores are already migrated (``CREATE DATABASE … TEMPLATE``, a few milliseconds).

Where initdb is not installed every PostgreSQL test skips with one line saying so.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from benchmarks.pg_server import SKIP_REASON, PgServer
from benchmarks.pg_server import start_server as _start

TEMPLATE = "ragspine_template"


def start_server(settings: Sequence[str] = ()) -> PgServer:
    """A throwaway server (``benchmarks.pg_server``; ``settings`` passed on) with a template
    database, every store migrated, that ``database()`` copies by default."""
    server = _start(settings)
    try:
        _make_template(server)
    except BaseException:
        server.stop()
        raise
    server.template = TEMPLATE
    return server


def _make_template(server: PgServer) -> None:
    import psycopg

    from ragspine.faq.faq_cache import FaqCache
    from ragspine.retrieval.chunking.chunk_store import ChunkStore
    from ragspine.service.keys_pg import PgKeys
    from ragspine.storage.fact_store import FactStore

    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {TEMPLATE}")
    for kind in (FactStore, ChunkStore, FaqCache, PgKeys):
        with kind(server.url(TEMPLATE)) as store:
            store.init_schema()


def database_beside(url: str, template: str = TEMPLATE) -> str:
    """A new database on the server of ``url``, copied from ``template`` (by default every
    store migrated, none holding rows): a test that holds one database's URL (the demo's)
    makes another for its own stores."""
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    name = f"b{os.getpid()}_{next(_BESIDE)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
    return urlunsplit(parts._replace(path=f"/{name}"))


def database_copy(url: str) -> str:
    """A copy of the database at ``url`` (nobody may be connected to it meanwhile): a test
    that writes to a store the session shares writes to its own copy."""
    return database_beside(url, template=urlsplit(url).path.lstrip("/"))


_BESIDE = itertools.count()
BACKEND_ENV = "RAGSPINE_TEST_BACKEND"  # postgresql: the shared store fixtures build on PG


def suite_backend() -> str:
    """The backend the suite's shared stores are built on (``make test-postgres``)."""
    return os.environ.get(BACKEND_ENV) or "sqlite"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The session's server (started at the first test that asks), stopped at its end."""
    try:
        server = start_server()
    except FileNotFoundError:
        pytest.skip(SKIP_REASON)
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A fresh database, every store migrated, for this test alone."""
    return pg_server.database()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    """Both backends: a test taking ``locate`` runs on a SQLite file and on PostgreSQL."""
    return str(request.param)


@pytest.fixture
def locate(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Callable[[str], str]:
    """Where a store named ``name`` ("facts.db") lives on this test's backend: a file in
    ``tmp_path``, or the test's one PostgreSQL database (every store in it, by schema)."""
    if backend == "sqlite":
        return lambda name: str(tmp_path / name)
    url = request.getfixturevalue("pg_url")
    return lambda name: url


Locate = Callable[[str], str]  # a store name ("facts.db") → its location on the backend


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On ``make test-postgres`` a test of SQLite-only behaviour skips, saying so."""
    if suite_backend() != "postgresql":
        return
    skip = pytest.mark.skip(reason="SQLite-only behaviour; this run's stores are PostgreSQL")
    for item in items:
        if item.get_closest_marker("sqlite_only"):
            item.add_marker(skip)
