"""A long-lived retriever (and the Engine over it) searches the store as it is now: a document
ingested after it was opened, by the real ingest in this process or another, is found by the next
search; its threads never wait for, or see half of, the index that replaces theirs."""

from __future__ import annotations

import fcntl
import logging
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ragspine.engine import Engine
from ragspine.errors import IndexBusyError
from ragspine.retrieval import retriever as retriever_module
from ragspine.retrieval.base import NarrativeHit
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.chunking.chunker import chunk_text
from ragspine.retrieval.documents import load_document
from ragspine.retrieval.index import CorpusIndex, index_dir_for, refresh_index
from ragspine.retrieval.retriever import HybridRetriever
from tests.cli import invoke
from tests.pg_stores import facts_beside, on_postgres

RAGSPINE = str(Path(sys.executable).parent / "ragspine")
REF = date(2025, 6, 30)
NEW_DOC = "drone_pilot.md"
QUESTION = "无人机配送试点有什么安排?"
NEW = """---
title: 无人机配送试点
sensitivity: INTERNAL
---
# 试点安排

深圳门店自2025年起开展无人机配送试点,首批覆盖三个社区。
"""


def _new_doc(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / NEW_DOC
    path.write_text(NEW, "utf-8")
    return path


def _ingest(tmp_path: Path, corpus: Path | str, doc: Path) -> None:
    """The user's `ragspine ingest` (in this process, through click)."""
    db = facts_beside(corpus, tmp_path)
    ran = invoke("ingest", str(doc), "--db", db, "--corpus", str(corpus))
    assert ran.returncode == 0, ran.stderr


def _store_without_indexing(store: ChunkStore, path: Path) -> None:
    """A document written to the store by a writer that has not rebuilt the index (yet)."""
    doc = load_document(path)
    store.replace_document(doc, chunk_text(doc.body, markdown=doc.markdown))


def _docs(retriever: HybridRetriever, question: str = QUESTION) -> list[str]:
    return [h.doc_id for h in retriever.retrieve(question, top_k=5)]


def test_a_document_ingested_after_opening_is_found_by_the_next_search(
    mini_corpus: Path, tmp_path: Path
) -> None:
    retriever = HybridRetriever.open(mini_corpus)
    assert NEW_DOC not in _docs(retriever)
    _ingest(tmp_path, mini_corpus, _new_doc(tmp_path / "new"))
    assert _docs(retriever)[0] == NEW_DOC


def test_engine_ask_answers_from_the_passages_ingested_since_it_opened(
    demo_copy: tuple[Path | str, Path | str], tmp_path: Path
) -> None:
    db, corpus = demo_copy
    with Engine.open(db, corpus) as engine:
        before = engine.ask(QUESTION, reference_date=REF)
        assert before.route == "narrative" and NEW_DOC not in str(before.sources)
        _ingest(tmp_path, corpus, _new_doc(tmp_path / "new"))
        after = engine.ask(QUESTION, reference_date=REF)
    assert after.sources[0] == {"doc": NEW_DOC, "locator": "section=1,para=1"}
    assert "无人机配送试点" in after.answer and after.degraded is None


def test_a_corpus_created_after_the_engine_opened_is_wired_by_the_next_question(
    demo_facts_copy: Path | str, tmp_path: Path
) -> None:
    db = demo_facts_copy  # on PostgreSQL the corpus is its database, where none was created yet
    corpus = db if on_postgres() else tmp_path / "data" / "chunks.db"
    with Engine.open(db, corpus) as engine:
        assert engine.ask(QUESTION, reference_date=REF).degraded == "narrative_unavailable"
        _ingest(tmp_path, corpus, _new_doc(tmp_path / "new"))
        after = engine.ask(QUESTION, reference_date=REF)
    assert after.degraded is None and after.sources[0]["doc"] == NEW_DOC


@pytest.mark.slow
def test_threads_search_while_another_process_ingests(mini_corpus: Path, tmp_path: Path) -> None:
    """Every answer is the old index's or the new one's, none fails, and the new one arrives."""
    retriever = HybridRetriever.open(mini_corpus)
    old = retriever.retrieve(QUESTION, top_k=5)
    doc = _new_doc(tmp_path / "new")
    ingest = subprocess.Popen(
        [RAGSPINE, "ingest", str(doc), "--db", facts_beside(mini_corpus, tmp_path),
         "--corpus", str(mini_corpus)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip

    def search(_: int) -> list[list[NarrativeHit]]:
        seen = []
        while ingest.poll() is None:
            seen.append(retriever.retrieve(QUESTION, top_k=5))
        seen.extend(retriever.retrieve(QUESTION, top_k=5) for _ in range(3))
        return seen

    with ThreadPoolExecutor(8) as pool:
        answers = [a for seen in pool.map(search, range(8)) for a in seen]
    assert ingest.wait() == 0, ingest.stdout.read() if ingest.stdout else ""
    new = HybridRetriever.open(mini_corpus).retrieve(QUESTION, top_k=5)
    assert new != old and new[0].doc_id == NEW_DOC
    assert all(a in (old, new) for a in answers) and new in answers
    assert retriever.retrieve(QUESTION, top_k=5) == new


def test_exactly_one_thread_reloads_while_the_others_search_the_old_index(
    mini_corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    retriever = HybridRetriever.open(mini_corpus)
    old = retriever.retrieve(QUESTION, top_k=5)
    _ingest(tmp_path, mini_corpus, _new_doc(tmp_path / "new"))
    calls: list[int] = []

    def slow_refresh(store: ChunkStore, *, wait: bool = True) -> tuple[CorpusIndex, bool]:
        calls.append(threading.get_ident())
        time.sleep(0.3)  # the others search meanwhile, and do not wait
        return refresh_index(store, wait=wait)

    monkeypatch.setattr(retriever_module, "refresh_index", slow_refresh)
    start = threading.Barrier(16)

    def search(_: int) -> tuple[float, list[NarrativeHit]]:
        start.wait()
        began = time.perf_counter()
        hits = retriever.retrieve(QUESTION, top_k=5)
        return time.perf_counter() - began, hits

    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(search, range(16)))
    new = retriever.retrieve(QUESTION, top_k=5)
    assert len(calls) == 1 and new[0].doc_id == NEW_DOC
    assert all(hits in (old, new) for _, hits in results)
    assert old in [hits for _, hits in results] and new in [hits for _, hits in results]
    assert sorted(took for took, _ in results)[-2] < 0.3  # only the reloading one waited


@contextmanager
def _held_by_another_builder(corpus: Path) -> Iterator[None]:
    """The build lock, as another process's rebuild holds it."""
    index = index_dir_for(corpus)
    with index.with_name(index.name + ".lock").open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def test_while_another_process_rebuilds_the_old_index_serves_then_its_build_is_taken(
    mini_corpus: Path, tmp_path: Path
) -> None:
    retriever = HybridRetriever.open(mini_corpus)
    with ChunkStore(mini_corpus) as store, _held_by_another_builder(mini_corpus):
        _store_without_indexing(store, _new_doc(tmp_path / "new"))  # the index is stale
        began = time.perf_counter()
        assert NEW_DOC not in _docs(retriever)  # the old index, at once
        assert time.perf_counter() - began < 1
        with pytest.raises(IndexBusyError):
            refresh_index(store, wait=False)
        # the other builder's result lands
        CorpusIndex.build(
            store.iter_chunks(),
            index_dir_for(mini_corpus),
            generation=store.generation,
            store_id=store.store_id,
        )
    assert _docs(retriever)[0] == NEW_DOC


def test_a_builder_waits_for_a_rebuild_under_way_and_takes_it(mini_corpus: Path) -> None:
    with ChunkStore(mini_corpus) as store:
        store.delete_document("pricing.md")
        got: list[tuple[CorpusIndex, bool]] = []
        with _held_by_another_builder(mini_corpus):
            waiting = threading.Thread(target=lambda: got.append(refresh_index(store)))
            waiting.start()
            time.sleep(0.2)
            assert not got  # it waits rather than building beside the other builder
            built = CorpusIndex.build(
                store.iter_chunks(),
                index_dir_for(mini_corpus),
                generation=store.generation,
                store_id=store.store_id,
            )
        waiting.join(10)
    ((index, rebuilt),) = got
    assert not rebuilt and index.manifest["build"] == built.manifest["build"]


def test_a_refresh_that_fails_keeps_the_old_index_and_is_tried_again(
    mini_corpus: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    retriever = HybridRetriever.open(mini_corpus)
    real_build = CorpusIndex.build
    disk_full = True

    def build(*args: object, **kwargs: object) -> CorpusIndex:
        if disk_full:
            raise OSError(28, "No space left on device")
        return real_build(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(CorpusIndex, "build", build)
    with ChunkStore(mini_corpus) as store:
        _store_without_indexing(store, _new_doc(tmp_path / "new"))  # nobody rebuilt
    with caplog.at_level(logging.WARNING, "ragspine.retrieval"):
        assert NEW_DOC not in _docs(retriever)  # the old index answers
    assert "not refreshed" in caplog.text and "No space left" in caplog.text
    disk_full = False
    assert NEW_DOC not in _docs(retriever)  # not tried again at once
    monkeypatch.setattr(retriever, "_retry_at", 0.0)
    assert _docs(retriever)[0] == NEW_DOC


def test_a_search_on_a_current_index_costs_one_generation_query(
    mini_corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    retriever = HybridRetriever.open(mini_corpus)
    retriever.retrieve(QUESTION, top_k=5)
    statements: list[str] = []
    conn = retriever.store.connection  # what the store asks of its database, on either backend
    ask = conn.execute

    def seen(sql: str, params: Any = ()) -> Any:
        statements.append(sql)
        return ask(sql, params)

    monkeypatch.setattr(conn, "execute", seen)
    retriever.retrieve(QUESTION, top_k=5)
    assert [s for s in statements if "corpus_state" in s] == [
        "SELECT store_id, generation FROM corpus_state WHERE id = 1"
    ]


def test_a_service_never_rebuilds_for_half_a_batch(mini_corpus: Path, tmp_path: Path) -> None:
    """While `ingest` writes a batch, the build lock is held: a running reader (wait=False)
    that notices the store moved on keeps its index instead of building one of half the batch."""
    from ragspine.ingestion.pipeline import ingest_paths_all
    from ragspine.profile import default_profile

    docs = tmp_path / "batch"
    _new_doc(docs)
    (docs / "second.md").write_text("# 第二篇\n\n第二篇文档的内容。\n", "utf-8")
    refused: list[str] = []

    def service_looks(_: object) -> None:  # after each file is stored, before the index
        with ChunkStore(mini_corpus, create=False) as reader:
            try:
                refresh_index(reader, wait=False)
            except IndexBusyError:
                refused.append("busy")

    with ChunkStore(mini_corpus, create=False) as chunks:
        run = ingest_paths_all(
            [docs], chunks=chunks, facts=None, profile=default_profile(), on_file=service_looks
        )
    assert refused == ["busy", "busy"]  # both times mid-batch, the reader kept its index
    assert run.index_rebuilt
    with ChunkStore(mini_corpus, create=False) as reader:
        index, rebuilt = refresh_index(reader)
        assert not rebuilt and index.generation == reader.generation  # one build, whole batch
