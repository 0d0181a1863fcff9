"""Issue 27, round 7: a period written as a run of months, or as the year beside a named year.

A run of months that is exactly a quarter, a half or the year is that period; a run that is
none is kept as written with no period (declined by its words, never the year around it); a
count of months that is a duration or an age is no period. A relative year joined to a named
year counts from it (2021年的上一年度 is 2020), never from the reference date.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.profile.periods import find_periods
from ragspine.text import fold

REF = date(2025, 6, 30)


def labels(text: str) -> list[str | None]:
    return [pm.period.label if pm.period else None for pm in find_periods(fold(text), REF)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("集团2024年10-12月的收入", ["2024Q4"]),  # the last three months: Q4
        ("香港2024年1至6月的毛利", ["2024H1"]),  # January to June: H1
        ("2024年1-3月", ["2024Q1"]),  # the first three months: Q1
        ("2024年1月至3月", ["2024Q1"]),  # 月 written after each month
        ("2024年7月到12月", ["2024H2"]),  # 到 joins them too
        ("2024年一至三月", ["2024Q1"]),  # months in Chinese numerals
        ("2024年1-12月", ["FY2024"]),  # all twelve months: the year
        ("2024年第一季度", ["2024Q1"]),  # a quarter by its name, as before
        ("截至2024年6月30日止六个月", ["2024H1"]),  # six months ended 30 June
        ("revenue for January to June 2024", ["2024H1"]),  # English month names
        ("Oct–Dec 2024 revenue", ["2024Q4"]),  # abbreviated, an en dash
        ("the six months ended 30 June 2024", ["2024H1"]),  # months ended a day
        ("the three months ended 31 December 2024", ["2024Q4"]),  # three months: a quarter
        ("between October and December 2024", ["2024Q4"]),  # 'between … and' is a run
        ("2024年2-4月的收入", [None]),  # no held period: named, never the year 2024
        ("the nine months ended 30 September 2024", [None]),  # nine months: no held period
        ("3-6月龄仔猪的免疫", []),  # an age in months, no period
        ("12-18个月的保质期", []),  # a duration, no period
        ("revenue in June and July 2024", ["FY2024"]),  # two months, no run: the year, as before
        ("2024年6月30日", ["FY2024"]),  # a date, not a run of months
    ],
)  # fmt: skip
def test_a_run_of_months_is_the_period_it_covers(text: str, expected: list[str | None]) -> None:
    assert labels(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("金宇生物2021年的上一年度净利润", ["FY2020"]),  # the year before 2021
        ("2021年前一年的收入", ["FY2020"]),  # 前一年
        ("2021年度的上年度", ["FY2020"]),  # 年度 … 上年度
        ("2021年的下一年度", ["FY2022"]),  # the year after
        ("revenue in the year before 2021", ["FY2020"]),  # English
        ("the prior year of 2021", ["FY2020"]),  # prior year of
        ("2021's previous year", ["FY2020"]),  # possessive
        ("the year after 2021", ["FY2022"]),  # after
        ("2021年比上一年增长", ["FY2021", "FY2020"]),  # compared with: counted from 2021 too
        ("2021 and the prior year", ["FY2021", "FY2020"]),  # joined by 'and': counted from 2021
        ("2021年上半年", ["2021H1"]),  # a half, no year before
        ("the year before last", ["FY2023"]),  # relative to the reference date, as before
    ],
)  # fmt: skip
def test_a_year_joined_to_a_named_year_counts_from_it(
    text: str, expected: list[str | None]
) -> None:
    assert labels(text) == expected
