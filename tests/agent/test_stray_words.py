"""A content word glued to a matched metric or entity that nothing explains (``stray_words``):
the phrase is another quantity or another subject, declined by the question's words, never the
metric's or the entity's figure; a harmless word beside it changes nothing."""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # a rent paid on turnover, not the revenue
        ("acme", "How much turnover rent did ACME pay on its Hong Kong stores in 2024?",
         "turnover rent"),
        # one channel's sales, not all the company's revenue
        ("jy", "How much revenue did Jinyu's direct sales to large farms generate in 2020?",
         "direct sales"),
        # a region's alias written as a common noun, inside another name
        ("acme", "How much did ACME spend on sea freight in 2024?", "sea freight"),
        # a head with its "of" complement is one name
        ("jy", "What was Jinyu's degree of operating leverage in 2021?",
         "degree of operating leverage"),
    ],
)  # fmt: skip
def test_a_word_glued_to_the_metric_declines_the_whole_phrase(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [] and intent.declined == declined, intent


@pytest.mark.parametrize(
    ("which", "question", "subject"),
    [
        # a capitalised word before a place names another region
        ("acme", "What was ACME's revenue in Greater China in 2024?", "Greater China"),
        # who is: a person asked, GM is a title there, not the gross margin
        ("acme", "Who is the GM of ACME's Hong Kong business?", "GM"),
    ],
)  # fmt: skip
def test_a_person_or_a_glued_name_is_an_unknown_subject(
    which: str, question: str, subject: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.unknown_subject == subject, intent


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        # function words and verbs beside the metric
        ("acme", "How much revenue did Hong Kong generate in 2024?", "REVENUE"),
        ("acme", "What was the total revenue figure for Hong Kong in 2024?", "REVENUE"),
        # an inflected verb after the metric: a clause, not a name
        ("acme", "Why did group operating profit fall in FY2024 when group revenue edged up?",
         "OPERATING_PROFIT"),
        # a comparison verb after the metric
        ("jy", "By how much did Jinyu's current assets exceed its current liabilities at the end"
         " of 2021?", "CURRENT_ASSETS"),
        # a region's alias in capitals, at the sentence's start, or after a function word
        ("acme", "What was revenue in Southeast Asia in 2024?", "REVENUE"),
        ("acme", "Hong Kong revenue in 2024?", "REVENUE"),
        # a rank asked of the metric
        ("acme", "Which region had the highest revenue in 2024?", "REVENUE"),
        # the tail of an entity code is no word of the metric's name
        ("acme", "What was ACME_KR revenue in FY2024?", "REVENUE"),
    ],
)  # fmt: skip
def test_a_harmless_word_beside_the_metric_keeps_it(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert metric in intent.metrics and intent.unknown_subject is None, intent
