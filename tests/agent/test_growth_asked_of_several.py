"""Issue 27 round 11, class 1: a growth asked of several metrics at once (grew faster than its
sales, revenue and gross profit growth, 收入和毛利增长了百分之多少) is each one's growth; a
direction asked yes or no (did revenue grow?) is the change that shows it. Never a level."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.engine import Engine
from ragspine.profile import default_profile

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        # two paces compared: each one's growth rate
        ("Did Hong Kong's gross profit grow faster than its sales in 2024?",
         ["GROSS_PROFIT_YOY", "REVENUE_YOY"]),
        ("2024年香港毛利是否比收入增长得快?", ["GROSS_PROFIT_YOY", "REVENUE_YOY"]),  # 比…增长得快
        ("2024年香港毛利的增长是否快于收入?", ["GROSS_PROFIT_YOY", "REVENUE_YOY"]),  # 快于
        # a growth written after the last of coordinated metrics, apart from their names
        ("2024年香港收入和毛利的同比增长率是多少?", ["REVENUE_YOY", "GROSS_PROFIT_YOY"]),  # 的
        ("What were Hong Kong revenue and gross profit yoy growth in 2024?",
         ["REVENUE_YOY", "GROSS_PROFIT_YOY"]),  # a modifier of its own, after both
        # a growth metric by its own alias after a level: the level, then that growth
        ("What were Hong Kong revenue and gross profit growth in 2024?",
         ["REVENUE", "GROSS_PROFIT_YOY"]),
        # a percentage change asked after both: the first does not swallow the second
        ("2024年香港收入和毛利分别增长了百分之几?", ["REVENUE_YOY", "GROSS_PROFIT_YOY"]),
        # no growth shared: a metric named growth by itself, a ratio after a level
        ("Hong Kong revenue and same-store sales growth in 2024?", ["REVENUE", "SSSG"]),
        ("2024年香港收入和毛利率是多少?", ["REVENUE", "GROSS_MARGIN"]),
        ("東南亞2024年的收入和收入增長率分別是多少?", ["REVENUE", "REVENUE_YOY"]),  # its own
        ("What were Hong Kong's 2024 revenue and its growth rate?",
         ["REVENUE", "REVENUE_YOY"]),  # its: the same metric's growth after its level
    ],
)  # fmt: skip
def test_a_growth_asked_of_several_metrics_is_each_ones(question: str, metrics: list[str]) -> None:
    assert parse_intent(question, REF, profile=default_profile()).metrics == metrics


@pytest.mark.parametrize(
    "question",
    [
        "Did Hong Kong's revenue grow in 2024?",  # did … grow
        "Has Hong Kong's revenue increased in 2024?",  # has … increased
        "2024年香港收入有没有增长?",  # 有没有增长
        "2024年香港收入增长了吗?",  # 增长了吗
        "2024年香港收入是增长还是下降?",  # 是增长还是下降
    ],
)
def test_a_direction_asked_yes_or_no_is_the_change(question: str) -> None:
    intent = parse_intent(question, REF, profile=default_profile())
    assert intent.metrics == ["REVENUE"] and intent.change, intent


@pytest.mark.parametrize(
    "question",
    [
        "Why did Hong Kong's revenue fall in 2024?",  # why: the movement explained
        "What was Hong Kong's revenue in 2024?",  # a level
        "2024年同店销售增长了吗?",  # 同店销售增长 is a metric's name, not a cue
        "Did Hong Kong's net margin rise or fall in 2024, and to what level?",  # the level too
    ],
)
def test_no_direction_is_asked_where_none_is(question: str) -> None:
    assert not parse_intent(question, REF, profile=default_profile()).change


def test_the_demo_answers_which_grew_faster_with_both_growths(demo: Engine) -> None:
    result = demo.ask(
        "Did Hong Kong's gross profit grow faster than its sales in 2024?", reference_date=REF
    )
    # (182.5 − 160.7) / 160.7 = 13.57%, (455 − 410) / 410 = 10.98%; never the levels alone
    assert "13.57" in result.answer and "10.98" in result.answer, result.answer


def test_the_demo_answers_did_it_grow_with_the_move(demo: Engine) -> None:
    result = demo.ask("Did Hong Kong's revenue grow in 2024?", reference_date=REF)
    assert "410" in result.answer and "455" in result.answer and "+45" in result.answer
