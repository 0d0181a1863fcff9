from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from ragspine.errors import MigrationError
from ragspine.storage.fact_store import MIGRATIONS_PACKAGE, FactStore
from ragspine.storage.migrate import Migration, apply_migrations, load_migrations


def test_shipped_migrations_are_numbered_without_gaps() -> None:
    migrations = load_migrations(MIGRATIONS_PACKAGE)
    assert [m.number for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "create_fact_metric"


# The one write a migration may ship: its triggers bumping a counter it creates itself
# (storage.generations); a trigger's events name the writes it follows, not ones it makes.
_COUNTER_BUMP = re.compile(
    r"UPDATE (?:\w+\.)?(\w+_STATE) SET GENERATION = GENERATION \+ 1 WHERE ID = 1"
)
_EVENTS = re.compile(
    r"AFTER (?:INSERT|UPDATE|DELETE)(?: OR (?:INSERT|UPDATE|DELETE|TRUNCATE))*\s+ON"
)


@pytest.mark.parametrize(
    "package",
    [
        MIGRATIONS_PACKAGE,  # the fact store's, on SQLite
        MIGRATIONS_PACKAGE + ".postgresql",  # and their PostgreSQL twins
    ],
)
def test_migrations_are_add_only(package: str) -> None:
    """No shipped migration drops, renames or rewrites what an earlier one created."""
    for mig in load_migrations(package):
        sql = _EVENTS.sub("AFTER ON", mig.sql.upper())
        for counter in _COUNTER_BUMP.findall(sql):
            assert f"CREATE TABLE {counter} " in sql, f"{mig.number:04d} bumps {counter}"
        sql = _COUNTER_BUMP.sub("", sql)
        for forbidden in ("DROP ", "RENAME ", "DELETE ", "UPDATE "):
            assert forbidden not in sql, f"{mig.number:04d}_{mig.name} uses {forbidden.strip()}"


def test_init_schema_is_idempotent_and_records_history(tmp_path: Path) -> None:
    store = FactStore(tmp_path / "f.db")
    first = store.init_schema()
    assert store.init_schema() == first
    conn = sqlite3.connect(tmp_path / "f.db")
    rows = conn.execute("SELECT number, name FROM schema_migrations ORDER BY number").fetchall()
    assert [r[0] for r in rows] == list(range(1, first + 1))


def test_a_database_at_v1_is_upgraded_in_place(tmp_path: Path) -> None:
    """Old stores keep their facts and gain the version-lineage columns."""
    conn = sqlite3.connect(tmp_path / "old.db")
    v1 = load_migrations(MIGRATIONS_PACKAGE)[:1]
    apply_migrations(conn, v1)
    conn.execute(
        "INSERT INTO fact_metric (metric_code, entity, geography, channel, period_type, period,"
        " value, unit, source_doc_id, source_locator)"
        " VALUES ('REVENUE','ACME_CN','CN','TOTAL','FY','2024',1320,'USD_M','d.pptx','slide=2')"
    )
    conn.commit()
    conn.close()
    store = FactStore(tmp_path / "old.db", create=False)
    store.init_schema()
    (fact,) = store.iter_facts()
    assert fact.value == 1320 and fact.source_file_hash is None


def test_a_changed_migration_is_refused(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "f.db")
    apply_migrations(conn, [Migration(1, "t", "CREATE TABLE t (a TEXT);")])
    with pytest.raises(MigrationError, match="add-only"):
        apply_migrations(conn, [Migration(1, "t", "CREATE TABLE t (a TEXT, b TEXT);")])


def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "f.db")
    apply_migrations(
        conn, [Migration(1, "a", "CREATE TABLE a (x);"), Migration(2, "b", "CREATE TABLE b (x);")]
    )
    with pytest.raises(MigrationError, match="upgrade ragspine"):
        apply_migrations(conn, [Migration(1, "a", "CREATE TABLE a (x);")])


def test_a_failing_migration_leaves_nothing_half_applied(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "f.db")
    bad = Migration(1, "bad", "CREATE TABLE ok (x); CREATE TABLE broken (;")
    with pytest.raises(MigrationError, match="0001_bad"):
        apply_migrations(conn, [bad])
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "ok" not in tables
    assert conn.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] == 0
