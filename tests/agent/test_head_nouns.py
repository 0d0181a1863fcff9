"""A metric word that only qualifies the noun asked about (``head_nouns``): the question asks
another quantity, declined by the whole phrase, never answered with the metric's level; the
metric with only a period, an entity or a channel around it is still the metric."""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # a head noun after the metric, English: a rate of returns, with a channel beside it
        ("acme", "What was the sales return rate of mainland China's online orders in 2024?",
         "sales return rate"),
        ("acme", "What were mainland China's sales returns in 2024?", "sales returns"),
        ("acme", "What was Hong Kong's sales tax in 2024?", "sales tax"),  # a tax on it
        ("acme", "What were Hong Kong's sales expenses in 2024?", "sales expenses"),  # a cost
        # one word between the metric and its head
        ("jy", "What was Jinyu's R&D expenses super deduction in 2020?",
         "R&D expenses super deduction"),
        # Chinese, glued: a tax deduction of R&D expenses (traditional characters)
        ("jy", "金宇生物2020年研發費用加計扣除的金額是多少?", "研發費用加計扣除"),
        ("acme", "香港2024年收入折扣是多少?", "收入折扣"),  # a discount off revenue
        ("jy", "金宇生物2020年职工人数的薪酬是多少?", "职工人数的薪酬"),  # pay, after 的
        # a head noun before the metric, joined by on / of
        ("acme", "What was Hong Kong's return on sales in 2024?", "return on sales"),
        # a count metric as who is paid: the money asked, never the headcount
        ("jy", "How much cash did Jinyu pay to employees in 2020?", "pay to employees"),
        ("jy", "How much did Jinyu pay its employees in 2020?", "pay its employees"),
        ("jy", "How much did Jinyu spend on R&D staff in 2020?", "spend on R&D staff"),
    ],
)  # fmt: skip
def test_a_metric_word_qualifying_another_noun_asks_another_quantity(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [], intent
    assert intent.declined == declined, intent


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        ("acme", "What were Hong Kong's sales in 2024?", "REVENUE"),  # sales alone: revenue
        ("acme", "What was mainland China's online sales in 2024?", "REVENUE"),  # a channel
        ("acme", "What was Hong Kong's revenue in the second half of 2024?", "REVENUE"),  # a half
        ("acme", "What was Hong Kong's net profit after tax in 2024?", "NET_PROFIT"),  # after tax
        ("acme", "What was the gross profit rate of Hong Kong in 2024?", "GROSS_MARGIN"),  # 率
        ("jy", "金宇生物2020年研发费用是多少?", "RD_EXPENSES"),  # the expense itself
        ("jy", "金宇生物2020年研发费用的金额是多少?", "RD_EXPENSES"),  # 金额: the amount of it
        ("jy", "How many employees did Jinyu have in 2020?", "EMPLOYEES"),  # a headcount
        ("jy", "What was Jinyu's income tax expense in 2020?", "INCOME_TAX"),  # a longer alias
    ],
)  # fmt: skip
def test_the_metric_with_a_period_entity_or_channel_around_it_is_still_the_metric(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [metric], intent
    assert intent.declined is None, intent
