"""Shared fixtures: a real demo fact store on disk, a fixed reference date."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest

from ragspine.demo.facts import build_demo_store
from ragspine.storage.fact_store import FactStore
from tests.cli import Ran, invoke
from tests.fakes.anthropic_server import FakeAnthropicServer, local_client_env

REF = date(2025, 6, 30)


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


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo fact store, built once per session with `build_demo_store`."""
    path = tmp_path_factory.mktemp("facts") / "fact_metric.db"
    build_demo_store(path)
    return path


@pytest.fixture(scope="session")
def demo_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo document corpus and its index, built once per session."""
    from ragspine.demo.corpus import build_demo_corpus

    path = tmp_path_factory.mktemp("corpus") / "chunks.db"
    build_demo_corpus(path)
    return path


JINYU = Path(__file__).parents[1] / "examples" / "jinyu"


@dataclass(frozen=True)
class JinyuExample:
    """The real-company example built as `make fixtures-jinyu` builds it, with what it printed."""

    db: Path
    corpus: Path
    root: Path
    loaded: Ran
    ingested: Ran


@pytest.fixture(scope="session")
def jinyu_example(tmp_path_factory: pytest.TempPathFactory) -> JinyuExample:
    """facts.csv loaded, then the 2020 annual report PDF ingested (its text and its facts)."""
    root = tmp_path_factory.mktemp("jinyu")
    db, corpus = root / "facts.db", root / "chunks.db"
    profile = str(JINYU / "profile.yaml")
    loaded = invoke(
        "facts", "load", str(JINYU / "facts.csv"), "--db", str(db), "--profile", profile
    )
    assert loaded.returncode == 0, loaded.stderr
    ingested = invoke(
        "ingest", str(JINYU / "report"), "--db", str(db), "--corpus", str(corpus),
        "--profile", profile, "--sensitivity", "PUBLIC",
    )  # fmt: skip
    assert ingested.returncode == 0, ingested.stderr
    return JinyuExample(db, corpus, root, loaded, ingested)


@pytest.fixture
def store(demo_db: Path) -> FactStore:
    s = FactStore(demo_db, create=False)
    s.init_schema()
    yield s
    s.close()


@pytest.fixture
def ref() -> date:
    return REF


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
