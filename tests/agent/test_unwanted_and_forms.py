"""Lane 27-W (round 17): a quantity the question says it does not want is never answered; an
instruction on the answer's form (只要金额, as an amount) asks the change in money, never the rate;
a quantity written with its figure is given, not asked; a fall asked as 百分之几 is the rate."""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "metrics"),
    [
        ("acme", "香港2024年的营收增速是多少?我问的不是同店那个。",
         ["REVENUE_YOY"]),  # 不是同店那个: the same-store growth dropped
        ("acme", "Mainland China offline, FY2024: I need the gross profit line, not the sales "
         "line above it.", ["GROSS_PROFIT"]),  # , not the sales line: revenue dropped
        ("jy", "What was Jinyu's cash ratio at end-2020? Not the cash and cash equivalents "
         "balance, the ratio.", ["CASH_RATIO"]),  # Not the …balance: the balance dropped
        ("acme", "香港2024年的毛利,而非收入,是多少?", ["GROSS_PROFIT"]),  # 而非收入
        ("acme", "香港2024年的收入和毛利分别是多少?",
         ["REVENUE", "GROSS_PROFIT"]),  # no negation: both asked
        ("acme", "Why did Hong Kong's revenue not grow in 2024?",
         ["REVENUE"]),  # not before a verb, mid-clause: no quantity excluded
        ("acme", "香港2024年40.1%的毛利率,对应的毛利金额是多少?",
         ["GROSS_PROFIT"]),  # 40.1%的毛利率: stated as given, not asked
        ("acme", "香港2024年的毛利率是多少?", ["GROSS_MARGIN"]),  # no figure: asked
        ("jy", "金宇生物2020年每赚1元净利润,要花多少元研发费用?",
         ["RD_TO_PROFIT"]),  # 每赚1元: a ratio's unit, no figure stated
        ("acme", "FY2024 gross margin and gross profit of Hong Kong?",
         ["GROSS_MARGIN", "GROSS_PROFIT"]),  # a bare year is no stated figure
    ],
)  # fmt: skip
def test_a_quantity_not_wanted_or_given_is_not_asked(
    which: str, question: str, metrics: list[str], jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == metrics and intent.declined is None, intent


@pytest.mark.parametrize(
    ("which", "question", "metrics", "change"),
    [
        ("acme", "中国内地2024年收入降幅是多少?只要金额,别给百分比。",
         ["REVENUE"], True),  # the fall in money, never the rate
        ("jy", "金宇生物2020年研發費用比2019年多花了多少錢?請給金額,不是增長率。",
         ["RD_EXPENSES"], True),  # two levels compared, as an amount: the change
        ("acme", "What was mainland China's 2024 revenue growth, as an amount, not a percentage?",
         ["REVENUE"], True),  # English: the change in money
        ("acme", "中国内地2024年收入降幅是多少?", ["REVENUE_YOY"], False),  # no form: the rate
        ("acme", "香港2024年的收入是多少?只要金额。", ["REVENUE"], False),  # a level stays one
        ("acme", "東南亞2024年淨利潤跌了百分之幾?", ["NET_PROFIT_YOY"], False),  # 跌: the rate
        ("acme", "東南亞2024年淨利潤跌了多少?", ["NET_PROFIT"], True),  # no 百分之几: amount
    ],
)  # fmt: skip
def test_the_answer_form_asked_decides_amount_or_rate(
    which: str, question: str, metrics: list[str], change: bool, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == metrics and intent.change is change, intent
