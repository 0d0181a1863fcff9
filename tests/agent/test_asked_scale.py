"""A scale the question asks its figure in (agent/asked_scale.py): the held figure stays and the
same figure, exactly converted into the asked scale, is written beside it; a figure written in
the question, an estimate, or a unit that is no amount is never converted."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.agent.asked_scale import asked_scale, in_asked_scale
from ragspine.agent.render import fact_line
from ragspine.agent.wording import EN, ZH
from ragspine.profile import default_profile, load_profile

JINYU = Path(__file__).parents[2] / "examples" / "jinyu" / "profile.yaml"


@pytest.mark.parametrize(
    ("question", "factor"),
    [
        ("金宇生物2020年研发费用是多少千元?", 10**3),  # 千元: thousands of yuan
        ("研发费用是多少万元", 10**4),  # 万元
        ("香港2024年收入是多少亿美元?", 10**8),  # 亿 before a currency
        ("What were Jinyu's selling expenses in 2021, in RMB million?", 10**6),
        ("revenue in USD thousands", 10**3),  # currency, then the scale
        ("revenue in millions of yuan", 10**6),  # the scale, then the currency
        ("revenue, in millions", 10**6),  # in millions alone
        ("研发费用是多少?", None),  # no scale asked
        ("研发费用超过1亿元吗?", None),  # a figure written, not a scale asked
        ("over 5 million yuan of revenue?", None),  # the same in English
        ("收入有几千元?", None),  # an estimate, not a scale
        ("员工有多少万人?", None),  # a count of people, no currency
        ("revenue in M&A deals", None),  # M in a word, not a scale
        ("收入是多少千元还是多少亿元?", None),  # two scales: which one is not said
    ],
)  # fmt: skip
def test_the_scale_a_question_asks(question: str, factor: int | None) -> None:
    found = asked_scale(question)
    assert (found.factor if found else None) == factor


def _found(value: str, unit: str, metric: str = "REVENUE") -> dict:  # type: ignore[type-arg]
    return {"status": "found", "metric_code": metric, "entity": "", "channel": "TOTAL",
            "period_type": "FY", "period": "2020", "value_text": value, "unit": unit,
            "source": {"doc": "d.xlsx", "locator": "col=x"}}  # fmt: skip


def test_a_held_figure_is_written_beside_its_asked_scale() -> None:
    prof = load_profile(JINYU)
    line = fact_line(_found("130828817.71", "CNY"), prof, None, ZH, asked_scale("多少千元"))  # type: ignore[arg-type]
    assert "130,828,817.71 元,即 130,828.82 千元" in line
    line = fact_line(_found("367158626.10", "CNY"), prof, None, EN, asked_scale("in RMB million"))  # type: ignore[arg-type]
    assert "367,158,626.10 yuan, i.e. 367.16 million yuan" in line


def test_the_demo_scale_unit_is_converted_through_its_own_scale() -> None:
    prof = default_profile()
    line = fact_line(_found("455", "USD_M"), prof, None, ZH, asked_scale("多少亿美元"))  # type: ignore[arg-type]
    assert "455 百万美元,即 4.55 亿美元" in line


@pytest.mark.parametrize(
    ("unit", "question"),
    [
        ("USD_M", "多少百万美元"),  # the unit's own scale: nothing to convert
        ("PCT", "多少千元"),  # a percentage is no amount
        ("COUNT", "多少千元"),  # a count is no amount
    ],
)  # fmt: skip
def test_no_conversion_where_none_is_asked_of_an_amount(unit: str, question: str) -> None:
    asked = asked_scale(question)
    assert asked is not None
    assert in_asked_scale("455", unit, asked, default_profile(), english=False) is None
