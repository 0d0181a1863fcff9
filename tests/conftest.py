"""Shared fixtures: a real demo fact store on disk, a fixed reference date."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path

import pytest

from ragspine.demo.facts import build_demo_store
from ragspine.storage.fact_store import FactStore
from tests.cli import Ran, invoke
from tests.fakes.anthropic_server import FakeAnthropicServer, local_client_env
from tests.fakes.corpora import Stores, empty_corpus
from tests.pg_stores import EMPTY, Place, on_postgres

REF = date(2025, 6, 30)
# pg_server, pg_url, backend, locate: a real PostgreSQL; pg_stores: the demo's stores on it;
# pg_select: what `make test-postgres` runs
pytest_plugins = ["tests.pg", "tests.pg_stores", "tests.pg_select"]


def _stop_coverage_in_forked_child() -> None:
    """A child forked from the suite's process (an ingest's reader, a pool's worker) leaves by
    ``os._exit``, so coverage never saves what it traced there; tracing it made the real annual
    reports' PDF reads 2.5 times slower for nothing. The child stops coverage's tracer at once."""
    try:
        import coverage
    except ImportError:  # the suite run without pytest-cov
        return
    while (cov := coverage.Coverage.current()) is not None:  # a pytest-xdist worker runs two
        cov.stop()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_stop_coverage_in_forked_child)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`make test`, with --no-loadscope-reorder) the files are handed out in
    this order: one file that uses the real-company example (its worker builds the example while
    the other takes the slow files, so neither waits for it); the files holding a test marked
    slow; then the rest, those with the most tests first. A long file begun last would keep one
    worker busy while the other idles. A run in one process keeps the collection order."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    first: dict[Path, int] = {}
    count: Counter[Path] = Counter()
    slow: set[Path] = set()
    example: list[Path] = []
    for i, item in enumerate(items):
        first.setdefault(item.path, i)
        count[item.path] += 1
        if item.get_closest_marker("slow"):
            slow.add(item.path)
        if "jinyu_example" in getattr(item, "fixturenames", ()):
            example.append(item.path)

    def rank(pair: tuple[int, pytest.Item]) -> tuple[int, int, int, int]:
        at, item = pair
        kind = 0 if item.path in example[:1] else 1 if item.path in slow else 2
        return kind, -count[item.path], first[item.path], at

    items[:] = [item for _, item in sorted(enumerate(items), key=rank)]


@pytest.fixture(scope="session", autouse=True)
def read_documents_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One cache of read documents for the whole session, never the user's: each real report
    is read once, by whichever test reads it first (tests of the cache set their own). Under
    pytest-xdist the workers share it (entries are written whole, by rename)."""
    shared = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:  # each worker's base is inside the run's own
        shared = shared.parent
    folder = shared / "read-cache"
    folder.mkdir(mode=0o700, exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAGSPINE_CACHE", str(folder))
        patch.delenv("RAGSPINE_CACHE_MB", raising=False)
        yield folder


@pytest.fixture(autouse=True)
def no_stores_home(monkeypatch: pytest.MonkeyPatch) -> None:
    """A RAGSPINE_HOME in the shell never moves a test's stores (tests that want one set it)."""
    monkeypatch.delenv("RAGSPINE_HOME", raising=False)


@pytest.fixture(scope="session")
def demo_db_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo fact store as a SQLite file, built once per session with `build_demo_store`."""
    path = tmp_path_factory.mktemp("facts") / "fact_metric.db"
    build_demo_store(path)
    return path


@pytest.fixture(scope="session")
def demo_corpus_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo document corpus and its index as a SQLite file, built once per session."""
    from ragspine.demo.corpus import build_demo_corpus

    path = tmp_path_factory.mktemp("corpus") / "chunks.db"
    build_demo_corpus(path)
    return path


@pytest.fixture(scope="session")
def demo_db(demo_db_file: Path, request: pytest.FixtureRequest) -> Path | str:
    """The demo fact store, shared by the session (read, never written): the file, or on
    ``make test-postgres`` the URL of a database holding its copy (tests/pg_stores.py)."""
    if not on_postgres():
        return demo_db_file
    return str(request.getfixturevalue("pg_stores").facts(demo_db_file))


@pytest.fixture(scope="session")
def demo_corpus(demo_corpus_file: Path, request: pytest.FixtureRequest) -> Path | str:
    """The demo corpus, shared by the session, as ``demo_db`` is."""
    if not on_postgres():
        return demo_corpus_file
    return str(request.getfixturevalue("pg_stores").corpus(demo_corpus_file))


@pytest.fixture
def facts_alone(demo_db: Path | str, place: Place) -> Stores:
    """The demo's facts and an empty corpus on the suite's backend: a run on facts alone (a
    corpus a command is given must exist)."""
    return demo_db, empty_corpus(place("none.db"))


JINYU = Path(__file__).parents[1] / "examples" / "jinyu"


@dataclass(frozen=True)
class JinyuExample:
    """The real-company example built as `make fixtures-jinyu` builds it, with what it printed
    (and the ingest's ``--report``, ``root / "ingest.json"``)."""

    db: Path | str  # on `make test-postgres` both are one database's URL (tests/pg_stores.py)
    corpus: Path | str
    root: Path
    loaded: Ran
    ingested: Ran


def built_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """A folder that ``build`` fills once per test run. Under pytest-xdist the workers share it
    (the first to ask builds it under a lock, the others wait for it), so an artefact that takes
    half a minute is not built again by every worker; whoever uses it only reads it."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        folder = factory.mktemp(name)
        build(folder)
        return folder
    shared = factory.getbasetemp().parent  # the run's folder, above each worker's own
    folder, built = shared / name, shared / f"{name}.built"
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not built.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a worker that failed half-way
            folder.mkdir()
            build(folder)
            built.touch()
    return folder


def _build_jinyu(
    root: Path, db: Path | str | None = None, corpus: Path | str | None = None
) -> None:
    """`make fixtures-jinyu` into ``root`` (or into ``db`` and ``corpus``), with what each
    command printed (printed.json)."""
    db, corpus = db or root / "facts.db", corpus or root / "chunks.db"
    profile = str(JINYU / "profile.yaml")
    loaded = invoke(
        "facts", "load", str(JINYU / "facts.csv"), "--db", str(db), "--profile", profile
    )
    assert loaded.returncode == 0, loaded.stderr
    ingested = invoke(
        "ingest", str(JINYU / "report"), "--db", str(db), "--corpus", str(corpus),
        "--profile", profile, "--sensitivity", "PUBLIC", "--report", str(root / "ingest.json"),
    )  # fmt: skip
    assert ingested.returncode == 0, ingested.stderr
    printed = {"loaded": asdict(loaded), "ingested": asdict(ingested)}
    (root / "printed.json").write_text(json.dumps(printed), "utf-8")


@pytest.fixture(scope="session")
def jinyu_example(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> JinyuExample:
    """facts.csv loaded, then the 2020 annual report PDF ingested (its text and its facts). On
    ``make test-postgres`` by the same commands into a new database (both stores in it) of
    this test process's server: the read report comes from the session's cache."""
    db: Path | str
    corpus: Path | str
    if on_postgres():
        root = tmp_path_factory.mktemp("jinyu-pg")
        db = corpus = request.getfixturevalue("pg_server").database(EMPTY)
        _build_jinyu(root, db, corpus)
    else:
        root = built_once(tmp_path_factory, "jinyu", _build_jinyu)
        db, corpus = root / "facts.db", root / "chunks.db"
    printed = json.loads((root / "printed.json").read_text("utf-8"))
    loaded, ingested = Ran(**printed["loaded"]), Ran(**printed["ingested"])
    return JinyuExample(db, corpus, root, loaded, ingested)


@pytest.fixture(scope="session")
def jinyu_files(jinyu_example: JinyuExample, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example's stores as SQLite files (facts.db, chunks.db) in a folder: what `store
    migrate` moves to PostgreSQL. On ``make test-postgres`` moved out of the example's
    database by `store migrate` itself."""
    if not on_postgres():
        return jinyu_example.root
    folder = tmp_path_factory.mktemp("jinyu-files")
    moved = invoke("store", "migrate", "--from", str(jinyu_example.db), "--to", f"sqlite:{folder}")
    assert moved.returncode == 0, moved.stderr
    return folder


@pytest.fixture
def demo_copy(
    tmp_path: Path, demo_db_file: Path, demo_corpus_file: Path, request: pytest.FixtureRequest
) -> tuple[Path | str, Path | str]:
    """The demo's facts and corpus copied for this test to write to (the session's stay as
    built): two files and the corpus's index, or on ``make test-postgres`` one database
    holding both (an ingest writes a file's facts and passages in one transaction)."""
    from ragspine.retrieval.index import index_dir_for

    if on_postgres():
        url = request.getfixturevalue("pg_stores").example("demo", demo_db_file, demo_corpus_file)
        return url, url
    db, corpus = tmp_path / "facts.db", tmp_path / "chunks.db"
    shutil.copy2(demo_db_file, db)
    shutil.copy2(demo_corpus_file, corpus)
    shutil.copytree(index_dir_for(demo_corpus_file), index_dir_for(corpus))
    return db, corpus


@pytest.fixture
def demo_facts_copy(
    tmp_path: Path, demo_db_file: Path, request: pytest.FixtureRequest
) -> Path | str:
    """The demo's facts alone, copied for this test to write to: a file, or on ``make
    test-postgres`` a database holding no other store."""
    if on_postgres():
        return str(request.getfixturevalue("pg_stores").facts(demo_db_file))
    db = tmp_path / "facts.db"
    shutil.copy2(demo_db_file, db)
    return db


@pytest.fixture
def store(demo_db: Path | str, request: pytest.FixtureRequest) -> Iterator[FactStore]:
    """The demo's facts; on ``make test-postgres`` a copy of them for this test alone."""
    where: str | Path = demo_db
    if on_postgres():
        where = request.getfixturevalue("pg_stores").facts(request.getfixturevalue("demo_db_file"))
    s = FactStore(where, create=False)
    s.init_schema()
    yield s
    s.close()


@pytest.fixture
def ref() -> date:
    return REF


PRINTED = "printed"  # the user property a test's printed line travels under


@pytest.fixture
def printed(request: pytest.FixtureRequest) -> Callable[[str], None]:
    """Says a measurement in `make test`'s output, under "measured" at the end of the run: it
    travels with the test's report, so a line said in a pytest-xdist worker (whose own output
    never reaches the terminal) is printed too."""

    def say(line: str) -> None:
        request.node.user_properties.append((PRINTED, line))

    return say


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    said = [
        str(value)
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", None) == "call"
        for name, value in getattr(report, "user_properties", ())
        if name == PRINTED
    ]
    if said:
        terminalreporter.write_sep("-", "measured")
        for line in said:
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def _empty_ca_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("no_ca")


@pytest.fixture
def fake_anthropic(
    monkeypatch: pytest.MonkeyPatch, _empty_ca_dir: Path
) -> Iterator[FakeAnthropicServer]:
    """A started server; fails the test if the SDK asked for more replies than were scripted.

    The check matters because the agent turns the "script ran out" 500 into an honest degrade,
    which could otherwise let a test pass for the wrong reason.
    """
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    for name, value in local_client_env(_empty_ca_dir).items():
        monkeypatch.setenv(name, value)
    with FakeAnthropicServer() as server:
        yield server
        assert server.exhausted == 0, f"{server.exhausted} request(s) found the script empty"
