"""Routing and clarification with the real-company profile (examples/jinyu/profile.yaml): its
stock code, its partners, line items it has no facts for, its coverage, its single entity."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.intent import (
    CLARIFY_ANSWER_WITH_ASSUMPTIONS,
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ROUTE_NARRATIVE,
    ROUTE_STRUCTURED,
    clarify_scope,
    parse_intent,
)
from ragspine.agent.scope import out_of_scope
from ragspine.profile import load_profile

PROFILE = load_profile(Path(__file__).parents[2] / "examples" / "jinyu" / "profile.yaml")
REF = date(2026, 11, 23)


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("2019年四方科技毛利率是多少？请保留两位小数。", "四方科技"),  # before a derived metric
        ("根据2020年的年报数据，智谱AI的审计意见如何。", "智谱AI"),  # before a report topic
        ("603339在2019年的利润总额是多少元?", "603339"),  # another stock code
        ("600201在2020年实现的营业利润为多少元？", None),  # its own code; 实现 is no name
        ("金宇生物2020年的审计意见如何?", None),  # its own short name
        ("生物股份2021年研发费用和财务费用分别是多少元？", None),  # 生物 inside its name
    ],
)
def test_another_company_is_named_the_home_company_is_not(question: str, name: str | None) -> None:
    found = out_of_scope(question, PROFILE)
    assert (found.name if found else None) == name


def test_a_line_item_without_facts_goes_to_the_documents() -> None:
    intent = parse_intent("生物股份2021年递延所得税负债是多少?", REF, profile=PROFILE)
    # 所得税 inside 递延所得税负债 is not 所得税费用, and the report is where the figure is
    assert intent.metric is None and intent.route == ROUTE_NARRATIVE
    assert intent.unsupported_term == "递延所得税负债"


def test_a_partner_is_talked_about_from_documents_never_refused() -> None:
    question = "金宇生物与兰州兽医研究所2020年营业收入合作情况如何?"
    intent = parse_intent(question, REF, profile=PROFILE)
    assert intent.partner == "中国农业科学院兰州兽医研究所" and intent.route == ROUTE_NARRATIVE
    assert clarify_scope(intent, REF, profile=PROFILE).mode != CLARIFY_OUT_OF_SCOPE_ENTITY


def test_an_assumed_year_is_one_with_data_and_nothing_empty_is_offered() -> None:
    intent = parse_intent("营业收入是多少?", REF, profile=PROFILE)
    clar = clarify_scope(intent, REF, profile=PROFILE)
    assert intent.route == ROUTE_STRUCTURED and clar.mode == CLARIFY_ANSWER_WITH_ASSUMPTIONS
    # today's latest complete year is FY2025; the profile covers FY2019-FY2021
    assert clar.assumed_slots == {"entity": "JINYU", "period": "FY2021"}
    assert clar.narrowing_options == ["FY2020", "FY2019"]  # one entity: no other to offer
    assert "最近有数据的财年 FY2021" in clar.assumption_note
    assert "如需收窄:FY2020 / FY2019" in clar.assumption_note


def test_a_balance_from_one_report_offers_only_its_years() -> None:
    intent = parse_intent("生物股份的货币资金是多少?", REF, profile=PROFILE)
    clar = clarify_scope(intent, REF, profile=PROFILE)
    assert clar.assumed_slots["period"] == "FY2020" and clar.narrowing_options == ["FY2019"]


def test_with_one_entity_an_assumed_entity_offers_no_empty_narrowing() -> None:
    intent = parse_intent("2020年营业收入是多少?", REF, profile=PROFILE)
    clar = clarify_scope(intent, REF, profile=PROFILE)
    assert clar.assumed_slots == {"entity": "JINYU"} and clar.narrowing_options == []
    assert (
        "如需收窄" not in clar.assumption_note
        and "金宇生物技术股份有限公司" in clar.assumption_note
    )
