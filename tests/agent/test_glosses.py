"""A question read by what it says, not by the words around its ask: a word glossed in brackets
is read by its gloss (``glosses``); a conditional conjunction (如果, 假如) names no company and no
subject; any direction's percentage (下降的百分比) asks the growth rate."""

from __future__ import annotations

import pytest

from ragspine.agent.glosses import without_glossed
from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "metrics"),
    [
        # a jargon word glossed by a held derived metric
        ("acme", "台湾2023年的店效(即单店收入)是多少?", ["REVENUE_PER_STORE"]),
        # full-width brackets, 也就是
        ("acme", "中国内地2024年的坪效（也就是单店收入）是多少?", ["REVENUE_PER_STORE"]),
        # in English, i.e.
        ("acme", "What was Taiwan's store productivity (i.e. revenue per store) in 2023?",
         ["REVENUE_PER_STORE"]),
        # a conditional conjunction before the entity that selects what to report
        ("acme", "如果香港2024年底的门店数超过90家,请告诉我它的单店收入。", ["REVENUE_PER_STORE"]),
        # an either-or condition: both branches ask the growth rate
        ("jy", "如果金宇生物2021年的营业利润比上年下降了,请给出下降的百分比;"
               "如果是上升,请给出上升的百分比。", ["OPERATING_PROFIT_GROWTH"]),
        # a fall asked as a percentage
        ("jy", "金宇生物2021年净利润下降的百分比是多少?", ["NET_PROFIT_GROWTH"]),
    ],
)  # fmt: skip
def test_the_question_is_read_by_what_it_asks(
    which: str, question: str, metrics: list[str], jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == metrics and intent.declined is None, intent
    assert intent.unknown_subject is None, intent


@pytest.mark.parametrize(
    "text",
    [
        "集团2024年的毛利(扣除门店租金后)是多少?",  # a qualifier, no gloss: left as written
        "香港2024年的收入(百万美元)是多少?",  # a unit in brackets
        "同店销售增长(sssg)是多少?",  # an abbreviation in brackets
    ],
)
def test_a_bracket_that_is_no_gloss_is_left_as_written(text: str) -> None:
    assert without_glossed(text) == text
