from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.errors import ConstraintError, StoreNotFoundError
from ragspine.retrieval.chunking.chunk_store import ChunkStore, make_chunk_id
from tests.pg_stores import Place, store_absent


@pytest.mark.parametrize(
    "row",
    [
        ("x", "results.md", 99, "para=9", "t", "", "", "SECRET", "x"),  # no such level
        ("y", "results.md", 98, "", "t", "", "", "PUBLIC", "x"),  # no locator
        ("z", None, 97, "para=7", "t", "", "", "PUBLIC", "x"),  # no document
        ("w", "results.md", 96, "para=6", "t", "", "", None, "x"),  # no level at all
    ],
)
def test_lineage_and_sensitivity_are_enforced_by_the_database(
    mini_corpus: Path | str, row: tuple[object, ...]
) -> None:
    """Whatever writes to the store (a hand, an older version), the database refuses a chunk
    without its document, locator or a known level: on SQLite and on PostgreSQL alike."""
    with ChunkStore(mini_corpus, create=False) as store, pytest.raises(ConstraintError):
        store.connection.execute(f"INSERT INTO chunk VALUES ({', '.join('?' * len(row))})", row)


def test_chunks_carry_document_metadata(mini_corpus: Path) -> None:
    chunks = list(ChunkStore(mini_corpus).iter_chunks())
    board = [c for c in chunks if c.doc_id == "board.md"]
    assert board[0].sensitivity == "RESTRICTED" and board[0].title == "董事会纪要 › 决议"
    assert board[0].chunk_id == make_chunk_id("board.md", "section=1,para=1")


def test_chunk_ids_are_stable_codes() -> None:
    assert make_chunk_id("a.md", "para=1") == make_chunk_id("a.md", "para=1")
    assert make_chunk_id("a.md", "para=1") != make_chunk_id("a.md", "para=2")


def test_deleting_a_document_removes_its_chunks(mini_corpus: Path) -> None:
    store = ChunkStore(mini_corpus)
    assert store.delete_document("results.md")
    assert {c.doc_id for c in store.iter_chunks()} == {"board.md", "pricing.md"}
    assert not store.delete_document("results.md")


def test_missing_store_names_the_fix(bare_place: Place) -> None:
    with pytest.raises(StoreNotFoundError, match="ragspine ingest"):
        ChunkStore(bare_place("none.db"), create=False)
    assert store_absent(ChunkStore, bare_place("none.db"))


@pytest.mark.parametrize("page", [1, 2, 3, 1000])  # a page per chunk, uneven, exact, all at once
def test_chunks_are_read_a_page_at_a_time_in_the_same_order(mini_corpus: Path, page: int) -> None:
    store = ChunkStore(mini_corpus)
    whole = list(store.iter_chunks(page=1000))
    assert len(whole) > 3
    assert list(store.iter_chunks(page=page)) == whole
    assert [(c.doc_id, c.ord) for c in whole] == sorted((c.doc_id, c.ord) for c in whole)
