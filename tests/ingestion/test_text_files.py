"""Markdown and text files through the ingestion pipeline into the chunk store alone (as the demo
corpus is built): each file reported, unchanged ones skipped, a bad one changing nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.errors import IngestError
from ragspine.ingestion.pipeline import RunReport
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.index import CorpusIndex, index_dir_for
from ragspine.retrieval.retriever import HybridRetriever
from tests.pg_stores import Place
from tests.retrieval.conftest import ingest_docs, mini_corpus, write_docs

__all__ = ["mini_corpus"]  # the retrieval tests' small corpus, a fixture here too


def _store(path: Path) -> ChunkStore:
    store = ChunkStore(path)
    store.init_schema()
    return store


def _files(report: RunReport) -> list[tuple[str, str, int]]:
    return [(f.doc_id, f.outcome, f.chunks) for f in report.files]


def test_ingest_reports_each_file_and_builds_the_index(tmp_path: Path, place: Place) -> None:
    write_docs(tmp_path / "docs")
    store = _store(place("c.db"))
    report = ingest_docs(store, [tmp_path / "docs"])
    assert sorted(_files(report)) == [
        ("board.md", "added", 1),
        ("pricing.md", "added", 1),
        ("results.md", "added", 2),
    ]
    assert report.index_rebuilt
    assert CorpusIndex.load(index_dir_for(place("c.db"))).is_current(
        store.generation, store.store_id
    )


def test_unchanged_files_are_skipped_by_content_hash(mini_corpus: Path, tmp_path: Path) -> None:
    store = ChunkStore(mini_corpus)
    generation = store.generation
    report = ingest_docs(store, [tmp_path / "docs"])
    assert {f.outcome for f in report.files} == {"unchanged"}
    assert not report.index_rebuilt and store.generation == generation


def test_a_changed_file_replaces_its_chunks(mini_corpus: Path, tmp_path: Path) -> None:
    path = tmp_path / "docs" / "results.md"
    path.write_text(
        path.read_text("utf-8").replace(
            "线上渠道保持增长,小程序订单翻倍。", "全新的会员计划上线。"
        ),
        "utf-8",
    )
    store = ChunkStore(mini_corpus)
    report = ingest_docs(store, [path])
    assert _files(report) == [("results.md", "replaced", 2)]
    assert store.count() == 4
    retriever = HybridRetriever.open(mini_corpus)
    assert retriever.retrieve("会员计划", top_k=1)[0].doc_id == "results.md"
    assert not retriever.retrieve("小程序订单", top_k=5)  # the old text is gone from the index


def test_one_bad_file_leaves_the_store_untouched(mini_corpus: Path, tmp_path: Path) -> None:
    good = tmp_path / "new.md"
    good.write_text("# X\nnew text\n", "utf-8")
    bad = tmp_path / "bad.md"
    bad.write_text("---\nsensitivity: SECRET\n---\nx\n", "utf-8")
    store = ChunkStore(mini_corpus)
    before = (store.count(), store.generation)
    with pytest.raises(IngestError, match=r"bad\.md"):
        ingest_docs(store, [good, bad])
    assert (store.count(), store.generation) == before


def test_a_missing_path_is_named(tmp_path: Path, place: Place) -> None:
    with pytest.raises(IngestError, match=r"nope\.md: no such file"):
        ingest_docs(_store(place("c.db")), [tmp_path / "nope.md"])


def test_a_stale_index_is_rebuilt_once_on_open(mini_corpus: Path) -> None:
    store = ChunkStore(mini_corpus)
    store.delete_document("pricing.md")  # a change made outside ingest
    retriever = HybridRetriever.open(mini_corpus)
    assert retriever.index.is_current(store.generation, store.store_id)
    assert retriever.retrieve("floor price", top_k=5) == []


def test_a_document_cut_by_an_older_chunker_is_cut_again(mini_corpus: Path, tmp_path: Path) -> None:
    """Unchanged text, but chunked by a chunker that has since changed: its chunks are stale."""
    with ChunkStore(mini_corpus) as store:
        with store._conn:  # the state an older release left behind
            store._conn.execute(
                "UPDATE document SET content_hash = replace(content_hash, '/chunker-', '/old-')"
            )
        report = ingest_docs(store, write_docs(tmp_path / "docs"))
    assert {f.outcome for f in report.files} == {"replaced"}
    assert report.index_rebuilt
