"""A period the question writes is never read as a subject (subjects.find_subjects): CY2024,
YE23, 民國113年 name a year, so their letters are no entity, initialism or company; a name
beside a period is still a name."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.profile import default_profile

_REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "period"),
    [
        # a calendar year written CY: the fiscal year, never an entity called CY
        ("What was Hong Kong's operating profit in CY2024?", "2024"),
        # the same with a space and a two-digit year
        ("What was Hong Kong's revenue in CY 23?", "2023"),
        # a year end written YE: the fiscal year ending there
        ("What was Taiwan's revenue for YE23?", "2023"),
    ],
)  # fmt: skip
def test_a_period_token_is_no_subject(question: str, period: str) -> None:
    intent = parse_intent(question, _REF, profile=default_profile())
    assert intent.unknown_subject is None, intent.subjects
    assert intent.period is not None and intent.period.period == period
    assert intent.metric is not None


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # a name glued before a period is still a name: only the period's own letters are
        ("What was Kweichow Moutai's revenue in CY2024?", "Kweichow Moutai"),
        # a capitalised name beside the period, not inside it
        ("What was the revenue of Project Falcon in CY2024?", "Falcon"),
    ],
)  # fmt: skip
def test_a_name_beside_a_period_is_still_declined(question: str, name: str) -> None:
    intent = parse_intent(question, _REF, profile=default_profile())
    assert intent.unknown_subject is not None and name in intent.unknown_subject
