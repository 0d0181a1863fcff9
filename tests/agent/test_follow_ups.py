"""A yes/no question followed by a how-many one about the same thing (follow_ups.py): the
documents' account of the thing the yes/no asked of, a not-found naming it where no passage
holds it, never "which metric?"."""

from __future__ import annotations

import pytest

from ragspine.agent.asked_objects import asked_object
from ragspine.agent.follow_ups import yes_no_then_count
from ragspine.engine import Engine
from ragspine.profile import default_profile
from ragspine.text import fold
from tests.agent.asking import ask


@pytest.mark.parametrize(
    ("question", "first"),
    [
        # whether, then how many of its parts: the yes/no sentence
        ("ACME有没有员工通勤班车?有几条线路?", "acme有没有员工通勤班车?"),
        # 吗 ending the first, 多少 in the second
        ("ACME提供员工宿舍吗?一共有多少间?", "acme提供员工宿舍吗?"),
        # English: an auxiliary opens the first, how many the second
        ("Does ACME run a staff bus? How many routes?", "does acme run a staff bus?"),
        # one sentence: no follow-up
        ("ACME有没有员工通勤班车?", None),
        # how many first, yes/no after: not this shape
        ("ACME有几条班车线路?有没有夜班车?", None),
        # two how-many sentences, no yes/no
        ("香港有多少家门店?台湾有多少家?", None),
        # a yes/no then a what-is: not a count
        ("ACME有没有员工通勤班车?线路是什么?", None),
    ],
)  # fmt: skip
def test_a_yes_no_then_a_how_many(question: str, first: str | None) -> None:
    assert yes_no_then_count(fold(question)) == first


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        # the thing asked of is the yes/no sentence's, not the follow-up's parts
        ("ACME有没有为员工提供通勤班车?有几条线路?", ("班车", "通勤班车")),
        ("Does ACME run a staff shuttle bus? How many routes?", ("bus", "staff shuttle bus")),
        # one sentence: as before
        ("ACME是否提供免费停车?", ("停车", "免费停车")),
    ],
)  # fmt: skip
def test_the_thing_is_the_yes_no_sentences(question: str, asked: tuple[str, str] | None) -> None:
    assert asked_object(question, default_profile()) == asked


@pytest.mark.stores
def test_an_unheld_thing_asked_then_counted_is_not_found_by_name(jinyu: Engine) -> None:
    result = ask(jinyu, "金宇生物有沒有為員工提供上下班的通勤班車?有幾條線路?")
    assert "通勤班" in result.answer and "哪个指标" not in result.answer, result.answer
    assert result.tool_results == [], result.answer


@pytest.mark.stores
def test_a_held_count_after_a_yes_no_is_still_queried(jinyu: Engine) -> None:
    result = ask(jinyu, "金宇生物有没有硕士?硕士及以上人数有多少?")  # a held count named
    assert [r["normalized"]["metric_code"] for r in result.tool_results] == ["MASTERS_AND_ABOVE"]  # type: ignore[typeddict-item]
