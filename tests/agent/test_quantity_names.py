"""A share asked of a part the whole's members are written as (quantity_names.part_share_name):
declined by the share, the whole and the part, without the verb and without the company's name
(intent: the company's possessive owns the whole, it is not the whole)."""

from __future__ import annotations

import pytest

from ragspine.engine import Engine
from tests.agent.asking import ask, found


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # where the members are: the verb goes, the place stays
        ("What share of Jinyu's employees worked in production in 2020?",
         "share of employees in production"),
        # what they hold
        ("What percentage of Jinyu's employees held a master's degree in 2020?",
         "percentage of employees with master's degree"),
        # what they are
        ("What share of Jinyu's employees are women?", "share of women among employees"),
    ],
)  # fmt: skip
def test_a_share_of_a_part_no_metric_names_is_declined_by_share_whole_and_part(
    jinyu: Engine, question: str, name: str
) -> None:
    result = ask(jinyu, question)
    assert result.tool_results == [] and result.clarification.declined == name, result.answer
    assert f"“{name}”" in result.answer and "Jinyu's" not in result.clarification.declined


def test_a_share_of_a_part_the_profile_holds_is_answered(jinyu: Engine) -> None:
    # negative: the part is a metric (R&D staff): the held share, not a decline
    result = ask(jinyu, "What proportion of Jinyu's employees were R&D staff in 2020?")
    assert found(result) and result.clarification.declined == ""
