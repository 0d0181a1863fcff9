"""A modifier maps a question to the derived metric that means it, recognised by its formula's
shape: a profile need not alias every combination of metric and modifier."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import clarify_scope, parse_intent
from ragspine.profile import DomainProfile, default_profile

REF = date(2025, 6, 30)


def _demo_with(*derived: dict[str, object]) -> DomainProfile:
    """The demo profile with only these derived metrics, under codes and names of their own."""
    data = default_profile().model_dump(exclude_none=True) | {"derived_metrics": list(derived)}
    return DomainProfile.model_validate(data)


# Each aliased only by a name no question below uses.
ODD = _demo_with(
    {"code": "G1", "aliases": ["甲指标"], "percent": False,
     "formula": "(REVENUE - prev(REVENUE)) / prev(REVENUE) * 100"},
    {"code": "S1", "aliases": ["乙指标"], "formula": "REVENUE / REVENUE[entity=ACME_GROUP]"},
    {"code": "C1", "aliases": ["丙指标"],
     "formula": "REVENUE[channel=OFFLINE] / REVENUE[channel=TOTAL]"},
    {"code": "P1", "aliases": ["丁指标"], "formula": "GROSS_PROFIT / STORE_COUNT", "percent": False,
     "unit": "USD_M"},
    {"code": "M1", "aliases": ["戊指标"], "formula": "OPERATING_PROFIT / REVENUE"},
)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "metrics", "channels"),
    [
        ("香港2024年收入增速是多少?", ["G1"], []),  # growth → (X − prev X) / prev X
        ("What was Hong Kong revenue growth in FY2024?", ["G1"], []),
        ("香港2024年收入占集团收入的比重是多少?", ["S1"], []),  # share of the group
        ("中国内地2024年线下收入占比是多少?", ["C1"], []),  # a channel's share: channel fixed
        ("香港2024年单店毛利是多少?", ["P1"], []),  # per store → X / the store count
        ("What was Hong Kong gross profit per store in 2024?", ["P1"], []),
        ("香港2024年经营利润率是多少?", ["M1"], []),  # margin → X / revenue
        ("What was the operating profit margin of Hong Kong in 2024?", ["M1"], []),
    ],
)  # fmt: skip
def test_a_modified_metric_is_the_derived_metric_of_that_shape(
    question: str, metrics: list[str], channels: list[str]
) -> None:
    intent = parse_intent(question, REF, profile=ODD)
    assert intent.metrics == metrics and intent.channels == channels
    assert intent.declined is None


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        ("香港2024年净利润增速是多少?", "净利润增速"),  # no growth formula of net profit here
        ("香港2024年单店净利润是多少?", "单店净利润"),  # nor net profit per store
        ("集团2024年收入占比是多少?", "收入占比"),  # the group's share of itself: of nothing
    ],
)  # fmt: skip
def test_without_that_shape_the_quantity_is_declined_not_its_base(
    question: str, declined: str
) -> None:
    intent = parse_intent(question, REF, profile=ODD)
    clar = clarify_scope(intent, REF, profile=ODD)
    assert intent.metrics == [] and intent.declined == declined
    assert clar.mode == "ask_first" and clar.declined == declined


# A sum the profile names (负债合计 = 流动 + 非流动) and its growth written out over the parts.
SUMMED = _demo_with(
    {"code": "PROFITS", "aliases": ["利润合计", "combined profit"], "percent": False,
     "unit": "USD_M", "formula": "GROSS_PROFIT + NET_PROFIT"},
    {"code": "PROFITS_G", "aliases": ["庚指标"],
     "formula": "(GROSS_PROFIT + NET_PROFIT - prev(GROSS_PROFIT) - prev(NET_PROFIT))"
                " / (prev(GROSS_PROFIT) + prev(NET_PROFIT))"},
)  # fmt: skip


@pytest.mark.parametrize(
    "question",
    [
        "香港2024年利润合计增长了百分之几?",  # a change asked as a percentage
        "香港2024年利润合计增长率是多少?",  # the growth word after the sum's name
        "香港2024年利润合计增速是多少?",  # 增速 after the sum's name
        "By what percentage did Hong Kong's combined profit rise in 2024?",
        "What was Hong Kong's combined profit growth in 2024?",
    ],
)
def test_the_growth_of_a_named_sum_is_its_parts_growth(question: str) -> None:
    intent = parse_intent(question, REF, profile=SUMMED)
    assert intent.metrics == ["PROFITS_G"] and intent.declined is None
