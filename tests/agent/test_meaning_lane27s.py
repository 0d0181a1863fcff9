"""Lane 27-S (round 16, other periods and currencies): a period counted from a named one is the
period counted to; a point inside a year, a window of months, a year named by an event and a
local currency of a part are declined by their words, never answered with the figure held."""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("question", "periods"),
    [
        ("集團2024年第一季度的前一個季度,收入是多少?", ["2023Q4"]),  # back a quarter, a year over
        ("集团2024年第四季度的后一个季度收入是多少?", ["2025Q1"]),  # on a quarter, into a year
        ("What was ACME Group's revenue in the quarter after Q1 2024?", ["2024Q2"]),  # English
        ("What was ACME Group's revenue in the half before 2024H2?", ["2024H1"]),  # a half back
        ("What was ACME Group's revenue in the quarter before Q1 2024?", ["2023Q4"]),  # back
        ("What was ACME Group's revenue in the next quarter of Q4 2024?", ["2025Q1"]),  # next … of
        # "the previous quarter" inside the step: never also a quarter counted back from today
        ("What was ACME Group's revenue in the previous quarter of Q1 2024?", ["2023Q4"]),
        ("集团2024年第一季度的收入是多少?", ["2024Q1"]),  # no step: the period named
        ("What was ACME Group's revenue in the year before 2024?", ["FY2023"]),  # a year: kept
    ],
)  # fmt: skip
def test_a_period_counted_from_another_is_the_one_counted_to(
    question: str, periods: list[str], jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert [p.label for p in intent.periods] == periods and not intent.unrecognized, intent


@pytest.mark.parametrize(
    ("which", "question", "named"),
    [
        ("acme", "集团2024年的前一个季度收入是多少?", "前一个季度"),  # a quarter from a year: none
        ("acme", "香港2024年年中有多少間門店?", "年中"),  # a point inside the year
        ("acme", "What was Hong Kong's store count at mid-year 2024?", "mid-year"),  # English
        ("acme", "中国内地2024年6月到8月这三个月的收入加起来是多少?", "6月到8月"),  # no quarter
        ("jy", "How much did Jinyu's revenue grow in the pandemic year, versus the year before?",
         "pandemic year"),  # an event names no year the profile can tell
        ("acme", "集团疫情那年的收入是多少?", "疫情那年"),  # the same, in Chinese
    ],
)  # fmt: skip
def test_a_period_no_figure_is_of_is_declined_by_its_words(
    which: str, question: str, named: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert not intent.periods and named in intent.unrecognized.get("period", ""), intent
    assert intent.unknown_subject is None, intent  # 这三个月 is no entity


@pytest.mark.parametrize(
    ("which", "question", "periods"),
    [
        ("acme", "中国内地2024年的收入是多少?", ["FY2024"]),  # 年中 is not 年中国
        ("acme", "中国内地2024年第一季度这三个月的收入是多少?", ["2024Q1"]),  # months restated
        ("acme", "中国内地2024年10-12月的收入是多少?", ["2024Q4"]),  # a run that is a quarter
        ("acme", "集团2024年中期业绩的收入是多少?", ["2024H1"]),  # interim results: the half
        ("acme", "What was revenue in the fiscal year 2024?", ["FY2024"]),  # a period's own words
        ("jy", "How much did Jinyu's revenue grow in 2021 versus the year before?",
         ["FY2021", "FY2020"]),  # a growth with its year: both years
    ],
)  # fmt: skip
def test_periods_that_are_held_are_still_read(
    which: str, question: str, periods: list[str], jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert [p.label for p in intent.periods] == periods and not intent.unrecognized, intent


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What was Taiwan's 2024 revenue in local currency?", "local currency"),  # a part's own
        ("台灣2024年以當地貨幣計的收入是多少?", "當地貨幣"),  # the same, in Chinese
        ("What was Taiwan's 2024 revenue in NT$?", "NT$"),  # a currency by its sign
        ("台湾2024年的收入是多少新台币?", "新台币"),  # by its name
    ],
)  # fmt: skip
def test_a_currency_the_figure_is_not_in_is_declined(
    question: str, named: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == [] and intent.declined and named in intent.declined, intent


@pytest.mark.parametrize(
    "question",
    [
        "台湾2024年收入是多少美金?",  # 美金 is the USD the figure is in
        "What was ACME Group's 2024 revenue in local currency?",  # the company's own: reported
        "What was Taiwan's 2024 revenue in US dollars?",  # the held currency named
    ],
)  # fmt: skip
def test_the_held_currency_in_another_word_is_answered(question: str, jy: DomainProfile) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == ["REVENUE"] and intent.declined is None, intent
