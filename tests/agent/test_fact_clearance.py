"""The structured channel within the caller's clearance: a fact above it is not_found, exactly
as if absent (its existence does not leak), in query_metric, derived metrics (the most
restrictive operand), several sub-tasks, assumed slots and composite answers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.agent import answer_question
from ragspine.agent.llm_provider import MockProvider
from ragspine.agent.query_tools import execute_query_metric
from ragspine.engine import Engine
from ragspine.storage.fact_store import Fact, FactStore
from tests.pg_stores import Place
from tests.storage.test_fact_sensitivity import _old_store

REF = date(2025, 6, 30)
REVIEW, BOARD = "ACME_Review.pptx", "ACME_Board_Pack.pptx"


def _facts(*, with_restricted: bool) -> list[Fact]:
    def fact(metric: str, ent: str, geo: str, value: float, doc: str, level: str) -> Fact:
        loc = f"slide=1,table=1,row={metric},col=FY2024"
        return Fact(metric, ent, geo, "TOTAL", "FY", "2024", value, "USD_M", doc, loc,
                    sensitivity=level)  # fmt: skip

    public = [
        fact("REVENUE", "ACME_CN", "CN", 1320, REVIEW, "PUBLIC"),
        fact("REVENUE", "ACME_HK", "HK", 455, REVIEW, "INTERNAL"),
    ]
    restricted = [
        fact("NET_PROFIT", "ACME_CN", "CN", 66.6, BOARD, "RESTRICTED"),
        fact("REVENUE", "ACME_SEA", "SEA", 395, BOARD, "RESTRICTED"),
    ]
    return public + (restricted if with_restricted else [])


@pytest.fixture
def stores(tmp_path: Path, places: Callable[[Path], Place]) -> Iterator[dict[bool, FactStore]]:
    """Two fact stores on the suite's backend, with and without the RESTRICTED facts."""
    out = {}
    for restricted in (True, False):
        store = FactStore(places(tmp_path / f"facts-{restricted}")("facts.db"))
        store.init_schema()
        store.insert_facts(_facts(with_restricted=restricted))
        out[restricted] = store
    yield out
    for store in out.values():
        store.close()


def _query(store: FactStore, metric: str, entity: str, clearance: str) -> dict[str, object]:
    return dict(  # type: ignore[return-value]
        execute_query_metric(
            store, metric, entity, "FY2024", reference_date=REF, clearance=clearance
        )
    )


@pytest.mark.parametrize(
    "metric, entity, clearance, found",
    [
        ("REVENUE", "ACME_CN", "PUBLIC", True),  # a PUBLIC figure: everyone
        ("REVENUE", "ACME_HK", "PUBLIC", False),  # INTERNAL figure, PUBLIC caller
        ("REVENUE", "ACME_HK", "INTERNAL", True),  # INTERNAL figure, staff
        ("NET_PROFIT", "ACME_CN", "INTERNAL", False),  # RESTRICTED figure, staff
        ("NET_PROFIT", "ACME_CN", "RESTRICTED", True),  # RESTRICTED figure, cleared caller
        ("NET_MARGIN", "ACME_CN", "INTERNAL", False),  # derived: one RESTRICTED operand
        ("NET_MARGIN", "ACME_CN", "RESTRICTED", True),  # derived, cleared caller
    ],
)
def test_a_fact_above_the_clearance_is_not_found(
    stores: dict[bool, FactStore], metric: str, entity: str, clearance: str, found: bool
) -> None:
    got = _query(stores[True], metric, entity, clearance)
    assert got["status"] == ("found" if found else "not_found")
    if not found:  # what was looked for, and which operand is missing: no value, no source
        assert set(got) <= {"status", "normalized", "missing"}
        assert BOARD not in repr(got) and REVIEW not in repr(got)


def test_a_hidden_derived_operand_is_named_as_missing_only(stores: dict[bool, FactStore]) -> None:
    hidden = _query(stores[True], "NET_MARGIN", "ACME_CN", "INTERNAL")
    absent = _query(stores[False], "NET_MARGIN", "ACME_CN", "INTERNAL")
    assert hidden == absent  # the same not_found, the same missing operand


def test_a_found_result_carries_its_level_a_derived_one_its_most_restrictive_operand(
    stores: dict[bool, FactStore],
) -> None:
    assert _query(stores[True], "REVENUE", "ACME_CN", "PUBLIC")["sensitivity"] == "PUBLIC"
    margin = _query(stores[True], "NET_MARGIN", "ACME_CN", "RESTRICTED")
    assert margin["sensitivity"] == "RESTRICTED"
    assert [o["sensitivity"] for o in margin["operands"]] == ["RESTRICTED", "PUBLIC"]  # type: ignore[index]


QUESTIONS = [
    "中国内地FY2024的净利润是多少",  # one RESTRICTED figure
    "中国内地FY2024的净利率是多少",  # derived, one RESTRICTED operand
    "中国内地和东南亚FY2024的收入分别是多少",  # several sub-tasks, one RESTRICTED
    "东南亚的收入是多少",  # the period assumed (the latest complete year), a RESTRICTED figure
    "为什么东南亚FY2024收入增长?",  # composite: the structured half is RESTRICTED
]


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("clearance", ["PUBLIC", "INTERNAL"])
def test_an_answer_below_restricted_is_the_answer_without_the_figure(
    stores: dict[bool, FactStore], question: str, clearance: str
) -> None:
    hidden = answer_question(question, stores[True], MockProvider(), reference_date=REF,
                             clearance=clearance)  # fmt: skip
    absent = answer_question(question, stores[False], MockProvider(), reference_date=REF,
                             clearance=clearance)  # fmt: skip
    assert hidden.answer == absent.answer
    assert hidden.sources == absent.sources
    assert BOARD not in hidden.answer and "66.6" not in hidden.answer and "395" not in hidden.answer


@pytest.mark.parametrize("question", QUESTIONS[:4])
def test_a_restricted_caller_gets_the_figure(stores: dict[bool, FactStore], question: str) -> None:
    got = answer_question(question, stores[True], MockProvider(), reference_date=REF,
                          clearance="RESTRICTED")  # fmt: skip
    assert any(s["doc"] == BOARD for s in got.sources), got.answer


def test_an_engine_gives_old_facts_their_file_level(
    tmp_path: Path, bare_place: Place, demo_corpus: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fact store from before sensitivity was recorded: its facts from the board minutes take
    that file's RESTRICTED level as soon as an engine opens it with the corpus."""
    db = bare_place("old.db")
    _old_store(db, ["ACME_Board_Minutes_2024Q4.md"], tmp_path, monkeypatch)
    with Engine.open(db, demo_corpus) as engine:
        (fact,) = engine.store.iter_facts()
        assert fact.sensitivity == "RESTRICTED"
