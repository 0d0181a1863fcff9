"""Passages held in memory on PostgreSQL (``ChunkStore.get_chunks`` inside a request): a repeated
answer reads none again, and a write through another connection (another host's ingest) drops
them, so a passage raised to RESTRICTED is never served from what was held, even while the
replica's search index is still the older one (another thread refreshing it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.retriever import HybridRetriever
from ragspine.storage.generations import pinned, read_all
from tests.retrieval.conftest import ingest_docs, write_docs

NOTE = """---
title: Quillfeather
sensitivity: {level}
---
# Quillfeather programme

The Quillfeather programme trains store managers in stock planning.
"""
QUESTION = "What is the Quillfeather programme?"


def _ingest(store: ChunkStore, folder: Path, level: str) -> None:
    report = ingest_docs(store, write_docs(folder, {"quill.md": NOTE.format(level=level)}))
    assert [f.outcome for f in report.files] in (["added"], ["replaced"]), report


def _found(retriever: HybridRetriever, store: ChunkStore) -> list[str]:
    """What an INTERNAL caller's search returns, inside a request's pin (as the service asks)."""
    with pinned(read_all([store.counter])):  # type: ignore[list-item]
        return [hit.doc_id for hit in retriever.retrieve(QUESTION, clearance="INTERNAL")]


def test_held_passages_answer_again_and_a_raised_level_drops_them(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAGSPINE_INDEX_DIR", str(tmp_path / "index"))
    with ChunkStore(pg_url) as other:  # another host: it ingests
        other.init_schema()
        _ingest(other, tmp_path / "v1", "INTERNAL")
        retriever = HybridRetriever.open(pg_url)
        try:
            assert _found(retriever, retriever.store) == ["quill.md"]
            held_at, held = retriever.store._held
            assert held_at is not None and len(held) == 1  # held under the request's generation
            with pinned(read_all([retriever.store.counter])):  # type: ignore[list-item]
                again = retriever.store.get_chunks(list(held))
            assert again == held  # served from memory (the statements are counted per route
            # in tests/service/test_pg_round_trips.py)

            _ingest(other, tmp_path / "v2", "RESTRICTED")  # the same file, raised
            assert retriever._refreshing.acquire(blocking=False)  # another thread refreshing:
            try:  # this search keeps the index it had, which still says INTERNAL
                assert _found(retriever, retriever.store) == []
            finally:
                retriever._refreshing.release()
            assert _found(retriever, retriever.store) == []  # and once the index caught up
        finally:
            retriever.store.close()
