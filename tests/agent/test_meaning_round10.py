"""Issue 27, round 10's wrong answers, by class.

1. A ratio asked with its percentage word first (how much percent is A in B, what percent is A
   of B): the ratio A / B, as its postposed form is, never the two levels;
2. 同比 glued after a metric that is itself a growth rate (同店同比): that growth, not its change.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "metrics", "declined"),
    [
        # how much percent … in its revenue: net profit / revenue (the held NET_MARGIN)
        ("How much percent is Hong Kong net profit in its revenue for 2024?", ["NET_MARGIN"], None),
        # what percent … of: the same ratio, an owner with 's
        ("What percent is Hong Kong's net profit of its revenue in 2024?", ["NET_MARGIN"], None),
        # what percentage … of the group's revenue: a share of the group
        ("What percentage is Taiwan's 2024 revenue of the group's revenue?", ["REVENUE_SHARE"],
         None),
        # no formula of that shape: declined by the ratio's name, never the two levels
        ("What percent is Hong Kong's 2024 store count of its revenue?", [],
         "store count as a percentage of revenue"),
    ],
)  # fmt: skip
def test_a_ratio_asked_with_its_percentage_first_is_the_ratio(
    question: str, metrics: list[str], declined: str | None
) -> None:
    intent = parse_intent(question, REF)
    assert intent.metrics == metrics and intent.declined == declined, intent


@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        # a growth asked as a percentage, no second metric: the growth rate, as before
        ("How much percent did Hong Kong net profit grow in 2024?", ["NET_PROFIT_YOY"]),
        # what percent of the whole was the part: the part's ratio, as before
        ("What percentage of Hong Kong's 2024 revenue was net profit?", ["NET_MARGIN"]),
        # a percent word with no whole after the metric: the metric asked, not a ratio
        ("What is Hong Kong's 2024 net margin in percent?", ["NET_MARGIN"]),
    ],
)  # fmt: skip
def test_the_same_words_without_a_whole_read_as_before(question: str, metrics: list[str]) -> None:
    assert parse_intent(question, REF).metrics == metrics


@pytest.mark.parametrize(
    ("question", "metrics", "change"),
    [
        # 同店同比: the shorthand of same-store sales growth, its level
        ("东南亚2024年同店同比是多少?", ["SSSG"], False),
        # the growth's full name with 同比 glued: the same growth
        ("东南亚2024年同店销售增长同比是多少?", ["SSSG"], False),
        # a level metric's 同比: its growth rate, as before
        ("东南亚2024年收入同比是多少?", ["REVENUE_YOY"], False),
        # a verb after 同比: the growth's own movement, as before
        ("东南亚2024年同店销售增长同比增长多少?", ["SSSG"], True),
    ],
)  # fmt: skip
def test_yoy_glued_after_a_growth_restates_it(
    question: str, metrics: list[str], change: bool
) -> None:
    intent = parse_intent(question, REF)
    assert intent.metrics == metrics and intent.change is change, intent
