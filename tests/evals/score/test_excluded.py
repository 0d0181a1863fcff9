"""The harness's own reading of a part the question leaves out (score/excluded.py), scored on
records: a figure of the part left out, or of the total channel holding it, fails the
``asked_quantity`` check, naming what was left out; a figure of the part asked does not."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.evals.audit.names import SlotNames
from ragspine.evals.run.runner import slot_names
from ragspine.profile import default_profile
from tests.evals.score.test_scorers import FACT, _case, _checks, _seen


@pytest.fixture(scope="module")
def names() -> SlotNames:
    return slot_names(default_profile())


def _check(names: SlotNames, question: str, entity: str, channel: str) -> Any:
    fact = FACT | {"entity": entity, "channel": channel}
    seen = _seen(question=question, tool_results=[fact], names=names)
    return _checks(_case(), seen).get("asked_quantity")


@pytest.mark.parametrize(
    ("question", "entity", "channel", "why"),
    [
        # the channel left out, answered
        ("What were the group's 2024 sales, not including online?", "ACME_GROUP", "ONLINE",
         "answered channel ONLINE, asked not including online"),
        # the same in Chinese, 除…以外
        ("集团2024年除线上以外的收入是多少?", "ACME_GROUP", "ONLINE", "answered channel ONLINE"),
        # the total holds the channel left out
        ("集团2024年不含线上的收入是多少?", "ACME_GROUP", "TOTAL", "the total holds it"),
        # an entity left out, answered
        ("What was revenue in 2024 in regions other than Hong Kong?", "ACME_HK", "TOTAL",
         "answered entity ACME_HK, asked other than hong kong"),
        # listed with the part left out
        ("除香港和台湾外,2024年哪个地区收入最高?", "ACME_TW", "TOTAL", "answered entity ACME_TW"),
    ],
)  # fmt: skip
def test_a_figure_of_the_part_left_out_is_another_quantity(
    names: SlotNames, question: str, entity: str, channel: str, why: str
) -> None:
    check = _check(names, question, entity, channel)
    assert check is not None and not check.passed, check
    assert why in check.why, check.why


@pytest.mark.parametrize(
    ("question", "entity", "channel"),
    [
        # the one other channel: what was asked
        ("What were the group's 2024 sales, not including online?", "ACME_GROUP", "OFFLINE"),
        # the channel asked, no cue
        ("What were the group's 2024 online sales?", "ACME_GROUP", "ONLINE"),
        # the cue before no part's name: nothing is left out
        ("Excluding the rent, what was Hong Kong's net profit in 2024?", "ACME_HK", "TOTAL"),
        # another entity than the one left out
        ("除香港以外,台湾2024年的收入是多少?", "ACME_TW", "TOTAL"),
        # an entity left out: the total channel is no part of it
        ("What was revenue in 2024 in regions other than Hong Kong?", "ACME_CN", "TOTAL"),
    ],
)  # fmt: skip
def test_a_figure_of_the_part_asked_passes(
    names: SlotNames, question: str, entity: str, channel: str
) -> None:
    check = _check(names, question, entity, channel)
    assert check is not None and check.passed, check.why
