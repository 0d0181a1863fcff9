"""A saved index belongs to one store: a corpus dropped and made again at the same place (a
SQLite file deleted, a PostgreSQL database dropped and created under its name) gets an index of
its own, even when its generation has come back to the old one's."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.chunking.chunker import chunk_text
from ragspine.retrieval.documents import load_document
from ragspine.retrieval.index import refresh_index
from ragspine.retrieval.retriever import HybridRetriever
from tests.pg import Locate

OLD = "# 旧\n\n香港门店的营业时间调整。\n"
NEW = "# 新\n\n无人机配送试点覆盖三个社区。\n"


def _store(store: ChunkStore, folder: Path, name: str, body: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"---\ntitle: {name}\nsensitivity: PUBLIC\n---\n{body}", "utf-8")
    doc = load_document(path)
    store.replace_document(doc, chunk_text(doc.body, markdown=doc.markdown))


def _drop(location: str) -> None:
    """The store gone: its file deleted, or its database dropped and created empty."""
    if "://" not in location:
        Path(location).unlink()
        return
    parts = urlsplit(location)
    name = parts.path.lstrip("/")
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as c:
        c.execute(f"DROP DATABASE {name} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {name}")


def test_a_store_made_again_at_the_same_place_never_takes_the_old_index(
    locate: Locate, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAGSPINE_INDEX_DIR", str(tmp_path / "index"))
    where = locate("chunks.db")
    with ChunkStore(where) as old:
        old.init_schema()
        _store(old, tmp_path / "a", "old.md", OLD)
        refresh_index(old)
        old_generation = old.generation
    _drop(where)
    with ChunkStore(where) as new:
        new.init_schema()
        _store(new, tmp_path / "b", "new.md", NEW)
        assert new.generation == old_generation  # the counter says nothing new
        _index, rebuilt = refresh_index(new)
        assert rebuilt
    retriever = HybridRetriever.open(where)
    try:
        assert [h.doc_id for h in retriever.retrieve("无人机配送试点", top_k=3)] == ["new.md"]
        assert retriever.retrieve("香港门店营业时间", top_k=3) == []
    finally:
        retriever.store.close()


def test_two_stores_have_different_ids_and_a_store_keeps_its_own(tmp_path: Path) -> None:
    with ChunkStore(tmp_path / "a.db") as a, ChunkStore(tmp_path / "b.db") as b:
        a.init_schema(), b.init_schema()
        first = a.store_id
        assert first and first != b.store_id
    with ChunkStore(tmp_path / "a.db") as again:
        again.init_schema()
        assert again.store_id == first
