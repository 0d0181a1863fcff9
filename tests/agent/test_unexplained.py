"""The safety net (``unexplained``): an amount taken off a metric or given back (a return, a
refund, a deduction, a discount), written apart from the metric's words, declines the phrase by
the question's words, never the metric's level; the word in another sentence does not."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.profile import DomainProfile, default_profile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # a return rate whose metric is written after an entity and a channel
        ("acme", "What was the return rate on mainland China's online sales in 2024?",
         "return rate on online sales"),
        # refunds in it, named whole
        ("acme", "2024年中国内地线上收入中的退款金额是多少?", "线上收入中的退款"),
        ("acme", "How much of Hong Kong's 2024 revenue was refunded?", "revenue was refunded"),
        # the deductible part of R&D expenses
        ("jy", "金宇生物2020年研发费用中可加计扣除的部分是多少?", "研发费用中可加计扣除"),
    ],
)  # fmt: skip
def test_an_amount_taken_off_the_metric_is_declined_by_its_words(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [] and intent.declined == declined, intent


@pytest.mark.parametrize(
    "question",
    [
        "ACME的退货政策是什么?2024年香港收入是多少?",  # the returns policy: another sentence
        "What was Hong Kong's revenue in 2024?",  # the metric alone
    ],
)
def test_the_metric_alone_or_with_the_word_elsewhere_is_the_metric(question: str) -> None:
    intent = parse_intent(question, date(2025, 6, 30), profile=default_profile())
    assert intent.metrics == ["REVENUE"] and intent.declined is None, intent


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # the basis in a clause of its own: that clause, whole, never 固定汇率计算,收入
        ("按固定汇率计算,中国内地2024年收入同比下降了多少?", "按固定汇率计算"),
        ("按不变汇率,2024年香港收入增长了多少?", "按不变汇率"),  # another basis word
        ("剔除退货后,香港2024年的收入是多少?", "剔除退货后"),  # an amount taken off, apart
        ("At constant currency, how much did mainland China revenue fall in 2024?",
         "At constant currency"),  # English
        # the word and the metric in one clause: the phrase joining them, as before
        ("2024年中国内地线上收入中的退款金额是多少?", "线上收入中的退款"),
    ],
)  # fmt: skip
def test_a_qualifier_in_a_clause_of_its_own_is_declined_by_that_clause(
    question: str, declined: str
) -> None:
    intent = parse_intent(question, date(2025, 6, 30), profile=default_profile())
    assert intent.metrics == [] and intent.declined == declined, intent


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # a concentration index across regions, after a qualifier clause: never group revenue
        ("集团2024年收入在各地区之间的集中度(HHI指数)是多少?", "收入在各地区之间的集中度"),
        ("What was the HHI of ACME revenue across regions in 2024?", "HHI of ACME revenue"),
        # a sensitivity: how much one moves per point of another, never both levels
        ("中國內地同店銷售增長每提高1個百分點,大概能為收入多帶來多少百萬美元?",
         "同店銷售增長每提高"),
    ],
)  # fmt: skip
def test_an_index_or_a_sensitivity_is_declined_by_its_words(question: str, declined: str) -> None:
    intent = parse_intent(question, date(2025, 6, 30), profile=default_profile())
    assert intent.metrics == [] and intent.declined == declined, intent


def test_an_ampersand_name_is_no_percentage_point(jy: DomainProfile) -> None:
    # PP&E: "pp" before "&" is the line's name, never a change asked in points
    intent = parse_for("jy", "What was Jinyu's PP&E at the end of 2020?", jy)
    assert intent.metrics == ["FIXED_ASSETS"] and not intent.change, intent


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # a share of one quantity converted into another: no held formula, never both levels
        ("acme", "集团2024年的经营利润有百分之几最终转化成了净利润?", "百分之几最终转化成了净利润"),
        # a ratio of tangible assets: another basis, never the debt ratio
        ("jy", "金宇生物2020年末的有形資產負債率是多少?", "有形資產負債率"),
        # cash paid to and on behalf of employees: money, never the headcount
        ("jy", "How much cash did Jinyu pay to and on behalf of its employees in 2020?",
         "pay to and on behalf of its employees"),
    ],
)  # fmt: skip
def test_a_conversion_a_tangible_basis_or_a_payment_is_declined(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [] and intent.declined == declined, intent
