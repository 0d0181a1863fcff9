"""Issue 27, class 3: a plan a figure is asked of (employee share ownership plan, 员工持股计划)
is named by the words before its head; passages about some other plan never answer it, so where
no passage names it the answer is an honest not-found naming it, in the question's language."""

from __future__ import annotations

import re
from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.agent.subjects import NAME
from ragspine.engine import Engine

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "plan"),
    [
        # English: the content words before the head are the plan's name
        ("How much did ACME's employee share ownership plan pay out to staff in 2024?",
         "employee share ownership plan"),
        ("How much did ACME's customer loyalty programme cost in 2024?",
         "customer loyalty programme"),
        ("How much did ACME spend on its carbon reduction plan in 2024?", "carbon reduction plan"),
        # Chinese: the run before 计划, less the frame (的, 2024年)
        ("ACME的员工持股计划2024年向员工支付了多少钱?", "员工持股计划"),
        ("ACME的社区回馈计划2024年投入了多少资金?", "社区回馈计划"),
        # the head alone names nothing: a document question's frame word
        ("How much did ACME's plan cost in 2024?", None),
        # 计划 as a verb, after a period: no words of a name before it
        ("ACME 2025年计划开多少家店?", None),
        # no figure asked: a document question about the company's plans stays as it was
        ("What is ACME's store expansion plan for Taiwan?", None),
    ],
)  # fmt: skip
def test_the_plan_a_figure_is_asked_of(question: str, plan: str | None) -> None:
    intent = parse_intent(question, REF)
    names = [s.name for s in intent.subjects if s.kind == NAME]
    assert names == ([plan] if plan else []), intent.subjects


@pytest.mark.parametrize(
    ("question", "named"),
    [
        # no document names the plan: other plans (a supplier improvement plan) never answer
        ("How much did ACME's employee share ownership plan pay out to staff in 2024?",
         "employee share ownership plan"),
        ("ACME的员工持股计划2024年向员工支付了多少钱?", "员工持股计划"),  # the same in Chinese
    ],
)  # fmt: skip
def test_a_plan_no_passage_names_is_not_found_by_its_name(
    demo: Engine, question: str, named: str
) -> None:
    result = demo.ask(question, reference_date=REF, clearance="INTERNAL")
    assert result.sources == [], result.answer
    assert named in result.answer
    assert re.search(r"\d", result.answer) is None, result.answer


def test_a_plan_a_passage_names_is_held_to_what_is_asked_of_it(demo: Engine) -> None:
    # the ESG report names the scholarship programme, never its cost: both are said
    question = "How much did ACME's scholarship programme cost in 2024?"
    result = demo.ask(question, reference_date=REF, clearance="INTERNAL")
    assert result.sources == [], result.answer
    assert "scholarship programme" in result.answer and "cost" in result.answer
