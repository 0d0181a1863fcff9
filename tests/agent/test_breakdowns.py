"""Issue 27, class 1: a breakdown asked (各地区, by region, each market) is each part's figure,
never the company's total under an assumption; a profile with no parts declines it by its
words."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.engine import Engine
from ragspine.profile import default_profile

REF = date(2025, 6, 30)
PARTS = ["ACME_CN", "ACME_HK", "ACME_TW", "ACME_SEA"]


@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        ("2024年各地区收入是多少?", ["REVENUE"]),  # 各地区
        ("What was revenue by region in 2024?", ["REVENUE"]),  # by region
        ("What was each market's net profit in 2024?", ["NET_PROFIT"]),  # each market
        ("2024年分地区的毛利率是多少?", ["GROSS_MARGIN"]),  # 分地区, a ratio
        ("2024年各地区收入占集团的比重分别是多少?", ["REVENUE_SHARE"]),  # each one's share
    ],
)  # fmt: skip
def test_a_breakdown_asks_each_part(question: str, metrics: list[str]) -> None:
    intent = parse_intent(question, REF, profile=default_profile())
    assert intent.metrics == metrics and intent.entities == PARTS, intent


@pytest.mark.parametrize(
    ("question", "entities"),
    [
        ("2024年香港收入是多少?", ["ACME_HK"]),  # a part named: that part
        ("What was ACME's revenue in 2024?", ["ACME_GROUP"]),  # no breakdown: the company
        ("2024年香港和台湾各自的收入是多少?", ["ACME_HK", "ACME_TW"]),  # the parts named
    ],
)  # fmt: skip
def test_no_breakdown_where_none_is_asked(question: str, entities: list[str]) -> None:
    assert parse_intent(question, REF, profile=default_profile()).entities == entities


def test_a_company_with_no_parts_declines_a_breakdown(jinyu: Engine) -> None:
    result = jinyu.ask("金宇生物2020年各地区营业收入是多少?", reference_date=date(2022, 6, 30))
    assert "各地区" in result.answer and result.sources == [], result.answer
    assert "1,581,905,632.48" not in result.answer  # never the company's total
