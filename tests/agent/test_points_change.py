"""Issue 27, class 1: "by how many points did X slow / fall / widen" asks how a ratio or a rate
moved, in percentage points (both years' levels and their difference), never one level; "points"
alone (without "percentage") is such a unit where the question asks how many of them."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "metric", "change"),
    [
        # the growth rate's own change: its two years and their difference in points
        ("By how many points did ACME's revenue growth slow in 2024?", "REVENUE_YOY", True),
        # a margin's change, "points" without "percentage"
        ("By how many points did ACME's gross margin fall in 2024?", "GROSS_MARGIN", True),
        # a share's change, another verb of movement
        ("By how many points did Hong Kong's share of group revenue rise in 2024?",
         "REVENUE_SHARE", True),
        # the same asked in percentage points, a verb of width
        ("How many percentage points did ACME's gross margin widen in 2024?", "GROSS_MARGIN",
         True),
        # no points and no movement asked: the level
        ("What was ACME's gross margin in 2024?", "GROSS_MARGIN", False),
        # points against another entity: two levels of one period, not a change
        ("How many points is Hong Kong's gross margin above the group's in 2024?",
         "GROSS_MARGIN", False),
    ],
)  # fmt: skip
def test_a_change_asked_in_points(question: str, metric: str, change: bool) -> None:
    intent = parse_intent(question, REF)
    assert intent.declined is None and intent.metric == metric, intent
    assert intent.change is change, intent
