"""Issue 27 round 8, class 4 (recall): a held metric's name with a word written in its standard
synonym (总值 for 总额, 营运 for 经营, spend for expenses) is that metric; Hong Kong's 按年 (year
on year) and 升幅 (the rise), and y/y, ask the growth. Each with rows where the words are no
such name, so a synonym never turns the question into another metric."""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        ("jy", "金宇生物2019年末的資產總值是多少?", "TOTAL_ASSETS"),  # 总值 for 总额, traditional
        ("jy", "金宇生物2020年的负债总值是多少?", "TOTAL_LIABILITIES"),  # 总值 on another line
        ("acme", "中国内地2024年的营运利润是多少?", "OPERATING_PROFIT"),  # 营运 for 经营
        ("jy", "What was Jinyu's R&D spend in 2021?", "RD_EXPENSES"),  # spend for expenses
        ("jy", "What was Jinyu's R&D expenditure in 2021?", "RD_EXPENSES"),  # expenditure
        ("jy", "What was Jinyu's selling spending in 2020?", "SELLING_EXPENSES"),  # spending
        ("acme", "東南亞2024年毛利的按年升幅是多少?", "GROSS_PROFIT_YOY"),  # HK's 同比增幅
        ("acme", "香港2024年收入升幅是多少?", "REVENUE_YOY"),  # 升幅 alone: the rise
        ("acme", "Group net profit y/y in 2024?", "NET_PROFIT_YOY"),  # y/y after the metric
        ("acme", "Hong Kong revenue y/y in 2024?", "REVENUE_YOY"),  # y/y read as yoy
    ],
)  # fmt: skip
def test_a_standard_word_for_a_word_of_the_name_reads_as_the_held_metric(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [metric] and intent.declined is None, intent


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        ("acme", "東南亞2024年毛利是多少?", "GROSS_PROFIT_YOY"),  # no 升幅: the level, no growth
        ("acme", "香港2024年的收入是多少?", "REVENUE_YOY"),  # no growth word at all
        ("jy", "What was Jinyu's spend on advertising in 2021?", "RD_EXPENSES"),  # spend alone
        ("jy", "金宇生物2020年的营运资金是多少?", "OPERATING_PROFIT"),  # 营运资金: working capital
    ],
)  # fmt: skip
def test_no_synonym_is_read_where_the_words_name_no_held_metric(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert metric not in intent.metrics, intent
