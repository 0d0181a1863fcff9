"""Every fact carries its source file's sensitivity; facts stored before it was recorded take
their file's level where the chunk store knows it, else read as INTERNAL."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.storage.fact_store import Fact, FactStore
from tests.pg import Locate
from tests.pg_stores import Place
from tests.storage.old_stores import store_at

ROW = ("REVENUE", "ACME_CN", "CN", "TOTAL", "FY", "2024", 1320, "USD_M")


def _fact(doc: str = "deck.pptx", **kw: object) -> Fact:
    return Fact(*ROW, doc, "slide=2,table=1,row=REVENUE,col=FY2024", **kw)  # type: ignore[arg-type]


def test_a_fact_is_internal_unless_told() -> None:
    assert _fact().sensitivity == "INTERNAL"
    assert _fact(sensitivity="RESTRICTED").sensitivity == "RESTRICTED"


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown sensitivity 'SECRET'"):
        _fact(sensitivity="SECRET")


def test_the_level_roundtrips_and_moves_to_history(locate: Locate) -> None:
    with FactStore(locate("f.db")) as store:
        store.init_schema()
        store.replace_source("deck.pptx", [_fact(sensitivity="RESTRICTED")])
        (got,) = store.iter_facts()
        assert got.sensitivity == "RESTRICTED"
        store.replace_source("deck.pptx", [_fact(sensitivity="PUBLIC")])
        (old, _), *_ = store.history("deck.pptx")
        assert old.sensitivity == "RESTRICTED"
        assert next(store.iter_facts()).sensitivity == "PUBLIC"


def _old_store(
    where: Path | str, docs: list[str], folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fact store as the version before sensitivity (migrations 1-5) left it."""
    with store_at(FactStore, 5, folder, monkeypatch)(where) as old:
        old.init_schema()
        with old.connection as conn:
            for i, doc in enumerate(docs):
                conn.execute(
                    "INSERT INTO fact_metric (metric_code, entity, geography, channel,"
                    " period_type, period, value, unit, source_doc_id, source_locator)"
                    " VALUES ('REVENUE', 'ACME_CN', 'CN', 'TOTAL', 'FY', ?, 1, 'USD_M', ?,"
                    " 'row=1')",
                    (str(2020 + i), doc),
                )


def test_facts_from_before_the_migration_read_as_internal(
    tmp_path: Path, bare_place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    _old_store(bare_place("f.db"), ["minutes.pptx"], tmp_path, monkeypatch)
    with FactStore(bare_place("f.db")) as store:
        store.init_schema()
        assert [f.sensitivity for f in store.iter_facts()] == ["INTERNAL"]


def test_they_take_their_file_level_where_it_is_known(
    tmp_path: Path, bare_place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    _old_store(
        bare_place("f.db"), ["minutes.pptx", "review.pptx", "unknown.xlsx"], tmp_path, monkeypatch
    )
    with FactStore(bare_place("f.db")) as store:
        store.init_schema()
        levels = {"minutes.pptx": "RESTRICTED", "review.pptx": "PUBLIC"}
        assert store.adopt_levels(levels) == 2
        got = {f.source_doc_id: f.sensitivity for f in store.iter_facts()}
        assert got == {
            "minutes.pptx": "RESTRICTED",
            "review.pptx": "PUBLIC",
            "unknown.xlsx": "INTERNAL",  # no file level known: INTERNAL
        }
        # Adopted once: a level stated since (a new ingest) is never overwritten.
        assert store.adopt_levels({"minutes.pptx": "PUBLIC"}) == 0
