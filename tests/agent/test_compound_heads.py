"""Issue 27, round 15: a held metric word inside a compound whose head changes its meaning
(库存 inside 库存股, 门店 inside 门店密度) is never that metric: the compound is a quantity of
the shipped vocabulary, declined by its name where the profile does not hold it."""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # treasury shares: 库存 (an inventory alias) inside 库存股
        ("jy", "金宇生物2020年末的库存股金额是多少?", "库存股"),
        # the same in English
        ("jy", "What were Jinyu's treasury shares at the end of 2020?", "treasury shares"),
        # a reserve: 盈余公积, never a profit
        ("jy", "金宇生物2020年末的盈余公积是多少?", "盈余公积"),
        # stores per area: 门店 inside 门店密度
        ("acme", "中国内地2024年的门店密度是多少?", "门店密度"),
        # cash less debt (traditional 淨現金): never net profit
        ("acme", "集團2024年的淨現金是多少?", "淨現金"),  # named as written
    ],
)  # fmt: skip
def test_a_compound_is_never_the_metric_inside_it(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [] and intent.declined is not None, intent
    assert declined in intent.declined, intent


@pytest.mark.parametrize(
    ("which", "question", "metrics"),
    [
        # the inventory itself, asked plainly
        ("jy", "金宇生物2020年末的存货是多少?", ["INVENTORY"]),
        # the store count, asked plainly
        ("acme", "中国内地2024年有多少家门店?", ["STORE_COUNT"]),
        # net profit, asked plainly
        ("acme", "集团2024年的净利润是多少?", ["NET_PROFIT"]),
        # operating cash flow: a longer phrase than net cash
        ("jy", "金宇生物2020年经营活动产生的现金流量净额是多少?", ["OPERATING_CASH_FLOW"]),
    ],
)  # fmt: skip
def test_the_held_metric_asked_plainly_is_still_read(
    which: str, question: str, metrics: list[str], jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == metrics and intent.declined is None, intent
