"""A relative year after a comparison word counts from the one year the question names (issue 24:
a 2020 report answers 2021年…与上年相比), never from today; with two years named, or 去年 / last
year, nothing is counted from the question."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.profile.compared_years import compared_years
from ragspine.profile.periods import find_periods
from ragspine.text import fold

REF = date(2026, 11, 26)


def labels(text: str) -> list[str]:
    return sorted(pm.period.label for pm in find_periods(fold(text), REF) if pm.period)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2021年的法定代表人与上年相比相同吗?", ["FY2020", "FY2021"]),  # 与上年
        ("2021年金宇生物的法定代表人与前两年是否相同?", ["FY2019", "FY2020", "FY2021"]),  # 前两年
        ("2021年营业收入与前一年相比", ["FY2020", "FY2021"]),  # 前一年: one year
        ("2021年营业收入与前年相比", ["FY2019", "FY2021"]),  # 前年: the year before last only
        ("2021年营业收入较上年度增长", ["FY2020", "FY2021"]),  # 较上年度
        ("2021年與上年相比", ["FY2020", "FY2021"]),  # traditional 與
        ("Was the 2021 chair the same as in the previous year?", ["FY2020", "FY2021"]),  # as in
        ("2021 revenue compared with the two prior years", ["FY2019", "FY2020", "FY2021"]),
        ("revenue in 2021 versus the year before", ["FY2020", "FY2021"]),  # the year before
    ],
)  # fmt: skip
def test_a_compared_year_counts_from_the_year_named(text: str, expected: list[str]) -> None:
    assert labels(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "2021年与2019年的法定代表人相同吗",  # two years named: nothing to count
        "2021年的收入和去年相比",  # 去年 counts from today, not from 2021
        "与上年相比收入增长多少",  # no year named
        "2021年上年同期",  # no comparison word before 上年
        "2021年12月营业收入与上月相比",  # 上月: a month, not a year
    ],
)
def test_nothing_is_counted_without_one_year_and_a_comparison(text: str) -> None:
    assert compared_years(fold(text)) == []
