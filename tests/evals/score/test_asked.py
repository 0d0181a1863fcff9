"""The harness's own reading of the asked term (score/asked.py), scored on records: an answer
whose metric's name is only part of a longer term the question asks (or a count given for an
amount of money) fails the ``asked_quantity`` check, naming both; the metric with a period, an
entity or a channel around it, or a change the answer gives, does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ragspine.evals.audit.names import SlotNames
from ragspine.evals.run.runner import slot_names
from ragspine.profile import default_profile, load_profile
from tests.evals.score.test_scorers import FACT, _case, _checks, _seen

JINYU = Path(__file__).parents[3] / "examples" / "jinyu" / "profile.yaml"


@pytest.fixture(scope="module")
def names() -> dict[str, SlotNames]:
    with pytest.warns(UserWarning):  # 金宇 is part of 金宇车城
        jinyu = load_profile(JINYU)
    return {"acme": slot_names(default_profile()), "jy": slot_names(jinyu)}


def _found(code: str) -> dict[str, Any]:
    return FACT | {"metric_code": code}


def _check(names: SlotNames, question: str, code: str, changes: list[str] | None = None) -> Any:
    seen = _seen(question=question, tool_results=[_found(code)], names=names,
                 changes=changes or [])  # fmt: skip
    return _checks(_case(), seen).get("asked_quantity")


@pytest.mark.parametrize(
    ("which", "question", "code", "term"),
    [
        # English: a quantity noun after the name, one word between
        ("acme", "What was the sales return rate of mainland China's online orders in 2024?",
         "REVENUE", "asked sales return rate"),
        # Chinese, glued, traditional characters: a deduction of R&D expenses
        ("jy", "金宇生物2020年研發費用加計扣除的金額是多少?", "RD_EXPENSES",
         "asked 研发费用加计扣除"),
        # Chinese after 的: pay of the employees
        ("jy", "金宇生物2020年职工人数的薪酬是多少?", "EMPLOYEES", "asked 职工人数的薪酬"),
        # a growth rate answered with the level
        ("acme", "香港2024年收入同比增长率是多少?", "REVENUE", "asked 收入同比增长率"),
        # the growth of a margin: a percentage that is no growth itself
        ("acme", "香港2024年净利率增长率是多少?", "NET_MARGIN", "asked 净利率增长率"),
        # another metric's longer name holds the answered one's, even in a why question
        ("acme", "Why did mainland China same-store sales decline in 2024?", "REVENUE",
         "asked same-store sales (SSSG)"),
        # English: a head before, joined by on
        ("acme", "What was Hong Kong's return on sales in 2024?", "REVENUE",
         "asked return on sales"),
        # cash paid to employees answered with the headcount: a count for an amount of money
        ("jy", "How much cash did Jinyu pay to employees in 2020?", "EMPLOYEES",
         "answered EMPLOYEES (a count), asked an amount of money"),
        # a year before the longer name is no stated figure: the margin is still asked
        ("acme", "香港2024年的毛利率是多少?", "GROSS_PROFIT", "asked 毛利率 (GROSS_MARGIN)"),
        # a figure stated after the name (not before it) states nothing of the margin
        ("acme", "香港毛利率40.1%,2024年是多少?", "GROSS_PROFIT", "asked 毛利率 (GROSS_MARGIN)"),
    ],
)  # fmt: skip
def test_a_name_that_is_part_of_the_asked_term_is_another_quantity(
    names: dict[str, SlotNames], which: str, question: str, code: str, term: str
) -> None:
    check = _check(names[which], question, code)
    assert check is not None and not check.passed, check
    assert term in check.why and code in check.why


@pytest.mark.parametrize(
    ("which", "question", "code", "changes"),
    [
        # a half
        ("acme", "What was Hong Kong's revenue in the second half of 2024?", "REVENUE", []),
        ("acme", "What were mainland China's online sales in 2024?", "REVENUE", []),  # a channel
        ("acme", "香港2024年下半年的销售额是多少?", "REVENUE", []),  # 销售额 alone, a period
        ("acme", "2024年香港的收入分别是多少?", "REVENUE", []),  # frame words after it
        ("jy", "金宇生物2020年研发费用的金额是多少?", "RD_EXPENSES", []),  # 的金额: its amount
        ("jy", "How many employees did Jinyu have in 2020?", "EMPLOYEES", []),  # a count asked
        ("acme", "What was Hong Kong's net profit after tax in 2024?", "NET_PROFIT", []),
        # a change the answer gives: its change words are read with it
        ("acme", "香港2024年收入比上年增长了多少?", "REVENUE", ["REVENUE"]),
        ("acme", "How much did Hong Kong's revenue grow in 2024?", "REVENUE", ["REVENUE"]),
        # 率 after a percentage is its name; growth after a growth metric's shorter name
        ("acme", "中国内地2024年同店销售增长率是多少?", "SSSG", []),
        ("acme", "What was the group's comparable sales growth in 2024?", "SSSG", []),
        ("jy", "2020年末金宇生物递延所得税资产余额是多少?", "DEFERRED_TAX_ASSETS", []),  # 余额
        # how the figure is to be written: rounding, units
        ("jy", "金宇生物2020年流动比率保留两位小数是多少?", "CURRENT_RATIO", []),
        ("acme", "香港2024年收入以亿美元计是多少?", "REVENUE", []),
        ("acme", "香港2024年同店销售增幅是多少?", "SSSG", []),  # 增幅 of a growth metric
        # a clause after the name, not its name: 面临激烈竞争 is what revenue faces
        ("acme", "中国内地2024年收入面临激烈竞争,是多少?", "REVENUE", []),
        # why / what drove: the figure is the context of the explanation asked
        ("acme", "为什么中国内地2024年同店销售增长进一步下滑?", "SSSG", []),
        ("acme", "What drove Southeast Asia store count growth in FY2024?", "STORE_COUNT", []),
        # the derived metric found: its own name covers the term
        ("acme", "What was Hong Kong's revenue growth rate in 2024?", "REVENUE_YOY", []),
        # the longer name's figure stated as the premise: the other quantity is what is asked
        ("acme", "香港2024年40.1%的毛利率,对应的毛利金额是多少?", "GROSS_PROFIT", []),
        # (in English the margin's name does not hold the profit's: a control only)
        ("acme", "Behind Hong Kong's 40.1% gross margin in 2024, what was the gross profit?",
         "GROSS_PROFIT", []),
    ],
)  # fmt: skip
def test_the_metric_with_a_period_entity_or_channel_around_it_passes(
    names: dict[str, SlotNames], which: str, question: str, code: str, changes: list[str]
) -> None:
    check = _check(names[which], question, code, changes)
    assert check is not None and check.passed, check.why


def test_nothing_found_or_no_names_is_not_judged(names: dict[str, SlotNames]) -> None:
    seen = _seen(question="香港2024年收入同比增长率是多少?", tool_results=[], names=names["acme"])
    assert "asked_quantity" not in _checks(_case(), seen)
    assert "asked_quantity" not in _checks(_case(), _seen())  # no profile names given


@pytest.mark.parametrize(
    ("which", "question", "code", "flagged"),
    [
        # a balance owed, answered with the year's expense: payable after the name
        ("jy", "What was Jinyu's income tax payable at the end of 2020?", "INCOME_TAX", True),
        # 应交 glued before the name
        ("jy", "金宇生物2020年末应交所得税是多少?", "INCOME_TAX", True),
        # deferred before it
        ("jy", "What was Jinyu's deferred income tax in 2020?", "INCOME_TAX", True),
        # the minority's share, answered with the whole net profit: attributable to after it
        ("jy", "What was Jinyu's net profit attributable to minority interests in 2021?",
         "NET_PROFIT", True),
        ("acme", "What was ACME Group's net profit attributable to minority interests in 2024?",
         "NET_PROFIT", True),
        # 归属于…的 and 少数股东 before it, 中归属于…的部分 after it
        ("jy", "金宇生物2021年归属于公司普通股股东的净利润是多少?", "NET_PROFIT", True),
        ("jy", "金宇生物2021年少数股东的净利润是多少?", "NET_PROFIT", True),
        ("jy", "金宇生物2021年净利润中归属于少数股东的部分是多少?", "NET_PROFIT", True),
        # a provision against the balance, before it joined by for; after it
        ("jy", "What was Jinyu's provision for inventory at the end of 2020?", "INVENTORY", True),
        ("jy", "What was Jinyu's inventory impairment at the end of 2020?", "INVENTORY", True),
        # worn off it, or a part of it by how it arose
        ("jy", "What was Jinyu's accumulated depreciation of fixed assets at the end of 2020?",
         "FIXED_ASSETS", True),
        ("jy", "What was Jinyu's net profit from discontinued operations in 2021?", "NET_PROFIT",
         True),
        ("jy", "金宇生物2020年资本化研发费用是多少?", "RD_EXPENSES", True),
        # no qualifier: the line itself, its longer alias, its own name holding the words
        ("jy", "What was Jinyu's income tax expense in 2020?", "INCOME_TAX", False),
        ("jy", "金宇生物2020年所得税是多少?", "INCOME_TAX", False),
        ("jy", "What was Jinyu's net profit in 2021?", "NET_PROFIT", False),
        ("jy", "金宇生物2021年少数股东损益是多少?", "MINORITY_INTERESTS", False),
        ("jy", "金宇生物2021年归属于少数股东的综合收益总额是多少?", "COMPREHENSIVE_INCOME_MINORITY",
         False),
        ("jy", "2020年末金宇生物递延所得税资产余额是多少?", "DEFERRED_TAX_ASSETS", False),
        ("jy", "金宇生物2021年持续经营净利润是多少?", "CONTINUING_NET_PROFIT", False),
        ("jy", "What were Jinyu's fixed assets at the end of 2020, after depreciation?",
         "FIXED_ASSETS", False),  # the line itself, net of its wear: a clause after it
        # the answered metric found by a synonym the question writes: no name of it to judge
        ("jy", "What was Jinyu's net profit attributable to minority interests in 2021?",
         "MINORITY_INTERESTS", False),
        # attributed to one of the profile's entities: that entity's line
        ("acme", "What was the revenue attributable to Hong Kong in 2024?", "REVENUE", False),
        ("acme", "集团2024年归属于香港的收入是多少?", "REVENUE", False),
        # the words in another clause, not beside the name
        ("jy", "What was Jinyu's inventory at the end of 2020, and was any provision made?",
         "INVENTORY", False),
        ("acme", "What was Hong Kong's revenue in 2024, and how much of it was receivable?",
         "REVENUE", False),
    ],
)  # fmt: skip
def test_a_qualifier_the_answered_name_lacks_makes_another_quantity(
    names: dict[str, SlotNames], which: str, question: str, code: str, flagged: bool
) -> None:
    check = _check(names[which], question, code)
    assert check is not None and check.passed is not flagged, check.why
