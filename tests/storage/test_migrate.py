from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragspine.errors import DatabaseError, MigrationError
from ragspine.storage.fact_store import MIGRATIONS_PACKAGE, FactStore
from ragspine.storage.migrate import load_migrations
from tests.pg_stores import Place
from tests.storage.old_stores import store_at, toy_store


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


def test_init_schema_is_idempotent_and_records_history(place: Place) -> None:
    with FactStore(place("f.db")) as store:
        first = store.init_schema()
        assert store.init_schema() == first
        rows = store.connection.execute(
            "SELECT number, name FROM schema_migrations ORDER BY number"
        ).fetchall()
    assert [r[0] for r in rows] == list(range(1, first + 1))


def test_a_database_at_v1_is_upgraded_in_place(
    tmp_path: Path, bare_place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Old stores keep their facts and gain the version-lineage columns."""
    with store_at(FactStore, 1, tmp_path, monkeypatch)(bare_place("old.db")) as old:
        assert old.init_schema() == 1
        with old.connection as conn:
            conn.execute(
                "INSERT INTO fact_metric (metric_code, entity, geography, channel, period_type,"
                " period, value, unit, source_doc_id, source_locator) VALUES ('REVENUE',"
                " 'ACME_CN','CN','TOTAL','FY','2024',1320,'USD_M','d.pptx','slide=2')"
            )
    store = FactStore(bare_place("old.db"), create=False)
    store.init_schema()
    (fact,) = store.iter_facts()
    assert fact.value == 1320 and fact.source_file_hash is None
    store.close()


def test_a_changed_migration_is_refused(
    tmp_path: Path, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    with toy_store({"0001_t.sql": "CREATE TABLE t (a TEXT);"}, tmp_path, monkeypatch)(
        place("toy.db")
    ) as first:
        first.init_schema()
    changed = toy_store({"0001_t.sql": "CREATE TABLE t (a TEXT, b TEXT);"}, tmp_path, monkeypatch)
    with changed(place("toy.db")) as store, pytest.raises(MigrationError, match="add-only"):
        store.init_schema()


def test_a_newer_database_is_refused(
    tmp_path: Path, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = "CREATE TABLE a (x INTEGER);", "CREATE TABLE b (x INTEGER);"
    newer = toy_store({"0001_a.sql": a, "0002_b.sql": b}, tmp_path, monkeypatch)
    with newer(place("toy.db")) as store:
        assert store.init_schema() == 2
    older = toy_store({"0001_a.sql": a}, tmp_path, monkeypatch)
    with older(place("toy.db")) as store, pytest.raises(MigrationError, match="upgrade ragspine"):
        store.init_schema()


def test_a_failing_migration_leaves_nothing_half_applied(
    tmp_path: Path, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = {"0001_bad.sql": "CREATE TABLE ok (x INTEGER); CREATE TABLE broken (;"}
    with toy_store(bad, tmp_path, monkeypatch)(place("toy.db")) as store:
        with pytest.raises(MigrationError, match="0001_bad"):
            store.init_schema()
        with pytest.raises(DatabaseError):
            store.connection.execute("SELECT x FROM ok")  # the first statement was undone too
    # nothing of it recorded: the migration fixed under its number applies whole
    fixed = {"0001_bad.sql": "CREATE TABLE ok (x INTEGER);"}
    with toy_store(fixed, tmp_path, monkeypatch)(place("toy.db")) as store:
        assert store.init_schema() == 1
        assert store.connection.execute("SELECT COUNT(*) FROM ok").fetchone()[0] == 0
