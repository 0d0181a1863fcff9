"""A count restricted by a predicate counts a subset (restricted_counts.py): 门店亏损, stores that
made a loss, stores open 24 hours are declined by the restricted noun phrase, never answered with
the whole count; a place, a period, a verb of having or operating and the stores existing are the
count's own frame, answered with the held count. "how many ACME stores are there in Taiwan" is
the count for Taiwan (a name inside the count's words), and "store employees" a kind of employee,
named whole."""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("ACME 2024年有多少家门店亏损?", "亏损门店"),  # a one-word predicate after the noun
        ("ACME 2024年有多少家门店实现盈利?", "实现盈利的门店"),  # a longer one takes 的
        ("2024年ACME有几家门店是24小时营业的?", "24小时营业的门店"),  # 是…的
        ("ACME 2024年有多少家門店虧損?", "虧損門店"),  # traditional: named as written
        ("ACME有多少家门店有停车场?", "门店有停车场"),  # 有 + object: the feature last
        ("ACME有多少家门店在商场里?", "在商场里的门店"),  # 在 + a place the profile does not read
        ("ACME有多少家门店获得了LEED认证?", "门店获得了LEED认证"),  # having: its object last
        ("ACME有多少家门店翻新过?", "翻新门店"),  # an aspect particle dropped from the name
        ("香港的门店中有多少家亏损?", "亏损门店"),  # the noun before 有多少家
        ("门店中亏损的有几家?", "亏损门店"),  # the predicate between the noun and 有几家
        ("How many stores that made a loss did ACME have in 2024?", "stores that made a loss"),
        ("How many ACME stores made a loss in 2024?", "stores that made a loss"),  # a verb
        ("How many stores were loss-making in Hong Kong in 2024?", "loss-making stores"),  # be X
        ("How many ACME stores are open 24 hours?", "stores open 24 hours"),  # open with a span
        ("How many stores that are open 24 hours does ACME have?", "stores that are open 24 hours"),
        ("How many stores with a pharmacy does ACME have?", "stores with a pharmacy"),  # with X
        ("How many stores in malls does ACME have?", "stores in malls"),  # in + no place held
        ("How many store employees does ACME have?", "store employees"),  # a kind of employee
    ],
)  # fmt: skip
def test_a_predicate_restricting_the_count_is_declined_by_the_restricted_noun(
    question: str, named: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == [] and intent.declined == named, intent


@pytest.mark.parametrize(
    ("question", "entity"),
    [
        ("ACME有多少家门店在香港?", "ACME_HK"),  # a place after the noun: the entity
        ("香港的门店有多少家?", "ACME_HK"),  # a place before it
        ("2024年末ACME的门店有多少家?", "ACME_GROUP"),  # a period before it
        ("ACME目前一共有多少家门店在营业?", "ACME_GROUP"),  # the stores operating: all of them
        ("ACME有多少家门店分布在中国内地?", "ACME_CN"),  # a verb of location and a read place
        ("ACME 2024年末有多少家门店呢?", "ACME_GROUP"),  # a particle
        ("ACME经营多少家门店?", "ACME_GROUP"),  # a verb of operating before the count
        ("ACME的门店数量是多少?", "ACME_GROUP"),  # the metric's name, then 是多少
        ("东南亚2024年的门店规模有多大?", "ACME_SEA"),  # a metric's name: 有多大 asks it
        ("How many ACME stores are there in Taiwan?", "ACME_TW"),  # are there: the stores exist
        ("How many ACME stores were there in Taiwan in 2024?", "ACME_TW"),  # a name inside
        ("How many Taiwan stores does ACME have?", "ACME_TW"),  # a place inside the count
        ("How many stores in Taiwan did ACME have in 2024?", "ACME_TW"),  # in + a read place
        ("How many stores are still open in Hong Kong?", "ACME_HK"),  # open alone: operating
        ("How many stores are located in Hong Kong?", "ACME_HK"),  # a verb of location
        ("How many stores does ACME operate in Hong Kong?", "ACME_HK"),  # the company's verb
        ("How many stores that ACME operates are in Hong Kong?", "ACME_HK"),  # the company's clause
        ("How many stores does ACME have in total?", "ACME_GROUP"),  # a word of total
    ],
)  # fmt: skip
def test_a_place_a_period_or_the_stores_operating_is_the_count(
    question: str, entity: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == ["STORE_COUNT"] and intent.declined is None, intent
    assert entity in intent.entities, intent


def test_a_comparison_after_the_count_is_no_predicate(jy: DomainProfile) -> None:
    question = "How many stores were there at the end of 2024 compared with 2023?"
    intent = parse_for("acme", question, jy)  # compared with: the count's other period
    assert intent.metrics == ["STORE_COUNT"] and intent.declined is None, intent


def test_a_condition_on_a_metric_name_is_no_predicate(jy: DomainProfile) -> None:
    question = "如果東南亞2024年底的門店數超過170家,請告訴我它的單店收入是多少。"
    intent = parse_for("acme", question, jy)  # 門店數超過170家: a condition, not a subset
    assert intent.metrics == ["REVENUE_PER_STORE"] and intent.declined is None, intent
