"""A change asked (``change_cues``): the verbs, nouns and comparatives that ask how much a
quantity moved are read as a change between two periods, never as one level; the same words
about a level, another entity or a line item are not."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.profile import default_profile

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    "question",
    [
        "How much did Hong Kong's revenue go up in 2024?",  # a phrasal verb, one year named
        "How much did Hong Kong's revenue go down in 2024?",  # the other way
        "How much has Hong Kong's revenue fallen in 2024?",  # has + participle
        "What was the increase in Hong Kong's revenue in 2024?",  # a change named as a noun
        "What was the year-on-year increase in Hong Kong's revenue in 2024?",  # yoy noun
        "What was Hong Kong's decline in revenue in 2024?",  # an owner before the noun
        "How much higher was Hong Kong's revenue in 2024 than in 2023?",  # comparative, period
        "How much more revenue did Hong Kong make in 2024 than the year before?",  # prior word
        "香港2024年收入比2023年多多少?",  # 比 a year … 多多少
        "香港2024年收入比上年高了多少?",  # 比上年 … 高了多少
        "香港2024年收入较上年少了多少?",  # 较 … 少了多少
        "香港2024年收入涨了多少?",  # a one-character verb
        "香港2024年收入的增加额是多少?",  # the change named as an amount
        "香港2024年收入增量是多少?",  # 增量
        "香港2024年下半年收入比2023年下半年增长了多少?",  # two halves, 比…增长了多少
    ],
)
def test_a_change_asked_is_read_as_a_change_between_two_periods(question: str) -> None:
    intent = parse_intent(question, REF, profile=default_profile())
    assert intent.metrics == ["REVENUE"], intent
    assert intent.change and len(intent.periods) == 2, intent


@pytest.mark.parametrize(
    "question",
    [
        "What was Hong Kong's revenue in the second half of 2024?",  # a level in a half
        "What was Hong Kong's revenue in 2024?",  # a level
        "How much higher was Hong Kong's revenue than Taiwan's in 2024?",  # against an entity
        "香港2024年收入比台湾多多少?",  # 比 an entity: two levels compared, no change
        "Why did mainland China's revenue decline in 2024?",  # a verb with no amount asked
        "香港2024年的销售额是多少?",  # 销售额 alone stays revenue, a level
    ],
)
def test_a_level_or_a_comparison_of_entities_is_no_change(question: str) -> None:
    intent = parse_intent(question, REF, profile=default_profile())
    assert intent.metrics == ["REVENUE"], intent
    assert not intent.change, intent


@pytest.mark.parametrize(
    ("question", "entities"),
    [
        # 比<entity>高几个百分点: two entities' levels in one year, the group kept as the other side
        ("香港2024年的净利率比集团高几个百分点?", ["ACME_HK", "ACME_GROUP"]),
        # the same in English, the entity's alias holding "the"
        (
            "How many percentage points higher was Hong Kong's net margin than the group's"
            " in 2024?",
            ["ACME_HK", "ACME_GROUP"],
        ),
        # 比 a region, asked with 高了多少: no change between periods either
        ("香港2024年的净利率比台湾高了多少?", ["ACME_HK", "ACME_TW"]),
    ],
)
def test_a_comparison_with_another_entity_is_no_change_between_periods(
    question: str, entities: list[str]
) -> None:
    intent = parse_intent(question, REF, profile=default_profile())
    assert intent.metrics == ["NET_MARGIN"], intent
    assert not intent.change and len(intent.periods) == 1, intent
    assert sorted(intent.entities) == sorted(entities), intent


@pytest.mark.parametrize(
    "question",
    [
        "香港2024年的净利率比上年高几个百分点?",  # 比 a period: the change in points
        "香港2024年的净利率提高了几个百分点?",  # points with no comparison at all: a change
        # an entity named after 比 in another clause does not undo this clause's change
        "香港2024年的净利率提高了几个百分点,比台湾如何?",
    ],
)
def test_points_against_a_period_stay_a_change(question: str) -> None:
    intent = parse_intent(question, REF, profile=default_profile())
    assert intent.metrics == ["NET_MARGIN"], intent
    assert intent.change, intent
