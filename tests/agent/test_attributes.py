"""Lane 27-G, class 1: a document question asking an attribute of a subject (how many times, how
many items, a name, a date) is answered only where one passage holds the subject's words and the
attribute's kind; words spread over passages about something else are an honest not-found
naming the subject, in the question's language."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.attributes import (
    COUNT,
    DATE,
    NAME,
    TIMES,
    Unanswered,
    asked_attribute,
    unanswered,
)
from ragspine.engine import Engine
from ragspine.profile import default_profile


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How many times did the board meet in 2024?", TIMES),  # a count of events
        ("How often does the Sustainability Committee meet?", TIMES),  # how often: events too
        ("审计委员会2024年开了几次会?", TIMES),  # 几次
        ("检查发现了几项缺陷?", COUNT),  # 几 + a classifier: a count of items
        ("How many patents did Jinyu file?", COUNT),  # how many + a noun
        ("What is the name of the sorting robot?", NAME),  # a name asked
        ("这款机器人叫什么名字?", NAME),  # 叫什么名字
        ("In what year was the hub opened?", DATE),  # a date asked
        ("积分什么时候过期?", DATE),  # 什么时候
        ("Why did Hong Kong revenue fall?", None),  # a reason: no attribute
        ("公司2024年的捐款是多少?", None),  # an amount: a name's figure is judged elsewhere
    ],
)  # fmt: skip
def test_the_attribute_a_question_asks(question: str, kind: str | None) -> None:
    found = asked_attribute(question)
    assert (found[0] if found else None) == kind


@pytest.mark.parametrize(
    ("question", "passages", "expected"),
    [
        ("How many times did ACME's Audit Committee meet in 2024?",
         ["Complaints are overseen by the Audit Committee.",
          "The Sustainability Committee meets at least four times a year."],
         Unanswered(TIMES, "Audit Committee")),  # the subject in one passage, a count in another
        ("How many times did ACME's Audit Committee meet in 2024?",
         ["In 2024 the Audit Committee met regularly."],
         Unanswered(TIMES, "Audit Committee")),  # every word, but the only number is a year
        ("What is the name of the sorting robot at the hub?",
         ["The hub uses automated sortation."],
         Unanswered(NAME, "sorting robot")),  # robot: in no passage, named by its phrase
        ("检查发现了几项缺陷?", ["公司通过了检查。", "内部控制不存在重大缺陷。"],
         Unanswered(COUNT, "检查发现")),  # 检查 and 缺陷 apart; 发现 in none: its phrase
    ],
)  # fmt: skip
def test_no_one_passage_holding_both_is_a_not_found_naming_the_subject(
    question: str, passages: list[str], expected: Unanswered
) -> None:
    assert unanswered(question, default_profile(), passages) == expected


@pytest.mark.parametrize(
    ("question", "passages"),
    [
        ("How many times did ACME's Audit Committee meet in 2024?",
         ["The Audit Committee met six times in 2024."]),  # subject and count together
        ("How often does the Sustainability Committee meet?",
         ["The Sustainability Committee meets at least four times a year."]),  # four: a count
        ("What is the name of the sorting robot at the hub?",
         ["The hub's sorting robot, Kestrel, was installed in May."]),  # the words together
        ("In what year was the Chengdu hub opened?",
         ["The Chengdu hub opened in 2021."]),  # a year dates it
        ("How many times did ACME's Audit Committee meet in 2024?",
         ["审计委员会召开了四次会议。"]),  # another script: not judged (the words may differ)
        ("Why did the Audit Committee meet?", ["Nothing about it."]),  # no attribute asked
        ("How many times did ACME's Audit Committee meet?", []),  # nothing retrieved: elsewhere
        ("How many times did the Audit Committee convene in 2024?",
         ["The Audit Committee met six times."]),  # the verb after did: in another form
    ],
)  # fmt: skip
def test_one_passage_holding_the_subject_and_the_kind_answers(
    question: str, passages: list[str]
) -> None:
    assert unanswered(question, default_profile(), passages) is None


@pytest.fixture(scope="module")
def acme(demo_db: Path, demo_corpus: Path) -> Iterator[Engine]:
    with Engine.open(demo_db, demo_corpus) as e:
        yield e


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("How many times did ACME's Audit Committee meet in 2024?",
         "Audit Committee"),  # named for whistleblowing; "four times" is another committee's
        ("What is the name of the sorting robot used at ACME's Pearl River Delta distribution "
         "hub?", "sorting robot"),  # the hub is named, no robot is
    ],
)  # fmt: skip
def test_the_demo_says_not_found_naming_the_subject(
    acme: Engine, question: str, named: str
) -> None:
    result = acme.ask(question, reference_date=date(2025, 6, 30), clearance="INTERNAL")
    assert result.sources == [] and named in result.answer, result.answer
    assert "four" not in result.answer
    assert result.trace.codes["narrative"] == "no_attribute"


@pytest.mark.parametrize(
    "question",
    [
        "How often does the Sustainability Committee meet?",  # four times a year, one passage
        "When do ACME Club points expire?",  # the expiry and its months, one passage
    ],
)  # fmt: skip
def test_the_demo_still_answers_an_attribute_one_passage_holds(acme: Engine, question: str) -> None:
    result = acme.ask(question, reference_date=date(2025, 6, 30), clearance="INTERNAL")
    assert result.sources, result.answer


def test_jinyu_says_not_found_for_an_inspection_no_passage_describes(jinyu: Engine) -> None:
    question = "農業農村部2020年對金宇生物進行GMP飛行檢查,發現了幾項缺陷?"
    result = jinyu.ask(question, reference_date=date(2022, 6, 30), clearance="INTERNAL")
    assert result.sources == [] and "飛行檢查" in result.answer, result.answer
    assert "检索到的文档中没有一段同时提到" in result.answer  # in the question's language
