"""Lane 27-P (round 15, another quantity): a percentage asked is never answered with levels
only; a held percentage asked in a unit (in basis points) is its level, not its change; a growth
of a kind no formula holds (log, continuously compounded, geometric mean) is declined by name,
never answered with the simple growth."""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "metrics"),
    [
        ("jy", "金宇生物2021年的管理费用吃掉了营业收入的百分之几?",
         ["ADMIN_EXPENSE_RATIO"]),  # X 吃掉了 Y 的百分之几: X / Y, the held ratio
        ("jy", "金宇生物2021年的净利润花掉了营业收入的百分之多少?", ["NET_MARGIN"]),  # 花掉
        ("jy", "金宇生物2021年的营业成本占营业收入的百分之几?",
         ["OPERATING_COST_RATIO"]),  # 占: already a share, still one
        ("jy", "金宇生物2021年的管理费用是多少?", ["ADMIN_EXPENSES"]),  # no percentage: level
        ("acme", "香港2024年的收入里线上部分占了百分之几?", ["ONLINE_SHARE"]),  # a held share
        ("acme", "香港2024年收入增长了百分之几?", ["REVENUE_YOY"]),  # a growth rate: no share
        ("acme", "What share of Hong Kong's 2024 revenue was online?",
         ["ONLINE_SHARE"]),  # what share, of a held share: answered
        ("acme", "香港2024年收入增长的百分比是多少?", ["REVENUE_YOY"]),  # 增长的百分比: a rate
    ],
)  # fmt: skip
def test_a_part_eating_up_its_whole_is_the_held_ratio(
    which: str, question: str, metrics: list[str], jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == metrics and intent.declined is None, intent


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("香港2024年的收入裡,有百分之幾不是在實體店裡賣出去的?",
         "不是在實體店裡賣出去"),  # a part named by negation: no level answers a percentage
        ("ACME香港業績最好的前10%門店,貢獻了香港2024年收入的百分之幾?",
         "前10%門店"),  # a subset of stores no fact holds: never the revenue
        ("香港2024年的收入里,有百分之几是会员买的?", "会员买"),  # a part no channel holds
    ],
)  # fmt: skip
def test_a_percentage_no_held_ratio_answers_is_declined(
    question: str, named: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == [] and intent.declined and named in intent.declined, intent


@pytest.mark.parametrize(
    ("question", "metrics", "change"),
    [
        ("What was ACME Group's FY2024 operating margin, expressed in basis points?",
         ["OPERATING_MARGIN"], False),  # the level in a unit: 7.67% = 767 bp, no change
        ("What was ACME Group's FY2024 operating margin in basis points?",
         ["OPERATING_MARGIN"], False),  # in: the unit as well
        ("By how many basis points did ACME Group's operating margin fall in FY2024?",
         ["OPERATING_MARGIN"], True),  # a change asked in basis points: still a change
        ("ACME集团2024年的经营利润率下降了多少个基点?", ["OPERATING_MARGIN"], True),  # 下降了
    ],
)  # fmt: skip
def test_a_unit_asked_of_a_held_percentage_is_no_change(
    question: str, metrics: list[str], change: bool, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == metrics and intent.change is change, intent


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What was Hong Kong's revenue growth in 2024 in log terms, i.e. continuously compounded?",
         "log growth"),  # a log growth: no formula holds it, never the simple growth
        ("What was Hong Kong's continuously compounded revenue growth in 2024?",
         "log growth"),  # continuously compounded alone
        ("香港2024年收入的对数增长率是多少?", "对数增长率"),  # 对数增长率
        ("What was the geometric mean growth of Hong Kong's revenue from 2022 to 2024?",
         "geometric mean growth"),  # a geometric mean of growths
    ],
)  # fmt: skip
def test_a_growth_of_an_unheld_kind_is_declined(
    question: str, named: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == [] and intent.declined and named in intent.declined, intent


@pytest.mark.parametrize(
    "question",
    [
        "What was Hong Kong's revenue growth in 2024?",  # simple growth: still held
        "香港2024年收入同比增长率是多少?",  # 同比增长率: held
    ],
)  # fmt: skip
def test_a_simple_growth_is_still_answered(question: str, jy: DomainProfile) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics in (["REVENUE_YOY"], ["REVENUE"]), intent
