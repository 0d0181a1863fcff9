"""A change asked whose levels make none (``change_answers``): declined as the change, naming
what it lacks, and the level that was found is never shown alone as if it were the answer.
Asked through the engine on the demo stores (Hong Kong's revenue is held for 2024H2, not 2023H2;
Taiwan's operating profit for FY2023 and FY2024, not FY2022)."""

from __future__ import annotations

import pytest

from ragspine.engine import Engine
from tests.agent.asking import ask, found


def _looked_for(result: object) -> list[str]:
    return [
        r["normalized"]["metric_code"]  # type: ignore[typeddict-item]
        for r in result.tool_results  # type: ignore[attr-defined]
        if r["status"] == "not_found"
    ]


@pytest.mark.parametrize(
    "question",
    [
        # two halves named, the earlier not held: the growth the profile holds, not found
        "How much did Hong Kong's revenue grow in the second half of 2024 compared with the "
        "second half of 2023?",
        # the same in Chinese, 比…增加了多少
        "香港2024年下半年收入比2023年下半年增加了多少?",
        # one half named: the change from the same half a year before
        "How much did Hong Kong's revenue rise in the second half of 2024?",
    ],
)
def test_a_change_one_level_lacks_is_declined_as_the_growth_never_the_level(
    demo: Engine, question: str
) -> None:
    result = ask(demo, question)
    assert found(result) == [], result.answer
    assert _looked_for(result) == ["REVENUE_YOY"], result.answer
    assert "241.1" not in result.answer and "2023H2" in result.answer, result.answer
    assert result.sources == [] and result.changes == []


def test_a_change_with_no_growth_held_is_declined_naming_the_change(demo: Engine) -> None:
    result = ask(demo, "How much did Taiwan's operating profit change between 2022 and 2023?")
    assert found(result) == [], result.answer
    assert _looked_for(result) == ["OPERATING_PROFIT"], result.answer  # the FY2022 level
    assert "the change in Taiwan operating profit from FY2022 to FY2023" in result.answer
    assert "21" not in result.answer.replace("2022", "").replace("2023", ""), result.answer


def test_a_change_between_periods_of_two_kinds_gives_neither_level(demo: Engine) -> None:
    result = ask(
        demo, "How much did Hong Kong's revenue grow from FY2023 to the second half of 2024?"
    )
    assert result.tool_results == [] and result.sources == [], result.answer
    assert "the two periods are not comparable" in result.answer, result.answer
    assert "241.1" not in result.answer and "410" not in result.answer


@pytest.mark.parametrize(
    ("question", "shown"),
    [
        ("How much did Hong Kong's revenue grow in 2024?", "+45 million USD"),  # both held
        ("香港2024年收入比上年增加了多少?", "+45 百万美元"),  # the same in Chinese
    ],
)
def test_a_change_both_levels_make_is_given_with_both_levels(
    demo: Engine, question: str, shown: str
) -> None:
    result = ask(demo, question)
    assert found(result) == ["REVENUE", "REVENUE"], result.answer
    assert shown in result.answer and result.changes == ["REVENUE"]


def test_levels_asked_are_given_even_where_one_is_missing(demo: Engine) -> None:
    """Two levels asked (no change): the held one is the answer to its half of the question."""
    result = ask(
        demo,
        "What was Hong Kong's revenue in the second half of 2024 and in the second half of 2023?",
    )
    assert found(result) == ["REVENUE"] and "241.1" in result.answer, result.answer
