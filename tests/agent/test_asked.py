"""What a question asks of a name the profile does not know (首席执行官的薪酬, Project
Evergreen's cost): the documents must name it as well as the name; passages that name the role
but not its pay answer another question, so the answer is an honest not-found naming both, in
the question's language. A question asking nothing but the name (its progress) is held to the
name only; a document question in another language than a passage is not judged by its words."""

from __future__ import annotations

import re
from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.agent.subjects import QUANTITY
from ragspine.engine import Engine

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("ACME首席执行官2024年的薪酬是多少?", "薪酬"),  # a role's pay
        ("猎鹰计划2024年的预算是多少?", "预算"),  # a programme's budget (算 is no frame here)
        ("青松项目的交易对价是多少?", "交易对价"),  # a deal's price
        ("How much did Project Evergreen cost?", "cost"),  # English
        ("ACME首席执行官2024年的年薪是多少?", "年薪"),  # 年 is the word's, not a period's
        ("ACME首席执行官的薪酬是怎么确定的?", "薪酬"),  # a document question asking of the pay
        ("青松项目的买方是谁?", "买方"),  # 是谁 is the frame
        # nothing but the name asked: a document question's own words (进展, 如何) are its frame;
        # a metric question is declined by the name, on the structured route
        ("青松项目的进展如何?", None),
        ("猎鹰计划2024年的收入是多少?", None),
    ],
)  # fmt: skip
def test_the_quantity_a_figure_asks_of_a_name(question: str, asked: str | None) -> None:
    intent = parse_intent(question, REF)
    quantities = [s.name for s in intent.subjects if s.kind == QUANTITY]
    assert quantities == ([asked] if asked else []), intent.subjects


def _ask(demo: Engine, question: str, clearance: str) -> tuple[str, list[str]]:
    result = demo.ask(question, reference_date=REF, clearance=clearance)
    return result.answer, [s["doc"] for s in result.sources]


@pytest.mark.parametrize(
    ("question", "clearance", "named"),
    [
        # the PIPL guideline names the chief executive (who receives reports), never his pay
        ("ACME首席执行官2024年的薪酬是多少?", "INTERNAL", ["首席执行官", "薪酬"]),
        # the board minutes name Project Evergreen, never its price
        ("青松项目的交易对价是多少?", "RESTRICTED", ["青松项目", "交易对价"]),
        ("How much did Project Evergreen cost?", "RESTRICTED", ["Project Evergreen", "cost"]),
        # a document question about the pay: the guideline's line about the role is not it
        ("ACME首席执行官的薪酬是怎么确定的?", "INTERNAL", ["首席执行官", "薪酬"]),
    ],
)  # fmt: skip
def test_passages_naming_the_subject_but_not_the_quantity_are_not_the_answer(
    demo: Engine, question: str, clearance: str, named: list[str]
) -> None:
    answer, docs = _ask(demo, question, clearance)
    assert docs == [], answer
    assert all(n in answer for n in named), answer
    assert re.search(r"\d", answer) is None, answer


@pytest.mark.parametrize(
    ("question", "clearance", "doc"),
    [
        # the minutes name both the chief executive and his pay: they answer
        ("ACME首席执行官2024年的薪酬是多少?", "RESTRICTED", "ACME_Board_Minutes_2024Q4.md"),
        # no figure asked: the passages about the project answer
        ("青松项目的进展如何?", "RESTRICTED", "ACME_Board_Minutes_2024Q4.md"),
        # a phrase the question coins (排他性谈判期) is named by its pieces (排他性谈判)
        ("青松项目的排他性谈判期是多久?", "RESTRICTED", "ACME_Board_Minutes_2024Q4.md"),
        ("ACME首席执行官的薪酬是怎么确定的?", "RESTRICTED", "ACME_Board_Minutes_2024Q4.md"),
        # a document question in English over Chinese minutes: "status" is not judged by their
        # words (a figure question is: Project Evergreen's cost above)
        ("What is the status of Project Evergreen?", "RESTRICTED", "ACME_Board_Minutes_2024Q4.md"),
    ],
)  # fmt: skip
def test_passages_naming_the_subject_and_what_is_asked_answer(
    demo: Engine, question: str, clearance: str, doc: str
) -> None:
    answer, docs = _ask(demo, question, clearance)
    assert doc in docs, answer
