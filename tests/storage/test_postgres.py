"""The PostgreSQL side of the storage seam on a real server: migrations twinned with SQLite's,
errors in the StoreError tree, one schema per store in one database."""

from __future__ import annotations

import sqlite3
from importlib import resources
from pathlib import Path

import psycopg
import pytest

from ragspine.errors import (
    ConstraintError,
    MigrationError,
    StoreNotFoundError,
    StoreUnavailableError,
)
from ragspine.faq.faq_cache import FaqCache
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.storage.fact_store import FactStore
from ragspine.storage.migrate import load_migrations
from ragspine.storage.postgres import pg_sql

STORES = [FactStore, ChunkStore, FaqCache]  # every store that has both dialects


@pytest.mark.parametrize("kind", STORES)
def test_each_sqlite_migration_has_a_postgresql_twin(kind: type[FactStore]) -> None:
    ours = [(m.number, m.name) for m in load_migrations(kind.MIGRATIONS)]
    twins = [(m.number, m.name) for m in load_migrations(kind.MIGRATIONS + ".postgresql")]
    assert ours == twins


def _sqlite_columns(path: Path) -> dict[str, list[str]]:
    conn = sqlite3.connect(path)
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    return {t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")] for t in tables}


def _pg_columns(url: str, schema: str) -> dict[str, list[str]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = %s ORDER BY table_name, ordinal_position",
            (schema,),
        ).fetchall()
    found: dict[str, list[str]] = {}
    for table, column in rows:
        found.setdefault(table, []).append(column)
    return found


@pytest.mark.parametrize("kind", STORES)
def test_both_dialects_end_with_the_same_tables_and_columns(
    kind: type[FactStore], tmp_path: Path, pg_url: str
) -> None:
    with kind(tmp_path / "s.db") as lite, kind(pg_url) as pg:
        assert lite.init_schema() == pg.init_schema()
    assert _sqlite_columns(tmp_path / "s.db") == _pg_columns(pg_url, kind.SCHEMA)


def test_the_sqlite_migrations_are_not_changed() -> None:
    """Their checksums are recorded in users' stores: a twin is added, an original never
    edited (the first line of each is still its own comment, not a twin's)."""
    for kind in STORES:
        for entry in resources.files(kind.MIGRATIONS).iterdir():
            if entry.name.endswith(".sql"):
                assert "twin" not in entry.read_text("utf-8").splitlines()[0]


def test_each_store_has_its_own_schema_in_one_database(pg_url: str) -> None:
    from ragspine.service.keys_pg import PgKeys

    for kind in [*STORES, PgKeys]:
        with kind(pg_url) as store:
            store.init_schema()
    with psycopg.connect(pg_url) as conn:
        history = conn.execute(
            "SELECT table_schema FROM information_schema.tables"
            " WHERE table_name = 'schema_migrations' ORDER BY 1"
        ).fetchall()
    assert [s for (s,) in history] == sorted(k.SCHEMA for k in [*STORES, PgKeys])


def test_a_database_never_migrated_is_not_found_unless_created(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA ragspine_facts CASCADE")
    with pytest.raises(StoreNotFoundError, match="fact database not found in postgresql://"):
        FactStore(pg_url, create=False)
    with FactStore(pg_url) as store:
        assert store.init_schema() == 9 and store.count() == 0


def test_a_changed_migration_is_refused_on_postgresql_too(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE ragspine_facts.schema_migrations SET checksum = 'x' WHERE number = 2")
    with FactStore(pg_url) as store, pytest.raises(MigrationError, match="0002_version_lineage"):
        store.init_schema()


def test_a_store_that_cannot_migrate_closes_its_pool(pg_url: str) -> None:
    """Left open, the pool would be collected later, maybe in one of its own threads, which
    cannot join themselves (``ConnectionPool.__del__ cannot join current thread``)."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE ragspine_facts.schema_migrations SET checksum = 'x' WHERE number = 2")
    store = FactStore(pg_url)  # opened as `Engine.open` opens it, then migrated
    with pytest.raises(MigrationError):
        store.init_schema()
    with pytest.raises(StoreUnavailableError, match="closed"):
        store.count()


def test_a_server_out_of_reach_is_one_error_without_the_password(pg_url: str) -> None:
    dead = "postgresql://ragspine:s3cret@127.0.0.1:1/nowhere"
    with pytest.raises(StoreUnavailableError) as err:
        FactStore(dead)
    assert "s3cret" not in str(err.value) and "postgresql://ragspine:***@127.0.0.1:1" in str(
        err.value
    )


def test_a_broken_constraint_is_the_seams_error_and_the_transaction_goes_on(pg_url: str) -> None:
    """A failed statement inside a transaction is undone alone, as on SQLite: what was written
    before it stays, and the transaction can still be read."""
    with ChunkStore(pg_url) as store:
        conn = store._conn
        with conn:
            conn.execute(
                "INSERT INTO document (doc_id, title, sensitivity, content_hash, source_path)"
                " VALUES ('a', 't', 'PUBLIC', 'h', 'p')"
            )
            with pytest.raises(ConstraintError):
                conn.execute(
                    "INSERT INTO document (doc_id, title, sensitivity, content_hash,"
                    " source_path) VALUES ('a', 't', 'PUBLIC', 'h', 'p')"
                )
            assert conn.execute("SELECT COUNT(*) FROM document").fetchone() == (1,)
        assert store.document_levels() == {"a": "PUBLIC"}


@pytest.mark.parametrize(
    ("sqlite", "postgres"),
    [
        ("SELECT ? , ?", "SELECT %s , %s"),  # placeholders
        ("SELECT 'a?b' WHERE x = ?", "SELECT 'a?b' WHERE x = %s"),  # a literal keeps its ?
        ("SELECT 5 % 2, '10%'", "SELECT 5 %% 2, '10%%'"),  # psycopg's own % doubled
    ],
)
def test_a_statement_is_written_once_for_both(sqlite: str, postgres: str) -> None:
    assert pg_sql(sqlite) == postgres
