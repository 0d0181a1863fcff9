"""A word glued before the counted noun (agent/counts.py): the count's own words (physical,
Taiwan, ACME) still ask the count metric; any other word makes another kind of thing (cold
stores, flagship stores), declined by the kind with its noun, never answered with the count."""

from __future__ import annotations

import pytest

from ragspine.agent.counts import count_matches
from ragspine.engine import Engine
from ragspine.profile import default_profile
from tests.agent.asking import ask, found


@pytest.mark.parametrize(
    ("text", "counted"),
    [
        ("how many stores does acme have", ["STORE_COUNT"]),  # the noun alone
        ("how many physical stores does acme have", ["STORE_COUNT"]),  # the store itself
        ("how many of its stores are in taiwan", ["STORE_COUNT"]),  # function words
        ("how many acme taiwan stores are there", ["STORE_COUNT"]),  # the company, an entity
        ("how many cold stores does acme run", []),  # a warehouse, another kind of thing
        ("how many flagship stores does acme have", []),  # a format: a part, not the count
    ],
)  # fmt: skip
def test_only_the_counts_own_words_stand_before_its_noun(text: str, counted: list[str]) -> None:
    assert [m.code for _, m in count_matches(text, default_profile())] == counted


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # cold stores for chilled goods are warehouses, not the store count
        ("How many cold stores does ACME run for its chilled and frozen goods?", "cold stores"),
        # a store format is a part of the network: its count is not held
        ("How many flagship stores does ACME have?", "flagship stores"),
    ],
)  # fmt: skip
def test_another_kind_is_declined_by_its_name(demo: Engine, question: str, name: str) -> None:
    result = ask(demo, question)
    assert found(result) == [], result.answer
    assert f"“{name}”" in result.answer, result.answer
    assert "876" not in result.answer


def test_the_stores_themselves_are_still_counted(demo: Engine) -> None:
    result = ask(demo, "How many physical stores did ACME have in Taiwan in 2024?")
    assert found(result) == ["STORE_COUNT"], result.answer


# The noun written first and "how many" after a verb of having (a learner's word order), and a
# bare 多少家 closing the clause where the profile's one count taking 家 is its stores.
@pytest.mark.parametrize(
    ("text", "counted"),
    [
        ("acme taiwan store have how many at 2024 year end?", ["STORE_COUNT"]),  # noun first
        ("the stores has how many in 2024", ["STORE_COUNT"]),
        ("stores have how many employees", ["EMPLOYEES"]),  # how many names its own noun
        ("stores have how much revenue", []),  # not a count
        ("中国内地2024年底还剩多少家?", ["STORE_COUNT"]),  # 家 alone: the stores
        ("香港2024年有几家?", ["STORE_COUNT"]),
        ("香港2024年关了多少家?", []),  # closures: another quantity
        ("香港2024年新开多少家?", []),  # openings too
        ("多少家供应商", []),  # a noun after 家: that noun's count, not the stores
    ],
)  # fmt: skip
def test_a_count_asked_without_its_noun_after_how_many(text: str, counted: list[str]) -> None:
    assert [m.code for _, m in count_matches(text, default_profile())] == counted
