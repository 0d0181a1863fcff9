"""Issue 27, class 3: a part of the home company the profile does not know (a store format, a
brand, a banner, a channel, a sub-line), written as the company's name and a name after it,
is declined by that name, never answered with the group's (or a market's) figure."""

from __future__ import annotations

import re
from datetime import date

import pytest

from ragspine.agent.agent import AgentResult
from ragspine.engine import Engine


def ask(engine: Engine, question: str) -> AgentResult:
    jy = engine.profile.home_entity_code != "ACME_GROUP"
    ref = date(2022, 6, 30) if jy else date(2025, 6, 30)
    return engine.ask(question, reference_date=ref, clearance="INTERNAL")


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "name"),
    [
        ("demo", "ACME Nova超市业态2024年的收入是多少?", "Nova"),  # a format, in Chinese
        ("demo", "What was revenue of the ACME Express format in Hong Kong in 2024?",
         "ACME Express"),  # a market named too: still not the market's figure
        ("demo", "ACME Fresh stores in Taiwan: revenue FY2024?", "ACME Fresh"),  # a banner's stores
        ("demo", "What was ACME Outlet's gross profit in 2024?", "ACME Outlet"),  # possessive
        ("demo", "ACME Go 2024年在东南亚的销售额是多少?", "ACME Go"),  # a sub-line, one word
        ("jinyu", "Jinyu PetCare 2020年的营业收入是多少?", "Jinyu PetCare"),  # a line of 金宇's
        ("demo", "ACME快捷便利店业态2024年的收入是多少?", "快捷便利店业态"),  # a format, no Latin
        ("demo", "ACME旗下的奥莱业态在香港2024年的收入是多少?", "奥莱业态"),  # beside a market
        ("demo", "集团社区店型2023年的毛利是多少?", "社区店型"),  # a store type
        ("jinyu", "金宇生物直播渠道2020年的营业收入是多少?", "直播渠道"),  # a channel not held
        # common words and a kind word: the unit whole, never the kind word alone (中心)
        ("demo", "ACME研发中心2024年的收入是多少?", "研发中心"),
    ],
)  # fmt: skip
def test_the_company_name_and_an_unknown_name_after_it_is_declined_by_that_name(
    request: pytest.FixtureRequest, which: str, question: str, name: str
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert result.tool_results == [] and result.sources == [], result.answer
    assert name in (result.clarification.declined or "") and name in result.answer
    assert re.search(r"\d", result.answer.replace(name, "")) is None, result.answer


@pytest.mark.parametrize(
    ("question", "metric", "entity"),
    [
        ("ACME Group revenue in 2024?", "REVENUE", "ACME_GROUP"),  # the group's own word
        ("ACME Hong Kong revenue in FY2024?", "REVENUE", "ACME_HK"),  # an entity the profile knows
        ("ACME FY2024 revenue?", "REVENUE", "ACME_GROUP"),  # a period, not a name
        ("What was ACME Holdings' revenue in 2024?", "REVENUE", "ACME_GROUP"),  # a legal ending
    ],
)  # fmt: skip
def test_the_company_name_before_a_word_it_knows_is_still_answered(
    demo: Engine, question: str, metric: str, entity: str
) -> None:
    result = ask(demo, question)
    found = [(r["metric_code"], r["entity"]) for r in result.tool_results]  # type: ignore[typeddict-item]
    assert (metric, entity) in found, result.answer


def test_the_company_name_shortened_is_the_company(jinyu: Engine) -> None:
    """Jinyu Bio is Jinyu Bio-Technology shortened, not a part of it."""
    result = ask(jinyu, "What was the debt-to-asset ratio of Jinyu Bio in 2020?")
    assert [r["metric_code"] for r in result.tool_results] == ["DEBT_TO_ASSETS"], result.answer  # type: ignore[typeddict-item]


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # 冠名的 modifies the subject: what 的 heads is named, not its modifier
        ("金宇生物冠名的馬拉松賽事2020年花費了多少?", "馬拉松賽事"),
        ("金宇生物冠名的马拉松赛事的花费是多少?", "马拉松赛事"),
        # negative: a metric after 的 heads nothing new; the part before it is named
        ("金宇生物猪瘟疫苗的毛利率2020年是多少?", "猪瘟疫苗"),
    ],
)
def test_a_part_named_through_de_is_the_noun_it_heads(
    jinyu: Engine, question: str, name: str
) -> None:
    result = ask(jinyu, question)
    assert result.tool_results == [] and result.clarification.declined == name, result.answer
