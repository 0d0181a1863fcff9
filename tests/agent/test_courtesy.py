"""Greetings, sign-offs and a scene-setting clause are no part of what is asked
(agent/courtesy.py): "Many" of "Many thanks" is no name, 收入 of 收入复盘会 is no metric asked;
but a clause that says what is asked of (在香港,请问…) or asks itself is kept."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.courtesy import asked_part
from ragspine.agent.intent import parse_intent
from ragspine.profile import default_profile
from tests.agent.asking import ask, found


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        # a scene-setting clause and its hand-over
        ("刚开完收入复盘会,顺便问一下:香港2024年的经营利润率是多少?",
         "香港2024年的经营利润率是多少?"),
        ("剛開完收入覆盤會,順便問一下:香港2024年的經營利潤率是多少?",
         "香港2024年的經營利潤率是多少?"),
        ("Just out of the revenue review, quick question: what was Taiwan's net profit in 2024?",
         "what was Taiwan's net profit in 2024?"),
        # a greeting and a sign-off (with a signature)
        ("Hi, hope you're well! What was Taiwan's revenue in 2024? Many thanks.",
         "What was Taiwan's revenue in 2024?"),
        ("Hello team, what was Taiwan's revenue in 2024? Thanks, Tom",
         "what was Taiwan's revenue in 2024?"),
        ("你好,香港2024年的收入是多少?谢谢!", "香港2024年的收入是多少?"),
        ("请问香港2024年的收入是多少?", "香港2024年的收入是多少?"),  # a hand-over alone
    ],
)  # fmt: skip
def test_what_is_said_around_the_question_is_blanked(question: str, kept: str) -> None:
    read = asked_part(question, default_profile())
    assert len(read) == len(question)  # every other character where it was
    assert read.strip() == kept


@pytest.mark.parametrize(
    "question",
    [
        "在香港,请问2024年的收入是多少?",  # the clause names the entity asked of
        "2024年,请问香港的收入是多少?",  # the clause names the period
        "香港2024年收入是多少,顺便问一下台湾呢?",  # the clause asks itself
        "关于毛利率,请问香港2024年是多少?",  # the metric is the clause's: the rest names none
        "What was Taiwan's revenue in 2024? In Hong Kong, please.",  # no sign-off after the ?
        "收入复盘会上讨论的香港2024年收入是多少?",  # no hand-over: the whole is the question
    ],
)  # fmt: skip
def test_a_clause_that_says_what_is_asked_is_kept(question: str) -> None:
    assert asked_part(question, default_profile()) == question


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "metric", "figure"),
    [
        ("demo", "刚开完收入复盘会,顺便问一下:香港2024年的经营利润率是多少?", "OPERATING_MARGIN",
         "14.2"),
        ("jinyu", "Hi, hope you're well! When you get a moment, by what percentage did Jinyu's "
         "cash and cash equivalents change in 2021? Many thanks.", "CASH_EQUIVALENTS_GROWTH",
         "10.48"),
        ("demo", "Hello team, what was Taiwan's revenue in 2024? Thanks, Tom", "REVENUE", "228"),
    ],
)  # fmt: skip
def test_a_courteous_question_is_answered(
    request: pytest.FixtureRequest, which: str, question: str, metric: str, figure: str
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert found(result) == [metric], result.answer
    assert figure in result.answer


def test_the_raw_question_is_kept_in_the_intent() -> None:
    question = "Hi, what was Taiwan's revenue in 2024? Many thanks."
    intent = parse_intent(question, date(2025, 6, 30))
    assert intent.raw_question == question and intent.subjects == []  # "Many" is no name
