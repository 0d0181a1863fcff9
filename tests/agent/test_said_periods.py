"""A not-found names the period as the question wrote it too (said_periods.py): 2021Q4 is the
fact table's label, 2021年第四季度 / Q4 2021 the user's, and the user must recognise what was
not found. A found answer, and a period written as its label, are left as they were."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.render import not_found_line
from ragspine.agent.said_periods import said_periods
from ragspine.agent.wording import EN, ZH
from ragspine.engine import Engine
from ragspine.profile import default_profile
from tests.agent.asking import ask, found

_REF = date(2025, 6, 30)


def _miss(period_type: str, period: str) -> dict:  # type: ignore[type-arg]
    normalized = {"metric_code": "REVENUE", "entity": "ACME_HK", "channel": "TOTAL"}
    return {"status": "not_found", "normalized": {**normalized, "period_type": period_type,
                                                  "period": period}}  # fmt: skip


@pytest.mark.parametrize(
    ("question", "lang", "said"),
    [
        # a quarter in Chinese words: the label, then the user's words after what was missed
        ("香港2019年第四季度的收入是多少?", ZH, "2019Q4 收入(2019年第四季度)"),
        # the same in English, in the English way of bracketing
        ("What was Hong Kong's revenue in Q4 2019?", EN, "2019Q4 revenue (Q4 2019)"),
        # a relative quarter: the period it was read as, and how it was asked
        ("香港去年第四季度的收入是多少?", ZH, "2024Q4 收入(去年第四季度)"),
    ],
)  # fmt: skip
def test_a_miss_names_the_period_as_written(question: str, lang: str, said: str) -> None:
    period = said.split()[0]
    line = not_found_line(
        _miss("Q", period),
        default_profile(),
        lang,
        said=said_periods(question, _REF),  # type: ignore[arg-type]
    )
    assert said in line, line


@pytest.mark.parametrize(
    ("question", "period"),
    [
        # written as the label already: said once, with no brackets
        ("香港2019Q4的收入是多少?", "2019Q4"),
        # another period than the one missed: the miss is never named by the user's other words
        ("香港2024年第四季度的收入是多少?", "2019Q4"),
    ],
)  # fmt: skip
def test_no_second_name_where_none_differs(question: str, period: str) -> None:
    line = not_found_line(
        _miss("Q", period), default_profile(), ZH, said=said_periods(question, _REF)
    )  # type: ignore[arg-type]
    assert f"{period}(" not in line and "第四季度" not in line, line


@pytest.mark.stores
def test_a_quarter_not_held_is_named_as_asked(jinyu: Engine) -> None:
    result = ask(jinyu, "金宇生物2021年第四季度的营业收入是多少?")
    assert not found(result) and "2021年第四季度" in result.answer, result.answer


@pytest.mark.stores
def test_a_found_answer_is_unchanged(jinyu: Engine) -> None:
    result = ask(jinyu, "金宇生物2021年的营业收入是多少?")
    assert found(result) and "(2021年)" not in result.answer, result.answer


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("香港2025年的收入是多少?", {}),  # 2025年 is FY2025 with its own mark: said once
        ("What was Hong Kong's revenue in fiscal 2025?", {}),  # the same in English
        ("What was Hong Kong's revenue in FY25?", {"FY2025": "FY25"}),  # a short form differs
        ("香港2025年上半年的收入是多少?", {"2025H1": "2025年上半年"}),  # a half is no plain year
    ],
)  # fmt: skip
def test_a_year_written_with_its_own_marks_is_said_once(question: str, said: dict) -> None:  # type: ignore[type-arg]
    assert said_periods(question, _REF) == said
