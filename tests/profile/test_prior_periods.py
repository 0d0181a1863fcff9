"""Issue 27, round 15: a quarter named by its closing month, and the period a year before the one
named (the comparable period a year earlier, 上年同期), are those periods, never the year."""

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
        ("gross profit in the September quarter of 2024", ["2024Q3"]),  # July to September
        ("the March quarter 2024", ["2024Q1"]),  # the quarter closing in March: Q1
        ("revenue in the Dec 2024 quarter", ["2024Q4"]),  # abbreviated, the year before
        ("the quarter ended 30 June 2024", ["2024Q2"]),  # the quarter ended a day
        ("the quarter ending September 30, 2024", ["2024Q3"]),  # US date order
        ("2024年9月季度的毛利", ["2024Q3"]),  # 9月季度
        ("截至2024年9月30日止的季度", ["2024Q3"]),  # the quarter ended 30 September
        ("截至2024年12月底的季度收入", ["2024Q4"]),  # 月底
        ("the August quarter of 2024", [None]),  # August closes no held quarter: no period
        ("2024年8月季度", [None]),  # the same in Chinese
        ("the third quarter of 2024", ["2024Q3"]),  # an ordinal quarter, as before
        ("revenue in September 2024", ["FY2024"]),  # a month, no quarter: as before
        ("2024年9月的收入", ["FY2024"]),  # likewise in Chinese
        ("3-6月龄仔猪的免疫", []),  # an age in months, as before
    ],
)  # fmt: skip
def test_a_quarter_named_by_its_closing_month_is_that_quarter(
    text: str, expected: list[str | None]
) -> None:
    assert labels(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the one period named, a year back
        # the period of the results the figures are read in is their source: only the prior asked
        ("In FY2024 results, revenue for the comparable period a year earlier", ["FY2023"]),
        ("2024年报中上年同期的收入", ["FY2023"]),  # 年报中: the same in Chinese
        ("2024 revenue and the prior-year period", ["FY2024", "FY2023"]),  # prior-year period
        ("2024H1 revenue, the corresponding period of the previous year", ["2024H1", "2023H1"]),
        # its 'prior year' is the phrase's own, not a year before today
        ("2024 revenue in the prior year period", ["FY2024", "FY2023"]),
        ("2024年上半年,上年同期的收入是多少", ["2024H1", "2023H1"]),  # the half kept
        ("2024年收入和上年可比期间相比", ["FY2024", "FY2023"]),  # 可比期间
        ("2024年收入与上年同期相比", ["FY2024", "FY2023"]),  # a comparison: as before
        ("上年同期的收入", []),  # no period named: nothing to count from
        ("2023 and 2024 versus the prior-year period", ["FY2023", "FY2024"]),  # two named: unsaid
        ("comparable sales growth in 2024", ["FY2024"]),  # comparable sales, no period
    ],
)  # fmt: skip
def test_the_period_a_year_before_counts_from_the_one_named(
    text: str, expected: list[str | None]
) -> None:
    assert labels(text) == expected
