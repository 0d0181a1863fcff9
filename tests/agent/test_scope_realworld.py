"""The issue's count on 1,000 real questions (../shared/realworld), labelled by type, about other
listed companies: with ACME facts for every metric and entity in FY2019-FY2021 in the store, how
many get an ACME number? Printed by `make test`; 0 for every type: a question that names another
company, asks for a ranking (1, 1-2, 2-1, 2-2, 3-1) or asks what a term means (3-2).

The rules in ``agent/scope.py`` were written while reading these questions: the count is
optimistic, and a held-out set would be the honest check.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from ragspine.demo.facts import demo_facts
from ragspine.engine import Engine
from ragspine.profile import default_profile
from ragspine.storage.fact_store import Fact, FactStore
from tests.pg_stores import Place

QUESTIONS = Path(__file__).parents[3] / "shared" / "realworld" / "questions_labelled_1000.jsonl"


@pytest.fixture(scope="module")
def acme_2019_2021(
    tmp_path_factory: pytest.TempPathFactory, places: Callable[[Path], Place]
) -> Path | str:
    """The demo facts plus a fact for every ACME metric and entity in FY2019-FY2021, on the
    suite's backend."""
    prof = default_profile()
    facts = list(demo_facts(prof))
    keys = {f.key for f in facts}
    for metric in prof.metrics:
        for entity in prof.entities:
            for year in ("2019", "2020", "2021"):
                locator = f"sheet=x,row={metric.code},col={year}"
                fact = Fact(
                    metric.code, entity.code, entity.geography, prof.default_channel, "FY", year,
                    100.0, metric.unit, "ACME_History.xlsx", locator,
                )  # fmt: skip
                if fact.key not in keys:
                    facts.append(fact)
                    keys.add(fact.key)
    path = places(tmp_path_factory.mktemp("history"))("facts.db")
    with FactStore(path) as store:
        store.init_schema()
        store.insert_facts(facts)
    return path


@pytest.mark.skipif(not QUESTIONS.is_file(), reason="needs ../shared/realworld beside the repo")
def test_no_real_question_about_another_company_gets_an_acme_number(
    acme_2019_2021: Path | str, demo_corpus: Path, printed: Callable[[str], None]
) -> None:
    rows = [json.loads(line) for line in QUESTIONS.read_text("utf-8").splitlines()]
    answered: Counter[str] = Counter()
    with Engine.open(acme_2019_2021, demo_corpus) as engine:
        for row in rows:
            result = engine.ask(row["question"], reference_date=date(2022, 6, 30))
            if any(r["status"] == "found" for r in result.tool_results):
                answered[row["type"]] += 1
    printed(f"real questions answered with an ACME number: {dict(answered)} of {len(rows)}")
    assert len(rows) == 1000
    assert sum(answered.values()) == 0
