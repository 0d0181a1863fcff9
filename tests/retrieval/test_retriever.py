"""Hybrid retrieval and RESTRICTED isolation, on a real chunk store and index on disk."""

from __future__ import annotations

import json
from collections.abc import Collection
from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.agent import answer_question
from ragspine.agent.llm_provider import MockProvider
from ragspine.retrieval.retriever import HybridRetriever
from ragspine.storage.fact_store import FactStore
from tests.pg_stores import Place

BOARD_QUESTION = "董事会关于青松项目有什么决议?"


def test_retrieves_the_right_chunk_with_its_lineage(retriever: HybridRetriever) -> None:
    hits = retriever.retrieve("为什么中国内地营收下降?", top_k=3)
    assert hits[0].doc_id == "results.md"
    assert hits[0].locator == "section=1,para=1"
    assert hits[0].title == "年度业绩回顾 › 收入"
    assert hits[0].chunk_id.startswith("c_")


def test_traditional_question_finds_simplified_text(retriever: HybridRetriever) -> None:
    assert retriever.retrieve("線上渠道為何增長?", top_k=1)[0].locator == "section=2,para=1"


@pytest.mark.parametrize(
    ("clearance", "visible"),
    [
        ("PUBLIC", {"results.md"}),  # the public can see public documents only
        ("INTERNAL", {"results.md", "pricing.md"}),  # staff: everything but RESTRICTED
        ("RESTRICTED", {"results.md", "pricing.md", "board.md"}),  # the board
    ],
)
def test_clearance_bounds_what_can_be_retrieved(
    retriever: HybridRetriever, clearance: str, visible: set[str]
) -> None:
    seen = set()
    for q in ("收入下降", "floor price promotions", BOARD_QUESTION):
        seen |= {h.doc_id for h in retriever.retrieve(q, top_k=10, clearance=clearance)}
    assert seen <= visible


def test_restricted_best_match_is_returned_only_with_clearance(retriever: HybridRetriever) -> None:
    with_clearance = retriever.retrieve(BOARD_QUESTION, top_k=3, clearance="RESTRICTED")
    assert with_clearance[0].doc_id == "board.md"
    without = retriever.retrieve(BOARD_QUESTION, top_k=3, clearance="INTERNAL")
    assert "board.md" not in {h.doc_id for h in without}
    assert all("青松" not in h.text for h in without)


def test_restricted_text_never_reaches_answer_sources_or_trace(
    retriever: HybridRetriever, store: FactStore
) -> None:
    result = answer_question(
        BOARD_QUESTION, store, MockProvider(), reference_date=date(2025, 6, 30),
        narrative_retriever=retriever,
    )  # fmt: skip
    board = retriever.retrieve(BOARD_QUESTION, top_k=1, clearance="RESTRICTED")[0]
    assert "青松" not in result.answer and "board.md" not in result.answer
    assert all(s["doc"] != "board.md" for s in result.sources)
    assert board.chunk_id not in json.dumps(result.trace.to_dict())
    cleared = answer_question(
        BOARD_QUESTION, store, MockProvider(), reference_date=date(2025, 6, 30),
        narrative_retriever=retriever, clearance="RESTRICTED",
    )  # fmt: skip
    assert (
        "青松项目" in cleared.answer
        and {"doc": "board.md", "locator": "section=1,para=1"} in cleared.sources
    )


class LeakyVectors:
    """A vector channel that ignores the clearance it is given."""

    def __init__(self, ids: list[str]) -> None:
        self.ids = ids
        self.allowed: Collection[str] = ()

    def search(self, query: str, *, k: int, allowed: Collection[str]) -> list[str]:
        self.allowed = allowed
        return self.ids[:k]


def test_a_vector_channel_cannot_smuggle_restricted_chunks(mini_corpus: Path) -> None:
    full = HybridRetriever.open(mini_corpus)
    board_id = full.retrieve(BOARD_QUESTION, top_k=1, clearance="RESTRICTED")[0].chunk_id
    vectors = LeakyVectors([board_id, "c_does_not_exist"])
    retriever = HybridRetriever(full.store, full.index, vector=vectors)
    hits = retriever.retrieve(BOARD_QUESTION, top_k=5, clearance="INTERNAL")
    assert board_id not in {h.chunk_id for h in hits}
    assert tuple(vectors.allowed) == ("PUBLIC", "INTERNAL")


def test_vector_ranking_is_fused_with_bm25(mini_corpus: Path) -> None:
    full = HybridRetriever.open(mini_corpus)
    pricing = full.retrieve("floor price", top_k=1)[0].chunk_id
    retriever = HybridRetriever(full.store, full.index, vector=LeakyVectors([pricing]))
    hits = retriever.retrieve("线上渠道增长", top_k=5)
    assert pricing in {h.chunk_id for h in hits}  # found by the vector channel alone


def test_no_match_returns_nothing(retriever: HybridRetriever) -> None:
    assert retriever.retrieve("zzzz qqqq", top_k=5) == []


def test_unknown_clearance_is_refused(retriever: HybridRetriever) -> None:
    with pytest.raises(ValueError, match="unknown sensitivity"):
        retriever.retrieve("收入", clearance="TOP_SECRET")


def test_a_query_of_figures_alone_ranks_nothing(retriever: HybridRetriever) -> None:
    """A translation whose words the corpus lacks leaves only its years: no topic to rank by."""
    assert retriever.retrieve("2024 2023", top_k=5, clearance="RESTRICTED") == []
    assert retriever.retrieve("2024 线上", top_k=5, clearance="RESTRICTED") != []


def test_a_rewrite_that_matches_only_stray_words_does_not_outrank_the_real_match(
    tmp_path: Path,
    place: Place,
) -> None:
    """On a Chinese report, the English rewrite of 审计意见 ("audit … 2020") matches only the
    year and a stray English word; fused rank for rank it used to push those pages ahead."""
    from ragspine.profile import load_profile
    from ragspine.retrieval.chunking.chunk_store import ChunkStore
    from tests.retrieval.conftest import ingest_docs, write_docs

    tables = {
        f"shares{i}.md": f"# 限售股份\n\n2020年5月20日 首发限售 2020年4月26日 social {i}\n"
        for i in range(6)
    }
    opinion = {
        "report.md": "# 审计报告\n\n我们认为，财务报表公允反映了公司2020年的财务状况，"
        "审计意见为标准无保留意见。\n"
    }
    corpus = place("chunks.db")
    with ChunkStore(corpus) as store:
        store.init_schema()
        ingest_docs(store, write_docs(tmp_path / "docs", tables | opinion))
    retriever = HybridRetriever.open(corpus, profile=load_profile(None))
    hits = retriever.retrieve("2020年审计意见的情况", top_k=3, clearance="RESTRICTED")
    assert [h.doc_id for h in hits] == ["report.md"]  # the others match stray words only
