"""Issue 27, class 1: a difference named in words (the difference between A and B, A与B之差,
A和B的差额) is one quantity, the formula A − B, read as a formula written with a sign is: the
profile's metric where a formula or a standard identity is that difference (revenue less cost of
sales is gross profit), else declined by the question's words; never the two levels side by
side as though they answered it."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.engine import Engine

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "metrics", "declined"),
    [
        # a standard identity: the held gross profit, whose it is kept
        ("What was the difference between Hong Kong's revenue and cost of sales in 2024?",
         ["GROSS_PROFIT"], None),
        ("香港2024年收入与销售成本之差是多少?", ["GROSS_PROFIT"], None),  # 之差
        ("香港2024年收入和销售成本的差额是多少?", ["GROSS_PROFIT"], None),  # 的差额
        # a difference no formula holds: declined by its words, never two levels
        ("What was the difference between ACME's revenue and gross profit in 2024?", [],
         "difference between revenue and gross profit"),
        ("2024年ACME收入和毛利之间的差额是多少?", [], "收入和毛利之间的差额"),
        # two levels asked as a list: both, as before
        ("香港2024年收入和毛利分别是多少?", ["REVENUE", "GROSS_PROFIT"], None),
        # two entities' difference of one metric: one metric, both entities
        ("香港和台湾2024年收入的差额是多少?", ["REVENUE"], None),
    ],
)  # fmt: skip
def test_a_difference_named_in_words_is_one_quantity(
    question: str, metrics: list[str], declined: str | None
) -> None:
    intent = parse_intent(question, REF)
    assert intent.metrics == metrics, intent
    assert intent.declined == declined, intent


def test_a_difference_that_is_a_held_metric_is_answered_sourced(demo: Engine) -> None:
    question = "What was the difference between Hong Kong's revenue and cost of sales in 2024?"
    result = demo.ask(question, reference_date=REF, clearance="INTERNAL")
    assert "182.5" in result.answer and "455" not in result.answer, result.answer
