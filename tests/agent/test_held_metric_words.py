"""Issue 27 round 12, class 4: the words analysts use for a held metric (经营性利润, 同店營收成長率,
线上化率, locations, Hong Kong SAR, other income, PP&E, 经营现金净流入) find it, through the
profile's aliases, never a decline and never another metric."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.profile import DomainProfile, default_profile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("question", "metric", "entity"),
    [
        ("东南亚2024年的经营性利润是多少?", "OPERATING_PROFIT", "ACME_SEA"),  # 经营性
        ("香港2024年的同店營收成長率是多少?", "SSSG", "ACME_HK"),  # Taiwan's 营收成长率
        ("中国内地2024年的线上化率是多少?", "ONLINE_SHARE", "ACME_CN"),  # retail jargon
        ("How many locations did ACME run in Taiwan at end-2024?", "STORE_COUNT", "ACME_TW"),
        ("What was Hong Kong SAR's operating profit in FY2024?", "OPERATING_PROFIT", "ACME_HK"),
        # an entity's business with a held metric of it: the entity (本港: Hong Kong's own word)
        ("本港業務2024年的經營利潤是多少?", "OPERATING_PROFIT", "ACME_HK"),
        ("What was the Hong Kong SAR business's operating profit in FY2024?",
         "OPERATING_PROFIT", "ACME_HK"),
        ("集团2024年最后一个季度的毛利是多少?", "GROSS_PROFIT", "ACME_GROUP"),  # its Q4
        ("集团2024年的净收益是多少?", "NET_PROFIT", "ACME_GROUP"),  # 净收益: net earnings
        ("What were ACME's Hong Kong takings in 2024?", "REVENUE", "ACME_HK"),  # a shop's
        ("寶島市場2024年底有幾家ACME門店?", "STORE_COUNT", "ACME_TW"),  # 宝岛, the brand between
    ],
)  # fmt: skip
def test_acme_words_for_a_held_metric_find_it(question: str, metric: str, entity: str) -> None:
    intent = parse_intent(question, date(2025, 6, 30), profile=default_profile())
    assert intent.metrics == [metric] and intent.entity == entity and not intent.declined, intent


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("What was Jinyu's other income in 2020?", "OTHER_INCOME"),  # 其他收益 in English
        ("What was Jinyu's PP&E at the end of 2020?", "FIXED_ASSETS"),  # 固定资产's initialism
        ("金宇生物2021年经营现金净流入多少?", "OPERATING_CASH_FLOW"),  # the net inflow, short
        ("How much did Jinyu book in taxes and surcharges in 2021?", "TAXES_AND_SURCHARGES"),
    ],
)  # fmt: skip
def test_jinyu_words_for_a_held_metric_find_it(
    question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for("jy", question, jy)
    assert intent.metrics == [metric] and not intent.declined, intent


def test_a_business_sold_is_no_segment_of_it() -> None:
    # 卖了多少钱 glued to 业务: the price of the business, never Taiwan's revenue
    intent = parse_intent("把台湾业务卖了多少钱?", date(2025, 6, 30), profile=default_profile())
    assert intent.metrics == [] and intent.declined == "业务", intent


def test_another_kind_of_store_between_is_no_store_count() -> None:
    # LEED stores are some stores: a kind the facts are not cut by, never the store count
    intent = parse_intent(
        "台湾2024年底有几家LEED门店?", date(2025, 6, 30), profile=default_profile()
    )
    assert intent.metrics == [] and intent.declined == "LEED门店", intent
