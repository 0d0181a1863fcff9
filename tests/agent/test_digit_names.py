"""A name written with digits and a hyphen (7-Eleven, Circle-K) is declined whole, and so is a
breakdown a ranking asks across that the table lacks (which province: agent/ranked_parts.py)
(agent/subjects.py): never a piece of it (Eleven), and a period (FY2024, Q3) is still no name."""

from __future__ import annotations

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.profile import default_profile, load_profile
from tests.agent.conftest import JINYU


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # digits glued by a hyphen before the capitalised word: one name
        ("ACME集團2024年的門店數是7-Eleven香港門店數的幾倍?", "7-Eleven"),
        # a hyphen glued letter after the word: one name
        ("What was Circle-K revenue in 2024?", "Circle-K"),
    ],
)  # fmt: skip
def test_a_name_with_digits_or_hyphens_is_whole(question: str, name: str) -> None:
    assert parse_intent(question, profile=default_profile()).unknown_subject == name


@pytest.mark.parametrize(
    "question",
    [
        "What was Hong Kong revenue in FY2024?",  # a period glued to letters is no name
        "What was Hong Kong revenue in Q3 2024?",  # a quarter is no name
        "What was Hong Kong's H1 2024 revenue?",  # a half-year is no name
    ],
)  # fmt: skip
def test_a_period_with_digits_is_no_name(question: str) -> None:
    assert parse_intent(question, profile=default_profile()).unknown_subject is None


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # a ranking across provinces, which no profile entity is: the breakdown is named
        ("Which province generated the most sales for Jinyu in 2020, and how much?", "province"),
    ],
)  # fmt: skip
def test_a_ranking_across_unheld_parts_names_them(question: str, name: str) -> None:
    profile = load_profile(JINYU / "profile.yaml")
    assert parse_intent(question, profile=profile).unknown_subject == name


@pytest.mark.parametrize(
    "question",
    [
        "Which region had the highest operating margin in 2024?",  # the company's own parts
        "Which year had the highest revenue for Hong Kong?",  # the frame's own word: a period
        "Which of the regions had the lowest net margin in 2024?",  # of the …: still its parts
    ],
)  # fmt: skip
def test_a_ranking_across_held_parts_or_periods_names_nothing(question: str) -> None:
    assert parse_intent(question, profile=default_profile()).unknown_subject is None
