"""The one wiring: Engine.open on real files, the way every entry point uses it."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from importlib import resources
from pathlib import Path

import pytest

from ragspine.engine import Engine
from ragspine.errors import DatabaseError, ProfileError, ProviderConfigError, StoreNotFoundError
from ragspine.llm import LiveOptions, MockProvider
from ragspine.profile import default_profile
from tests.fakes.providers import FailingProvider

REF = date(2025, 6, 30)
CN_SOURCE = {"doc": "ACME_FY2024_Review.pptx", "locator": "slide=2,table=1,row=REVENUE,col=FY2024"}


def test_a_structured_question_answers_with_its_source(demo_db: Path) -> None:
    with Engine.open(demo_db) as engine:
        result = engine.ask("中国内地FY2024的REVENUE是多少", reference_date=REF)
    assert result.answer.startswith("中国内地 FY2024 收入:1,320 百万美元")
    assert result.sources == [CN_SOURCE] and result.degraded is None


def test_a_document_question_is_answered_from_the_corpus(demo_db: Path, demo_corpus: Path) -> None:
    with Engine.open(demo_db, demo_corpus) as engine:
        result = engine.ask("个人信息出境有什么要求?", reference_date=REF)
    assert result.route == "narrative" and result.degraded is None
    assert result.sources and all(s["doc"] in result.answer for s in result.sources)


@pytest.mark.parametrize(
    "corpus",
    [
        None,  # not given
        "missing/chunks.db",  # given, but not built
    ],
)
def test_without_a_corpus_document_questions_say_so(
    demo_db: Path, tmp_path: Path, corpus: str | None
) -> None:
    path = tmp_path / corpus if corpus else None
    with Engine.open(demo_db, path) as engine:
        assert engine.retriever is None
        result = engine.ask("个人信息出境有什么要求?", reference_date=REF)
    assert result.degraded == "narrative_unavailable" and result.sources == []


def test_clearance_reaches_the_retriever(demo_db: Path, demo_corpus: Path) -> None:
    question = "What did the board decide about Project Evergreen?"
    with Engine.open(demo_db, demo_corpus) as engine:
        internal = engine.ask(question, reference_date=REF, clearance="INTERNAL")
        restricted = engine.ask(question, reference_date=REF, clearance="RESTRICTED")
    board = "ACME_Board_Minutes_2024Q4.md"
    assert board not in {s["doc"] for s in internal.sources}
    assert board in {s["doc"] for s in restricted.sources}


def test_a_missing_fact_store_says_how_to_build_it(tmp_path: Path) -> None:
    with pytest.raises(StoreNotFoundError, match="not found"):
        Engine.open(tmp_path / "nope.db")


def test_a_bad_provider_spec_fails_before_any_store_is_opened(tmp_path: Path) -> None:
    with pytest.raises(ProviderConfigError, match="unknown provider"):
        Engine.open(tmp_path / "nope.db", provider="openai")


@pytest.mark.parametrize(
    ("provider", "model"),
    [
        ("mock", "mock"),  # a spec, resolved by the registry
        ("python:tests.fakes.providers:SlowMockProvider", "mock-slow"),  # a python: spec
        (FailingProvider(), None),  # an object, used as it is; it names no model
    ],
)
def test_the_provider_is_a_spec_or_an_object(demo_db: Path, provider: object, model: str) -> None:
    with Engine.open(demo_db, provider=provider) as engine:  # type: ignore[arg-type]
        assert engine.model == model


def test_a_provider_outage_is_reported_as_degraded(demo_db: Path) -> None:
    with Engine.open(demo_db, provider=FailingProvider()) as engine:
        result = engine.ask("香港FY2024营收", reference_date=REF)
    assert result.degraded == "provider_unavailable" and result.sources == []


def test_a_profile_file_is_loaded_and_validated(demo_db: Path, tmp_path: Path) -> None:
    src = resources.files("ragspine.profile").joinpath("acme.yaml")
    copy = tmp_path / "acme.yaml"
    with resources.as_file(src) as path:
        shutil.copy(path, copy)
    with Engine.open(demo_db, profile=copy) as engine:
        assert engine.profile.home_entity_code == default_profile().home_entity_code
    copy.write_text("not_a_field: 1\n", "utf-8")
    with pytest.raises(ProfileError, match=str(copy)):
        Engine.open(demo_db, profile=copy)


def test_one_engine_serves_many_threads_with_the_answers_of_one(
    demo_db: Path, demo_corpus: Path
) -> None:
    questions = [
        "中国内地FY2024的REVENUE是多少",
        "香港2023和2024年的营收分别是多少?",
        "中国内地FY2025的REVENUE是多少",
        "为什么中国内地FY2024收入下降?",
        "竞安中国FY2024的收入是多少?",
    ] * 8
    with Engine.open(demo_db, demo_corpus, provider=MockProvider()) as engine:
        serial = [engine.ask(q, reference_date=REF).answer for q in questions]
        with ThreadPoolExecutor(max_workers=4) as pool:
            threaded = list(pool.map(lambda q: engine.ask(q, reference_date=REF).answer, questions))
    assert threaded == serial


def test_with_provider_shares_the_stores_and_closing_it_closes_none_of_them(
    demo_db: Path, demo_corpus: Path
) -> None:
    document = "个人信息出境有什么要求?"
    with Engine.open(demo_db, demo_corpus, profile=default_profile()) as base:
        failing = base.with_provider(FailingProvider())
        # the parts are the base's own objects, not reopened copies; only the provider differs
        for part in ("store", "retriever", "profile", "intent_parser"):
            assert getattr(failing, part) is getattr(base, part), part
        assert failing.provider is not base.provider
        assert failing.ask("香港FY2024营收", reference_date=REF).degraded == "provider_unavailable"
        assert base.ask("香港FY2024营收", reference_date=REF).degraded is None  # base unchanged
        with base.with_provider("python:tests.fakes.providers:SlowMockProvider") as slow:
            assert slow.model == "mock-slow"  # a spec is resolved as Engine.open resolves it
        failing.close()
        # both derived engines are closed: the shared fact store and corpus still answer
        assert base.ask("中国内地FY2024的REVENUE是多少", reference_date=REF).answer.startswith(
            "中国内地 FY2024 收入:1,320 百万美元"
        )
        answered = base.ask(document, reference_date=REF)
        assert answered.degraded is None and answered.sources
    # closing the base closes them, for the derived engines too
    for store in (base.store, base.retriever.store):  # type: ignore[union-attr]
        with pytest.raises(DatabaseError, match="closed"):
            store._conn.execute("SELECT 1")


def test_with_provider_passes_live_options_to_the_spec(demo_db: Path) -> None:
    with Engine.open(demo_db) as base:
        with pytest.raises(ProviderConfigError, match="--timeout: for a live model"):
            base.with_provider("mock", LiveOptions(timeout=5))
        assert base.ask("香港FY2024营收", reference_date=REF).degraded is None  # still open
