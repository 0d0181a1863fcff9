from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.errors import ConstraintError, DuplicateFactError, StoreError, StoreNotFoundError
from ragspine.storage.fact_store import Fact, FactStore
from tests.pg import Locate
from tests.pg_stores import Place, store_absent

SEED = Fact(
    "REVENUE", "ACME_CN", "CN", "TOTAL", "FY", "2024", 1320, "USD_M",
    "ACME_FY2024_Review.pptx", "slide=2,table=1,row=REVENUE,col=FY2024",
)  # fmt: skip


def _store(where: str) -> FactStore:
    store = FactStore(where)
    store.init_schema()
    return store


def test_fact_keeps_the_ten_positional_fields_then_optional_lineage() -> None:
    fact = Fact(*("M", "E", "G", "C", "FY", "2024", 1.0, "U", "doc", "loc"))
    assert fact.source == {"doc": "doc", "locator": "loc"}
    assert fact.source_file_hash is None and fact.mapping_version is None


def test_insert_then_lookup_roundtrips_on_disk(locate: Locate) -> None:
    with _store(locate("facts.db")) as store:
        assert store.insert_facts([SEED]) == 1
    reopened = FactStore(locate("facts.db"), create=False)
    got = reopened.lookup(
        metric_code="REVENUE", entity="ACME_CN", period_type="FY", period="2024", channel="TOTAL"
    )
    assert got == SEED
    assert (
        reopened.lookup(
            metric_code="REVENUE",
            entity="ACME_CN",
            period_type="FY",
            period="2025",
            channel="TOTAL",
        )
        is None
    )


def test_version_lineage_roundtrips(locate: Locate) -> None:
    fact = Fact(
        *[getattr(SEED, f) for f in list(SEED.__dataclass_fields__)[:10]],
        source_file_hash="sha256:ab", extractor_version="x1", mapping_version="m2",
    )  # fmt: skip
    with _store(locate("facts.db")) as store:
        store.insert_facts([fact])
        assert list(store.iter_facts()) == [fact]


@pytest.mark.parametrize(
    "field",
    [
        "source_doc_id",  # lineage is mandatory
        "source_locator",  # lineage is mandatory
        "metric_code",  # a controlled code is mandatory
    ],
)
def test_fact_without_lineage_or_code_is_refused(field: str) -> None:
    values = {f: getattr(SEED, f) for f in SEED.__dataclass_fields__}
    values[field] = ""
    with pytest.raises(ValueError):
        Fact(**values)


_INSERT = (
    "INSERT INTO fact_metric (metric_code, entity, geography, channel, period_type, period,"
    " value, unit, source_doc_id, source_locator, source_file_hash, extractor_version)"
    " VALUES ('R', 'E', 'G', 'TOTAL', 'FY', '2024', 1, 'U', ?, ?, ?, ?)"
)


@pytest.mark.parametrize(
    "lineage",
    [
        (None, "loc", "h", "x"),  # no source document
        ("doc", None, "h", "x"),  # no locator
        ("doc", "", "h", "x"),  # an empty locator
        ("doc", "loc", None, "x"),  # no file hash
        ("doc", "loc", "h", None),  # no extractor version
    ],
)
def test_the_database_itself_refuses_a_fact_without_lineage(
    locate: Locate, lineage: tuple[str | None, ...]
) -> None:
    """Whoever writes to the table, a fact without its lineage is refused by the schema."""
    with _store(locate("facts.db")) as store:
        with pytest.raises(ConstraintError):
            store.connection.execute(_INSERT, lineage)
        assert store.count() == 0


def test_duplicate_is_refused_and_nothing_is_lost(locate: Locate) -> None:
    store = _store(locate("facts.db"))
    store.insert_facts([SEED])
    other = Fact(*("NET_PROFIT", "ACME_CN", "CN", "TOTAL", "FY", "2024", 5.0, "USD_M", "d", "l"))
    changed = Fact(*("REVENUE", "ACME_CN", "CN", "TOTAL", "FY", "2024", 9.0, "USD_M", "d", "l"))
    with pytest.raises(DuplicateFactError, match="REVENUE/ACME_CN/TOTAL/FY/2024"):
        store.insert_facts([other, changed])
    # all or nothing: the new fact was not half-inserted, the old value not overwritten
    assert store.count() == 1
    assert list(store.iter_facts()) == [SEED]


def test_duplicate_within_one_batch(locate: Locate) -> None:
    with pytest.raises(DuplicateFactError, match="twice"):
        _store(locate("facts.db")).insert_facts([SEED, SEED])


def test_lookup_is_parameterised(locate: Locate) -> None:
    store = _store(locate("facts.db"))
    store.insert_facts([SEED])
    hostile = "x' OR '1'='1"
    assert (
        store.lookup(
            metric_code=hostile, entity=hostile, period_type="FY", period=hostile, channel=hostile
        )
        is None
    )
    assert store.count() == 1


def test_missing_database_names_the_path_and_the_fix(bare_place: Place) -> None:
    where = bare_place("absent.db")
    with pytest.raises(StoreNotFoundError, match="ragspine fixtures") as err:
        FactStore(where, create=False)
    assert str(where) in str(err.value)
    assert store_absent(FactStore, where)


# SQLite's own: a file that is not a database (a PostgreSQL URL names a server, not a file)
@pytest.mark.sqlite_only
def test_a_file_that_is_not_sqlite_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match=r"junk\.db"):
        FactStore(path, create=False).init_schema()
