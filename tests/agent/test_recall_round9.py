"""Issue 27 round 9, class 4 (recall): a held metric named by a word the shipped vocabulary
gains (生意额, colloquial turnover; S&M, selling and marketing; AR, accounts receivable, in
capitals and standing alone). Each with rows where the same letters or characters name no
held metric, so a new word never turns the question into another metric."""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        ("acme", "香港2024年的生意额是多少?", "REVENUE"),  # 生意额: turnover, colloquial
        ("acme", "台灣2023年生意額有多少?", "REVENUE"),  # traditional, folded first
        ("jy", "What were Jinyu's S&M expenses in 2021?", "SELLING_EXPENSES"),  # S&M expenses
        ("jy", "Jinyu S&M in 2020?", "SELLING_EXPENSES"),  # S&M alone
        ("jy", "Jinyu's sales and marketing expenses in 2021?", "SELLING_EXPENSES"),  # spelt out
        ("jy", "Jinyu AR at end-2019?", "ACCOUNTS_RECEIVABLE"),  # AR in capitals, alone
        ("jy", "What was Jinyu's AR in 2020?", "ACCOUNTS_RECEIVABLE"),  # after a possessive
    ],
)  # fmt: skip
def test_a_shipped_word_reads_as_the_held_metric(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [metric] and intent.declined is None, intent


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        ("acme", "香港2024年的生意是多少?", "REVENUE"),  # 生意 alone: business, no amount
        ("jy", "What was Jinyu's ARPU in 2020?", "ACCOUNTS_RECEIVABLE"),  # AR inside a word
        ("jy", "Jinyu's ar in 2020?", "ACCOUNTS_RECEIVABLE"),  # lower case: no initialism
        ("jy", "Were Jinyu's 2020 results in the AR report?", "SELLING_EXPENSES"),  # no S&M
        ("jy", "What was Jinyu's AR turnover in 2020?", "ACCOUNTS_RECEIVABLE"),  # a ratio of AR
    ],
)  # fmt: skip
def test_the_same_letters_elsewhere_name_no_held_metric(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert metric not in intent.metrics, intent


@pytest.mark.parametrize(
    ("question", "rank"),
    [
        ("ACME最大的市场2024年的收入是多少?", "high"),  # the largest market: by revenue
        ("ACME最小的市场2024年营收多少?", "low"),  # the smallest: the lowest revenue
        ("What was the revenue of ACME's largest market in 2024?", "high"),  # in English
        ("What were sales in ACME's biggest region in 2023?", "high"),  # biggest region
    ],
)  # fmt: skip
def test_a_part_described_by_its_size_is_the_top_of_a_revenue_rank(
    question: str, rank: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == ["REVENUE"] and intent.rank == rank, intent
    assert "ACME_GROUP" not in intent.entities and len(intent.entities) == 4, intent
