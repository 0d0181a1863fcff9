"""Issue 27, round 5, class 4: a held figure asked in the shorthand people write. A year in
Chinese numerals (二〇二四年) or counted back (大前年), a metric's initialism in capitals (OP,
NPAT), an entity's country or region code (TW), a regional synonym (每股盈利, working capital
ratio), a colloquial count of people (多少号人): each read as what the profile holds. And the
same letters where they are something else (OPEN, NP-200, two, a lower-case word) never are."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.agent.slots import ParsedIntent
from ragspine.engine import Engine

REF = date(2025, 6, 30)


def read(engine: Engine, question: str) -> ParsedIntent:
    return parse_intent(question, REF, profile=engine.profile)


def found(engine: Engine, question: str) -> list[tuple[str, str, str]]:
    result = engine.ask(question, reference_date=REF, clearance="INTERNAL")
    return [
        (r["metric_code"], r["entity"], r["period"])  # type: ignore[typeddict-item]
        for r in result.tool_results
        if r["status"] == "found"
    ]


@pytest.mark.parametrize(
    ("which", "question", "metric", "period"),
    [
        ("demo", "二〇二四年香港的净利率是多少?", "NET_MARGIN", "2024"),  # 〇 for zero
        ("jinyu", "二〇二一年金宇生物的营业成本率是多少?", "OPERATING_COST_RATIO", "2021"),  # never 「二一」
        ("jinyu", "金宇生物二零二零年的净利润是多少?", "NET_PROFIT", "2020"),  # 零 for zero
        ("demo", "東南亞大前年的淨利率是多少?", "NET_MARGIN", "2022"),  # three years back, not 前年
        ("demo", "香港前年的净利润是多少?", "NET_PROFIT", "2023"),  # two years back
    ],
)  # fmt: skip
def test_a_year_in_numerals_or_counted_back_is_that_year(
    request: pytest.FixtureRequest, which: str, question: str, metric: str, period: str
) -> None:
    intent = read(request.getfixturevalue(which), question)
    assert (intent.metrics, [p.period for p in intent.periods]) == ([metric], [period])
    assert intent.subjects == [] and intent.declined is None, intent


@pytest.mark.parametrize(
    "question",
    [
        "香港近三四年的收入趋势如何?",  # three or four years: no year
        "香港第一二三四家门店的收入是多少?",  # ordinals, no 年 after them
    ],
)  # fmt: skip
def test_numerals_that_are_no_year_name_none(demo: Engine, question: str) -> None:
    assert read(demo, question).periods == []
