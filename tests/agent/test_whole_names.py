"""A decline names the maximal noun phrase the unexplained words belong to (whole_names.py): a
proper name whole, a qualifier written in brackets after the metric with the metric, an
organisation with its kind word and what the question counts of it."""

from __future__ import annotations

import re
from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.engine import Engine
from ragspine.profile import default_profile

ACME = default_profile()
REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # a metric word inside a capitalised proper name: the whole name, its kind word included
        ("How much did ACME pay the Inland Revenue Department in Hong Kong for 2024?",
         "Inland Revenue Department"),
        # a proper name joined by "of": one name (Department of Inland Revenue)
        ("How much did ACME pay the Department of Inland Revenue in 2024?",
         "Department of Inland Revenue"),
        # negative: lower case words are no proper name, the phrase stays as the parser read it
        ("What was Hong Kong's deferred revenue in 2024?", "deferred revenue"),
    ],
)  # fmt: skip
def test_a_declined_quantity_inside_a_proper_name_is_named_by_the_whole_name(
    question: str, declined: str
) -> None:
    intent = parse_intent(question, REF, profile=ACME)
    assert intent.metric is None
    assert intent.declined == declined


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # a qualifier in brackets after the metric makes another quantity: both, as one phrase
        ("集团2024年的毛利(扣除门店租金后)是多少?", "扣除门店租金后的毛利"),
        # the same in English: the metric with the bracket's words after it
        ("What was the group's 2024 gross profit (after store rent)?",
         "gross profit after store rent"),
    ],
)  # fmt: skip
def test_a_qualifier_in_brackets_after_the_metric_is_declined_with_the_metric(
    question: str, declined: str
) -> None:
    intent = parse_intent(question, REF, profile=ACME)
    assert intent.metrics == []
    assert intent.unknown_subject is None
    assert intent.declined == declined


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        # a unit in brackets says how the figure is written: the metric still answers
        ("集团2024年的毛利(百万美元)是多少?", "GROSS_PROFIT"),
        # a period in brackets: when, not another quantity
        ("香港的收入(2024年)是多少?", "REVENUE"),
        # the metric's other name in brackets restates it
        ("集团2024年的毛利(gross profit)是多少?", "GROSS_PROFIT"),
        # an entity in brackets: whose figure
        ("2024年的收入(香港)是多少?", "REVENUE"),
        # the report's own basis (consolidated, net of VAT) is what the held figure already is
        ("集团2024年的收入(经审计)是多少?", "REVENUE"),
    ],
)  # fmt: skip
def test_a_bracket_every_word_of_which_is_read_leaves_the_metric(
    question: str, metric: str
) -> None:
    intent = parse_intent(question, REF, profile=ACME)
    assert intent.metric == metric
    assert intent.declined is None


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # what is counted belongs to the organisation named before it: both, the verb after left
        ("門店網絡委員會由多少名成員組成?", "門店網絡委員會成員"),
        # an organisation's kind word of the company's own (研发中心) is named with it the same way
        ("研发中心由多少名工程师组成?", "研发中心工程师"),
        # negative: no organisation before the counted words: the counted words alone
        ("ACME的区域经理有多少人?", "区域经理"),
    ],
)  # fmt: skip
def test_a_count_of_an_organisations_members_is_named_with_the_organisation(
    question: str, declined: str
) -> None:
    intent = parse_intent(question, REF, profile=ACME)
    assert intent.metric is None
    assert intent.declined == declined


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # a held metric's alias used for another term (a franchise's revenue share) that no
        # passage holds: the not-found names the quantity the question declined, no figure
        ("What revenue share does ACME receive from its franchise partner in the Philippines?",
         "revenue share"),
    ],
)  # fmt: skip
def test_a_declined_quantity_on_the_narrative_route_is_not_found_by_its_name(
    demo: Engine, question: str, name: str
) -> None:
    result = demo.ask(question, reference_date=REF, clearance="INTERNAL")
    assert result.tool_results == [] and result.sources == [], result.answer
    assert name in result.answer, result.answer
    assert re.search(r"\d", result.answer) is None, result.answer


def test_a_document_question_without_a_declined_quantity_still_names_nothing(
    demo: Engine,
) -> None:
    # negative: a document question (how, no figure asked, nothing declined) that no passage
    # answers keeps the not-found that names nothing (the caller may not be cleared for it)
    result = demo.ask(
        "How does ACME work with Project Zephyrine partners?",
        reference_date=REF,
        clearance="INTERNAL",
    )
    assert "Zephyrine" not in result.answer, result.answer
