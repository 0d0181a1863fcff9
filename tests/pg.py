"""A real PostgreSQL server for the tests: one per pytest session (per pytest-xdist worker),
started with initdb and pg_ctl in a temporary folder and stopped at the session's end.

PostgreSQL refuses to run as root, so as root the server runs as an unprivileged user (the
``postgres`` user where it exists, else ``nobody``) in a folder that user owns; it listens on
127.0.0.1 on a free port, trusts local connections, and skips durability (fsync off): a test
server's data dies with it. Each test that asks gets a fresh database, copied from a template
whose stores are already migrated (``CREATE DATABASE … TEMPLATE``, a few milliseconds).

Where initdb is not installed every PostgreSQL test skips with one line saying so.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

SKIP_REASON = "PostgreSQL not installed (no initdb on PATH): apt-get install postgresql"
USER = "ragspine"
TEMPLATE = "ragspine_template"
_SEARCH = ("/usr/local/bin", "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin")


def pg_bin(name: str) -> str | None:
    """A PostgreSQL program: on PATH, else in Debian's versioned folder."""
    found = shutil.which(name)
    if found:
        return found
    for folder in _SEARCH:
        candidate = Path(folder) / name
        if candidate.is_file():
            return str(candidate)
    return None


def _as_user() -> tuple[list[str], str | None]:
    """The prefix that runs a program as an unprivileged user (as root), and that user."""
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"], name
    raise RuntimeError("running as root with neither a postgres nor a nobody user")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    """A running server; ``database()`` gives a fresh database's URL."""

    folder: Path
    port: int
    prefix: list[str]
    _names: itertools.count[int] = field(default_factory=itertools.count)

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def database(self, template: str = TEMPLATE, name: str | None = None) -> str:
        """A new database copied from ``template`` (by default: every store migrated, none
        holding rows; ``template1``: no store at all); its URL. Nobody may be connected to
        ``template`` while it is copied."""
        import psycopg

        name = name or f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        return self.url(name)

    def stop(self) -> None:
        ctl = pg_bin("pg_ctl")
        subprocess.run(
            [*self.prefix, str(ctl), "-D", str(self.folder / "data"), "-m", "immediate", "stop"],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def start_server() -> PgServer:
    """initdb, pg_ctl start, a template database with every store migrated."""
    initdb, ctl = pg_bin("initdb"), pg_bin("pg_ctl")
    if initdb is None or ctl is None:
        raise FileNotFoundError(SKIP_REASON)
    prefix, user = _as_user()
    folder = Path(tempfile.mkdtemp(prefix="ragspine-pg-"))
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    data = folder / "data"
    run = [*prefix, initdb, "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8"]
    subprocess.run([*run, "--locale=C", "--no-sync"], capture_output=True, check=True)
    for attempt in range(5):
        port = _free_port()
        options = f"-p {port} -h 127.0.0.1 -k {folder} -F -c full_page_writes=off"
        options += " -c synchronous_commit=off -c max_connections=200"
        started = subprocess.run(
            [
                *prefix,
                ctl,
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(folder / "log"),
                "-w",
                "start",
            ],
            capture_output=True,
            check=False,
        )
        if started.returncode == 0:
            break
        if attempt == 4:
            log = (folder / "log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"pg_ctl start failed: {started.stderr!r}\n{log}")
        time.sleep(0.2)
    server = PgServer(folder, port, prefix)
    _make_template(server)
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
