"""The suite's shared stores on PostgreSQL (``make test-postgres``).

The demo's stores are built once per session as SQLite files (as on ``make test``), copied once
per test process into two template databases as ``ragspine store migrate`` copies them (ids,
times, lineage; the corpus's generation moved past the source's, so its search index is built
from the copy), and every test or session that asks gets a copy of a template (``CREATE
DATABASE … TEMPLATE``, tens of milliseconds). Facts and corpus stay in two databases, as they
are two files on SQLite: a command given the facts alone finds no corpus in their database,
as it finds no corpus file.

A PostgreSQL corpus keeps its search index in a local folder named for its database
(``store_location``); the session keeps those under its own temporary folder, never the user's
cache.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.pg import PgServer, suite_backend

Place = Callable[[str], Path | str]  # a store's name ("faq.db") → its location (``place``)
NewPlace = Callable[[], Place]  # each call a place of its own (``new_place``)
FACTS_TEMPLATE = "demo_facts"
CORPUS_TEMPLATE = "demo_corpus"
EMPTY = "template1"  # a database holding no store at all


def copy_store(kind: Any, source: Path | str, url: str) -> None:
    """A store's tables (a SQLite file's or a database's) into the database at ``url``, as
    ``store migrate`` copies them."""
    from ragspine.retrieval.chunking.chunk_store import ChunkStore, advance_generation
    from ragspine.storage.copy import copy_tables

    with kind(source, create=False) as src, kind(url) as dst:
        src.init_schema()
        dst.init_schema()
        finish: Callable[[Any], object] | None = None
        if isinstance(src, ChunkStore):
            past = src.generation
            finish = lambda conn: advance_generation(conn, past)  # noqa: E731
        copy_tables(src.connection, dst.connection, src.TABLES, replace=True, finish=finish)


class PgStores:
    """One test process's templates on its server, each built at its first use."""

    def __init__(self, server: PgServer) -> None:
        self.server = server
        self._built: set[str] = set()

    def template(self, name: str, build: Callable[[str], None]) -> str:
        """The template ``name``, filled by ``build(url)`` the first time it is asked for."""
        if name not in self._built:
            build(self.server.database(EMPTY, name=name))
            self._built.add(name)
        return name

    def copy(self, name: str, build: Callable[[str], None]) -> str:
        """A new database copied from the template ``name``; its URL."""
        return self.server.database(self.template(name, build))

    def facts(self, source: Path) -> str:
        """A copy of the demo's facts (``source``: the SQLite demo store)."""
        from ragspine.storage.fact_store import FactStore

        return self.copy(FACTS_TEMPLATE, lambda url: copy_store(FactStore, source, url))

    def corpus(self, source: Path) -> str:
        """A copy of the demo's corpus (``source``: the SQLite demo chunk store)."""
        from ragspine.retrieval.chunking.chunk_store import ChunkStore

        return self.copy(CORPUS_TEMPLATE, lambda url: copy_store(ChunkStore, source, url))

    def example(self, name: str, facts: Path, corpus: Path) -> str:
        """A copy of an example's stores, both in one database (as ``store migrate`` puts a
        deployment's): ``facts`` and ``corpus`` are its SQLite files."""
        from ragspine.retrieval.chunking.chunk_store import ChunkStore
        from ragspine.storage.fact_store import FactStore

        def build(url: str) -> None:
            copy_store(FactStore, facts, url)
            copy_store(ChunkStore, corpus, url)

        return self.copy(f"example_{name}", build)


def facts_beside(corpus: Path | str, folder: Path) -> str:
    """Where an ingest into ``corpus`` writes its facts: the corpus's own database when that
    is PostgreSQL (a file's facts and passages commit in one transaction, so in one database),
    else facts.db in ``folder``."""
    from ragspine.store_location import is_postgres

    return str(corpus) if is_postgres(str(corpus)) else str(folder / "facts.db")


def on_postgres() -> bool:
    return suite_backend() == "postgresql"


@pytest.fixture(scope="session")
def pg_stores(pg_server: PgServer) -> PgStores:
    return PgStores(pg_server)


@pytest.fixture
def place(tmp_path: Path, request: pytest.FixtureRequest) -> Place:
    """Where this test's own store named ``name`` ("faq.db") lives on the suite's backend: a
    file in ``tmp_path``, or on ``make test-postgres`` the test's one new database (every
    store in it, each in its schema)."""
    if not on_postgres():
        return lambda name: tmp_path / name
    url = str(request.getfixturevalue("pg_url"))
    return lambda name: url


@pytest.fixture(scope="session")
def places(request: pytest.FixtureRequest) -> Callable[[Path], Place]:
    """Places for stores a module or a session builds once, or for a test's second deployment:
    ``places(folder)`` is a ``place`` whose stores are files in ``folder``, or on ``make
    test-postgres`` a new database of the session's server (each call its own)."""
    if not on_postgres():

        def made(folder: Path) -> Place:
            folder.mkdir(parents=True, exist_ok=True)
            return lambda name: folder / name

        return made
    server: PgServer = request.getfixturevalue("pg_server")

    def new(folder: Path) -> Place:
        url = server.database()
        return lambda name: url

    return new


@pytest.fixture(scope="session", autouse=True)
def pg_index_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """On ``make test-postgres`` the search indexes of PostgreSQL corpora (each in a folder
    named for its database) live in the session's temporary folder, never ~/.cache."""
    if not on_postgres():
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("pg-indexes")))
        yield


@pytest.fixture
def bare_place(tmp_path: Path, request: pytest.FixtureRequest) -> Place:
    """As ``place``, but on PostgreSQL a database holding no store yet (as a file not yet
    made): a test can see that a refused command created none (``store_absent``)."""
    if not on_postgres():
        return lambda name: tmp_path / name
    url = request.getfixturevalue("pg_server").database(EMPTY)
    return lambda name: url


def store_absent(kind: Any, location: Path | str) -> bool:
    """Whether no ``kind`` store was ever made at ``location``: no file on SQLite, no
    migrated schema in the database on PostgreSQL."""
    from ragspine.errors import StoreNotFoundError
    from ragspine.store_location import is_postgres

    if not is_postgres(str(location)):
        return not Path(location).exists()
    try:
        kind(location, create=False).close()
    except StoreNotFoundError:
        return True
    return False


def drop_store(kind: Any, location: Path | str) -> None:
    """The ``kind`` store at ``location`` gone, as a user deleting its file: the file on
    SQLite, the store's schema on PostgreSQL (the database's other stores stay)."""
    from ragspine.store_location import is_postgres

    if not is_postgres(str(location)):
        Path(location).unlink()
        return
    import psycopg

    with psycopg.connect(str(location), autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {kind.SCHEMA} CASCADE")


@pytest.fixture
def new_place(tmp_path: Path, request: pytest.FixtureRequest) -> NewPlace:
    """Each call a place of its own (a new folder in ``tmp_path``; on ``make test-postgres`` a
    new database, every store migrated): a test that compares two separate stores."""
    made = iter(range(1_000_000))

    def new() -> Place:
        if not on_postgres():
            folder = tmp_path / f"place{next(made)}"
            folder.mkdir()
            return lambda name: folder / name
        url = request.getfixturevalue("pg_server").database()
        return lambda name: url

    return new
