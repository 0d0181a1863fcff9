"""Copying a store's tables between databases (``storage.copy``): every table declared, rows
copied whole, checksums that depend on the rows alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.faq.faq_cache import FaqCache
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.service.keys_pg import PgKeys
from ragspine.storage.copy import CopyError, checksum, copy_tables, verify
from ragspine.storage.fact_store import FactStore
from ragspine.storage.store import Store
from tests.pg import Locate
from tests.pg_stores import NewPlace

# Kept out of a copy on purpose: the migrations' own history, the corpus's counter (set past
# both sides by advance_generation, never copied), and the other stores' generations (the
# copy's own writes move the target's: storage.generations).
NOT_COPIED = {"schema_migrations", "corpus_state", "fact_state", "faq_state", "key_state"}


def _tables(store: Store) -> set[str]:
    conn = store.connection
    if conn.dialect == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    else:
        sql = (
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    return {str(r[0]) for r in conn.execute(sql).fetchall()}


@pytest.mark.parametrize(
    "kind",
    [
        FactStore,  # facts, their history, source files, stored profiles
        ChunkStore,  # documents and chunks
        FaqCache,  # items and their variants
    ],
)
def test_every_table_a_migration_creates_is_declared_for_the_copy(
    kind: type[Store], locate: Locate
) -> None:
    with kind(locate("store.db")) as store:
        store.init_schema()
        assert _tables(store) - NOT_COPIED == set(kind.TABLES)


def test_the_keys_table_is_declared_for_the_copy(pg_url: str) -> None:
    with PgKeys(pg_url) as keys:
        keys.init_schema()
        assert _tables(keys) - NOT_COPIED == set(PgKeys.TABLES)


def test_a_checksum_is_the_rows_whatever_their_order() -> None:
    rows = [(1, "a", 2.5, None), (2, "b", 0.1, "x")]
    assert checksum(rows) == checksum(list(reversed(rows)))
    assert checksum(rows)[0] == 2


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ([(1, 0.1)], [(1, 0.1000000000000001)]),  # a float's last digit (its repr)
        ([(1, None)], [(1, "")]),  # null is not empty text
        ([(1, "1")], [(1, 1)]),  # text "1" is not the integer 1
        ([(1, "ab", "c")], [(1, "a", "bc")]),  # where one value ends and the next begins
        ([(1, "a")], [(1, "a"), (1, "a")]),  # a row twice
    ],
)
def test_a_checksum_tells_rows_apart(left: list[tuple], right: list[tuple]) -> None:
    assert checksum(left) != checksum(right)


def test_a_boolean_counts_as_its_integer() -> None:
    """PostgreSQL's boolean and SQLite's 0/1 are the same value."""
    assert checksum([(True, False)]) == checksum([(1, 0)])


def _faq_rows(store: FaqCache) -> None:
    with store.connection as conn:
        conn.execute(
            "INSERT INTO faq_item (id, answer, sources, sensitivity) VALUES (?, ?, ?, ?)",
            (7, "答", '[{"doc": "d", "locator": "p1"}]', "PUBLIC"),
        )
        conn.execute(
            "INSERT INTO faq_variant (item_id, question, normalised, slots) VALUES (?, ?, ?, ?)",
            (7, "问？", "问", "m|e|p|c"),
        )


def test_tables_are_copied_with_their_ids_and_verified(tmp_path: Path, locate: Locate) -> None:
    with FaqCache(locate("source.db")) as src, FaqCache(str(tmp_path) + "/target.db") as dst:
        src.init_schema(), dst.init_schema()
        _faq_rows(src)
        copied = copy_tables(src.connection, dst.connection, FaqCache.TABLES)
        assert {t: n for t, (n, _sum) in copied.items()} == {"faq_item": 1, "faq_variant": 1}
        assert all(c.ok for c in verify("faq", src.connection, dst.connection, FaqCache.TABLES))
        row = dst.connection.execute("SELECT id, answer FROM faq_item").fetchone()
        assert tuple(row) == (7, "答")


def test_a_target_holding_rows_is_refused_unless_replaced(new_place: NewPlace) -> None:
    with FaqCache(new_place()("a.db")) as src, FaqCache(new_place()("b.db")) as dst:
        src.init_schema(), dst.init_schema()
        _faq_rows(src)
        _faq_rows(dst)
        dst.connection.execute("UPDATE faq_item SET answer = 'old'")
        with pytest.raises(CopyError, match=r"not empty: faq_item \(1 rows\)"):
            copy_tables(src.connection, dst.connection, FaqCache.TABLES)
        copy_tables(src.connection, dst.connection, FaqCache.TABLES, replace=True)
        assert dst.connection.execute("SELECT answer FROM faq_item").fetchone()[0] == "答"


def test_a_row_that_differs_after_the_copy_is_found(new_place: NewPlace) -> None:
    with FaqCache(new_place()("a.db")) as src, FaqCache(new_place()("b.db")) as dst:
        src.init_schema(), dst.init_schema()
        _faq_rows(src)
        copy_tables(src.connection, dst.connection, FaqCache.TABLES)
        dst.connection.execute("UPDATE faq_variant SET slots = 'm|e|p|x'")
        checks = {
            c.table: c for c in verify("faq", src.connection, dst.connection, FaqCache.TABLES)
        }
        assert checks["faq_item"].ok and not checks["faq_variant"].ok
        assert checks["faq_variant"].rows_from == checks["faq_variant"].rows_to == 1


def test_columns_that_differ_are_refused_before_a_row_is_written(new_place: NewPlace) -> None:
    with FaqCache(new_place()("a.db")) as src, FaqCache(new_place()("b.db")) as dst:
        src.init_schema(), dst.init_schema()
        _faq_rows(src)
        dst.connection.execute("ALTER TABLE faq_item ADD COLUMN extra TEXT")
        with pytest.raises(CopyError, match=r"faq_item: the two sides' columns differ \(extra\)"):
            copy_tables(src.connection, dst.connection, FaqCache.TABLES)
        assert dst.connection.execute("SELECT COUNT(*) FROM faq_item").fetchone()[0] == 0


def test_on_postgresql_the_next_id_follows_the_copied_ones(tmp_path: Path, pg_url: str) -> None:
    """A copied id never collides with the next row a replica inserts."""
    with FaqCache(f"{tmp_path}/a.db") as src, FaqCache(pg_url) as dst:
        src.init_schema(), dst.init_schema()
        _faq_rows(src)
        copy_tables(src.connection, dst.connection, FaqCache.TABLES)
        with dst.connection as conn:
            conn.execute("INSERT INTO faq_item (answer, sources) VALUES (?, ?)", ("新", "[]"))
        ids = [r[0] for r in dst.connection.execute("SELECT id FROM faq_item ORDER BY id")]
        assert ids == [7, 8]
