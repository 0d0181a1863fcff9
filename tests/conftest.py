"""Shared fixtures: a real demo fact store on disk, a fixed reference date."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine.demo.facts import build_demo_store
from ragspine.storage.fact_store import FactStore

REF = date(2025, 6, 30)


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


@pytest.fixture
def store(demo_db: Path) -> FactStore:
    s = FactStore(demo_db, create=False)
    s.init_schema()
    yield s
    s.close()


@pytest.fixture
def ref() -> date:
    return REF
