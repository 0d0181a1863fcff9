"""A held metric asked as another measure of itself (``other_measures``): in another currency,
for a single month, as openings, as a projection in years, as a what-if. Declined by the
question's words, never the level; the same metric asked plainly is still answered."""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # a currency the USD fact is not in, in a conversion
        ("acme", "台湾2024年的毛利换算成人民币是多少?", "毛利换算成人民币"),
        # the same, in English
        ("acme", "What was Taiwan's 2023 gross profit in euros?", "gross profit in euros"),
        # a USD amount asked of a yuan fact
        ("jy", "金宇生物2021年的净利润是多少美元?", "净利润是多少美元"),
        # a single month written as a period of its own
        ("acme", "香港2024年3月份的毛利是多少?", "3月份的毛利"),
        # 单月 with a month, in a 金宇 question
        ("jy", "金宇生物2021年6月单月的营业成本是多少?", "6月单月的营业成本"),
        # stores opened, a flow, not the year-end count
        ("acme", "台湾2023年新开业了几家门店?", "新开业了几家门店"),
        # a projection in years, in Chinese
        ("acme", "照2024年的速度,香港的毛利多少年能翻倍?", "毛利多少年能翻倍"),
        # a projection in years, in English
        ("acme", "How long would it take Taiwan's revenue to double at its 2024 growth rate?",
         "years to double"),
        # a what-if in the past conditional
        ("acme", "What would Hong Kong's net profit have been in 2024 without the rent rise?",
         "hypothetical net profit"),
        # a what-if in Chinese: a condition and 会是
        ("acme", "假如台湾2024年收入增长10%,毛利会是多少?", "假设情形下的毛利"),
        # an index on a base year: the metric with 指数 after it
        ("acme", "以2022年为基期(2022年=100),中国内地2024年的收入指数是多少?", "收入指数"),
        # the same, in English, with its base written as = 100
        ("acme", "What was Taiwan's gross profit index for 2024 (2022 = 100)?", "index"),
        # the growth needed to get back to a past level (traditional)
        ("acme", "香港的毛利要恢復到2022年的水平,還需要增長多少?", "還需要增長"),
        # the same, in English
        ("acme", "How much would Taiwan's revenue need to grow to get back to its 2022 level?",
         "growth needed"),
        # a projection at a year's growth rate, by its verb
        ("jy", "按2021年的营收增速推算,金宇生物2022年的营业收入大概是多少?", "营收增速推算"),
        # a projection at that rate, in English
        ("acme", "At its 2024 growth rate, what will Hong Kong's revenue be in 2026, projected?",
         "projection"),
    ],
)  # fmt: skip
def test_another_measure_of_a_held_metric_is_declined(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [] and intent.declined == declined, intent


@pytest.mark.parametrize(
    ("which", "question", "metrics"),
    [
        # the unit's own currency, named
        ("acme", "香港2024年的收入是多少百万美元?", ["REVENUE"]),
        # 亿元: a scale, no currency
        ("jy", "金宇生物2021年的净利润是多少亿元?", ["NET_PROFIT"]),
        # a month-end is a balance date
        ("jy", "金宇生物2020年12月末的资产总额是多少?", ["TOTAL_ASSETS"]),
        # a range of months is a quarter
        ("acme", "集团2024年10-12月的收入是多少?", ["REVENUE"]),
        # a month closing a quarter names the quarter (9月季度: Q3), no single month
        ("acme", "香港2024年9月季度的毛利是多少?", ["GROSS_PROFIT"]),
        # the September quarter, in English
        ("acme", "What was Hong Kong's gross profit in September quarter 2024?", ["GROSS_PROFIT"]),
        # the year ending on a date in December
        ("acme", "截至2024年12月31日止年度,香港的收入是多少?", ["REVENUE"]),
        # net new stores: the stock's change, held
        ("acme", "How many net new stores did Taiwan add in 2024?", ["STORE_COUNT"]),
        # the stores it has: the stock
        ("acme", "台湾2023年底有多少家门店?", ["STORE_COUNT"]),
        # a multiple between two held years: no projection
        ("acme", "香港2024年的收入比2022年翻了几番?", ["REVENUE"]),
        # a condition that selects what to report: the actual figure
        ("acme", "如果東南亞2024年底的門店數超過170家,請告訴我它的單店收入是多少。",
         ["REVENUE_PER_STORE"]),
        # a premise, asked in the indicative
        ("acme", "Given that group revenue fell 5%, what was the net margin in 2024?",
         ["NET_MARGIN"]),
        # a year's growth, asked plainly: no index, no recovery, no projection
        ("acme", "香港2024年的收入同比增长多少?", ["REVENUE_YOY"]),
        # 水平 naming the level itself, with no growth needed after it
        ("acme", "香港2024年的毛利处于什么水平?具体是多少?", ["GROSS_PROFIT"]),
        # 按 with no rate and no projecting verb: how the figure is cut, no projection
        ("acme", "按地区看,香港2024年的收入是多少?", ["REVENUE"]),
    ],
)  # fmt: skip
def test_the_held_measure_is_still_read(
    which: str, question: str, metrics: list[str], jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == metrics and intent.declined is None, intent
