"""Issue 27: an extreme across periods (in which year from 2022 to 2024 did the operating margin
peak, and at what level) is each year's figure, sourced, and the year at the top named from
them with its figure; the words asking it (which year, peak, 最高) are no unknown subject."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.agent.period_extremes import HIGH, LOW, period_extreme
from ragspine.engine import Engine

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("text", "direction"),
    [
        ("in which year from 2022 to 2024 did revenue peak", HIGH),  # peak: the highest
        ("2022年到2024年哪一年净利润最高", HIGH),  # 哪一年 … 最高
        ("which year had the lowest net margin", LOW),  # the lowest
        ("哪个年度毛利率最低", LOW),  # 哪个年度 … 最低
        ("which region had the highest revenue", None),  # a rank of parts: ranks.py
        ("2024年收入最高是多少", None),  # no period asked to be ranked
        ("which year is the report for", None),  # which year, no extreme: no rank
    ],
)  # fmt: skip
def test_an_extreme_across_periods_is_read(text: str, direction: str | None) -> None:
    asked = period_extreme(text)
    assert (asked[0] if asked else None) == direction


@pytest.mark.parametrize(
    ("question", "periods", "rank"),
    [
        # a range with which year … peak: every year, ranked
        (
            "In which year from 2022 to 2024 did mainland China's operating margin peak, "
            "and at what level?",
            ["2022", "2023", "2024"],
            HIGH,
        ),
        ("2022年到2024年,中国内地哪一年的收入最低?", ["2022", "2023", "2024"], LOW),  # Chinese
        ("2022年到2024年中国内地的收入分别是多少?", ["2022", "2023", "2024"], None),  # no rank
    ],
)  # fmt: skip
def test_a_range_ranked_asks_every_year(question: str, periods: list[str], rank: str) -> None:
    intent = parse_intent(question, REF)
    assert intent.unknown_subject is None and intent.declined is None, intent
    assert intent.metric is not None
    assert [p.period for p in intent.periods] == periods
    assert intent.period_rank == rank


def test_the_peak_year_is_named_with_its_figure(demo: Engine) -> None:
    result = demo.ask(
        "In which year from 2022 to 2024 did mainland China's operating margin peak, "
        "and at what level?",
        reference_date=REF,
        clearance="INTERNAL",
    )
    assert "highest" in result.answer and "FY2022" in result.answer, result.answer
    assert "9.0" in result.answer, result.answer
    line = next(x for x in result.answer.splitlines() if "highest" in x)
    assert "FY2022" in line and "FY2023" not in line and "FY2024" not in line, line
