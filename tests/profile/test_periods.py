from __future__ import annotations

from datetime import date

import pytest

from ragspine.profile.glossary import glossary_for, normalize_period
from ragspine.profile.periods import Period, find_periods
from ragspine.text import fold

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("raw", "label"),
    [
        # fiscal years
        ("FY2024", "FY2024"),
        ("FY24", "FY2024"),
        ("fiscal 2024", "FY2024"),
        ("2024财年", "FY2024"),
        ("24财年", "FY2024"),
        ("2024年度", "FY2024"),
        ("2024年", "FY2024"),
        ("2024", "FY2024"),  # a bare year is the fiscal year
        # quarters
        ("Q3 2024", "2024Q3"),
        ("2024Q3", "2024Q3"),
        ("3Q24", "2024Q3"),
        ("2024年第三季度", "2024Q3"),
        ("2024年三季度", "2024Q3"),
        ("2024年Q3", "2024Q3"),
        ("2024年第3季度", "2024Q3"),
        ("FY24 Q4", "2024Q4"),  # the fiscal year's quarter: one period, never the year too
        ("FY2024-Q3", "2024Q3"),
        ("2024年最后一个季度", "2024Q4"),  # a named year's last quarter
        ("the last quarter of 2024", "2024Q4"),
        # halves
        ("H1 2024", "2024H1"),
        ("2024H1", "2024H1"),
        ("1H24", "2024H1"),
        ("2024年上半年", "2024H1"),
        ("2024上半年", "2024H1"),
        ("2024年下半年", "2024H2"),
        ("FY24 H1", "2024H1"),
        ("first half of 2024", "2024H1"),
        # relative to the reference date 2025-06-30
        ("去年", "FY2024"),
        ("last year", "FY2024"),
        ("前年", "FY2023"),
        ("上季度", "2025Q1"),
        ("last quarter", "2025Q1"),
        ("上半年", "2025H1"),  # this year's first half
        ("去年上半年", "2024H1"),
        ("去年第三季度", "2024Q3"),
        # traditional and full-width
        ("２０２４年第三季度", "2024Q3"),
        ("2024財年", "FY2024"),
    ],
)
def test_period_expressions(raw: str, label: str) -> None:
    period = normalize_period(raw, REF)
    assert period is not None, raw
    assert period.label == label


@pytest.mark.parametrize(
    "raw",
    [
        "2024Q5",  # no fifth quarter
        "FY2024 and FY2023",  # two periods are not one
        "revenue 2024",  # more than a period
        "soon",  # not a period
        "",
    ],
)
def test_not_a_single_period(raw: str) -> None:
    assert normalize_period(raw, REF) is None


def test_previous_quarter_wraps_the_year() -> None:
    assert normalize_period("上季度", date(2025, 2, 1)) == Period("Q", "2024Q4")


def test_quarter_text_is_not_also_a_year() -> None:
    found = glossary_for().find_periods(fold("2024年第三季度和2023年的收入"), REF)
    assert [p.label for p in found] == ["2024Q3", "FY2023"]


def test_chronological_order() -> None:
    periods = [Period("FY", "2024"), Period("Q", "2024Q1"), Period("H", "2023H2")]
    assert [p.label for p in sorted(periods, key=lambda p: p.sort_key)] == [
        "2023H2",
        "2024Q1",
        "FY2024",
    ]


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        # 同期 after a year: the half the question names beside it
        ("香港2024年下半年收入比2023年同期增长了多少", ["2024H2", "2023H2"]),
        # the same period of a year, in English
        ("revenue in the second half of 2024 versus the same period of 2023", ["2024H2", "2023H2"]),
        ("2024年第三季度收入较2023年同期下降", ["2024Q3", "2023Q3"]),  # a quarter
        # no 同期: a year is the year, beside a half
        ("2023年收入和2024年上半年收入", ["FY2023", "2024H1"]),
        ("2024年收入比2023年同期", ["FY2024", "FY2023"]),  # no part named: the year
    ],
)  # fmt: skip
def test_the_same_period_of_a_year_is_the_part_named_beside_it(
    text: str, labels: list[str]
) -> None:
    found = [pm.period.label for pm in find_periods(fold(text), REF) if pm.period]
    assert found == labels


@pytest.mark.parametrize(
    ("raw", "label"),
    [
        ("二〇二四年", "FY2024"),  # a year written in Chinese numerals, 〇 for zero
        ("二零二一年", "FY2021"),  # 零 for zero
        ("二○二三年", "FY2023"),  # the white circle that stands for 〇 in many documents
        ("二〇二四财年", "FY2024"),  # with 财年
        ("二〇二四年第三季度", "2024Q3"),  # a quarter of a year in numerals
        ("二〇二四年上半年", "2024H1"),  # a half of one
        ("一九九九年", "FY1999"),  # last century's
    ],
)
def test_a_year_in_chinese_numerals_is_that_year(raw: str, label: str) -> None:
    period = normalize_period(raw, REF)
    assert period is not None, raw
    assert period.label == label


@pytest.mark.parametrize(
    "text",
    [
        "三四年",  # three or four years: two numerals are no year
        "一二三四五年",  # five numerals are no year
        "十二年",  # twelve years
        "二〇二四",  # four numerals without 年 are a number, not a year
    ],
)
def test_chinese_numerals_that_are_no_year(text: str) -> None:
    assert [pm.period for pm in find_periods(fold(text), REF) if pm.period] == []


@pytest.mark.parametrize(
    ("raw", "label"),
    [
        ("今年", "FY2025"),  # the reference date's calendar year (README: relative to it)
        ("去年", "FY2024"),  # one before
        ("前年", "FY2023"),  # two before
        ("上上年", "FY2023"),  # two before, said another way
        ("大前年", "FY2022"),  # three before: never read as 前年
        ("大前年第三季度", "2022Q3"),  # a quarter of it
        ("大前年上半年", "2022H1"),  # a half of it
    ],
)
def test_relative_years_count_back_from_the_reference_year(raw: str, label: str) -> None:
    period = normalize_period(raw, REF)
    assert period is not None, raw
    assert period.label == label


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("哪一季度收入最低", []),  # which quarter: its 一 is no quarter
        ("一季度收入是多少", ["2025Q1"]),  # the first quarter, its year from the reference date
        ("第一季度收入是多少", ["2025Q1"]),  # the same with 第
    ],
)  # fmt: skip
def test_which_quarter_is_no_quarter(text: str, labels: list[str]) -> None:
    found = [pm.period.label for pm in find_periods(fold(text), REF) if pm.period is not None]
    assert found == labels
