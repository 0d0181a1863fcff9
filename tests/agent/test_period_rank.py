"""Issue 27: a period's kind in a rank question (哪个季度毛利最高, which quarter …) is the rank's
axis, never an unknown subject: every quarter (half) of the year asked is queried, and where no
year is written, of the latest year held (assumed, and said so). The year's own figure is
another quantity and is never the answer."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.engine import Engine
from ragspine.profile.periods import FY, Period

REF = date(2025, 6, 30)
Q2024 = ["2024Q1", "2024Q2", "2024Q3", "2024Q4"]


@pytest.mark.parametrize(
    ("question", "periods", "assumed"),
    [
        ("2024年哪个季度毛利最高?", Q2024, None),  # the quarters of the year written
        ("哪个季度毛利最高?", Q2024, "2024"),  # no year: the latest complete one, assumed
        ("哪一季度收入最低?", Q2024, "2024"),  # the lowest, another way to write which
        ("Which quarter had the highest gross profit?", Q2024, "2024"),  # English
        ("Which half of 2024 had the highest revenue?", ["2024H1", "2024H2"], None),  # halves
        # no rank asked: one quarter's figure, nothing assumed
        ("2024年第三季度毛利是多少?", ["2024Q3"], None),
        # a rank of regions: the period stays the year written
        ("2024年哪个地区毛利最高?", ["2024"], None),
    ],
)  # fmt: skip
def test_a_rank_of_quarters_queries_each_quarter(
    question: str, periods: list[str], assumed: str | None
) -> None:
    intent = parse_intent(question, REF)
    assert intent.unknown_subject is None and intent.declined is None, intent
    assert intent.metric is not None
    assert [p.period for p in intent.periods] == periods, intent.periods
    assert intent.assumed_period == (Period(FY, assumed) if assumed else None)


def test_a_yearless_rank_of_quarters_states_each_quarter_never_the_year(demo: Engine) -> None:
    result = demo.ask("哪个季度毛利最高?", reference_date=REF, clearance="INTERNAL")
    assert "805.2" not in result.answer, result.answer  # FY2024 gross profit: another quantity
    assert all(f in result.answer for f in ("185.2", "193.2", "201.3", "225.5")), result.answer
    assert "FY2024" in result.answer  # the assumed year is said
