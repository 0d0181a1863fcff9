"""What is left at a date (还剩, 剩下, 仍有) asks the level then: the verb is the question's frame,
never a name qualifying the count; a real qualifier written beside it is still declined."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent


@pytest.mark.parametrize(
    ("question", "metric", "unknown"),
    [
        ("中国内地2024年底还剩多少家店?", "STORE_COUNT", None),  # 底 of 年底, 还剩: the frame
        ("中国内地2024年关掉一批店之后,年底还剩多少家?", "STORE_COUNT", None),  # 家 alone
        ("香港2024年末剩下多少家门店?", "STORE_COUNT", None),
        ("香港2024年末加盟店还剩多少家门店?", "STORE_COUNT", "加盟店"),  # a kind still named
    ],
)  # fmt: skip
def test_what_is_left_asks_the_level(question: str, metric: str, unknown: str | None) -> None:
    intent = parse_intent(question, date(2025, 6, 30))
    assert (intent.metric, intent.unknown_subject) == (metric, unknown)
