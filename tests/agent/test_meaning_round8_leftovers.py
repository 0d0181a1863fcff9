"""Issue 27 round 8 leftovers, by class: a growth word governing "in/of <metric>" or restating a
growth metric's kind is that growth; a clause restricting what a count counts blocks the count;
a figure asked of a name is held to a passage naming both; a half-year report, a single quarter
and a compass abbreviation are read as the period and the region they name. Each class with rows
where the words do not apply, so the rule never turns a question into another quantity."""

from __future__ import annotations

import pytest

from ragspine.agent.scope import out_of_scope
from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.periods import Period
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("What was the yoy growth in Hong Kong revenue in 2024?", "REVENUE_YOY"),  # growth in X
        ("What was the growth of Southeast Asia gross profit in 2024?", "GROSS_PROFIT_YOY"),  # of
        ("What was Hong Kong's yoy revenue growth in 2024?", "REVENUE_YOY"),  # yoy restates it
        ("What was Hong Kong's revenue growth yoy in 2024?", "REVENUE_YOY"),  # yoy after it
        ("What was the year-on-year growth of Taiwan revenue in 2024?", "REVENUE_YOY"),  # spelt
    ],
)  # fmt: skip
def test_a_growth_word_governing_the_metric_asks_its_growth(
    question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == [metric] and intent.declined is None, intent


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("What was Hong Kong revenue in 2024?", "REVENUE_YOY"),  # no growth word: the level
        ("Despite the growth in Taiwan, what was Hong Kong revenue in 2024?", "REVENUE_YOY"),  # of
        # another entity, not the metric
        ("What was the percentage change in Hong Kong's revenue growth in 2024?", "REVENUE_YOY"),
        # a growth noun of its own: a change of the growth, never the growth
        ("What was the yoy growth in Hong Kong same-store sales growth in 2024?", "SSSG"),
        # a growth of a growth: its change over two years in points (lane 27-G), never the level
    ],
)  # fmt: skip
def test_a_growth_word_elsewhere_or_of_a_growth_is_not_that_growth(
    question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert metric not in intent.metrics or (intent.change and len(intent.periods) == 2), intent


@pytest.mark.parametrize(
    ("which", "question", "period"),
    [
        ("acme", "香港2024年中期業績中的毛利是多少?", "2024H1"),  # interim results, traditional
        ("acme", "香港2024年中期业绩的毛利是多少?", "2024H1"),  # simplified
        ("acme", "What was Hong Kong's gross profit in the 2024 interim results?", "2024H1"),
        ("acme", "Hong Kong gross profit in the interim report for 2024?", "2024H1"),  # for YEAR
        ("jy", "金宇生物2020年半年报的营业收入是多少?", "2020H1"),  # 半年报: the half-year report
        ("acme", "集团2024年Q4单季毛利是多少?", "2024Q4"),  # 单季 restates the quarter
        ("acme", "集团2024年第四单季的毛利是多少?", "2024Q4"),  # 第四单季
    ],
)  # fmt: skip
def test_a_half_year_report_or_a_single_quarter_is_that_period(
    which: str, question: str, period: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics and intent.periods == [Period(period[4], period)], intent
    assert intent.declined is None and not intent.subjects, intent


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("集团2024年毛利是多少?", "FY"),  # no interim word: the year
        ("集团2024年的中期目标毛利是多少?", "FY"),  # 中期 without a report word: mid-term
        ("集团2024年第四季度毛利是多少?", "Q"),  # a quarter written plainly stays one
    ],
)  # fmt: skip
def test_no_interim_word_keeps_the_period_written(
    question: str, kind: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert all(p.period_type == kind for p in intent.periods), intent


@pytest.mark.parametrize(
    ("question", "entity"),
    [
        ("How many stores did ACME have in SE Asia at the end of 2023?", "ACME_SEA"),  # SE
        ("What was SE Asia revenue in 2024?", "ACME_SEA"),  # attributive
    ],
)  # fmt: skip
def test_a_compass_abbreviation_names_the_region(
    question: str, entity: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.entities == [entity] and intent.metrics, intent


def test_initials_alone_name_no_region(jy: DomainProfile) -> None:
    intent = parse_for("acme", "What was SE revenue in 2024?", jy)  # SE with no region word
    assert "ACME_SEA" not in intent.entities, intent


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("ACME有多少家门店获得了LEED绿色建筑认证?", "LEED绿色建筑认证"),  # a predicate restricts
        ("ACME有多少家门店配备了自助收银机?", "自助收银机"),  # 配备了
        ("How many stores have LEED certification?", "LEED certification"),  # stores have X
        ("How many stores with self-checkout did ACME have in 2024?", "self-checkout"),  # with X
        ("How many stores that offer pharmacy services did ACME run in 2024?", "pharmacy"),
    ],
)  # fmt: skip
def test_a_clause_restricting_what_is_counted_blocks_the_count(
    question: str, named: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == [] and intent.declined and named in intent.declined, intent


@pytest.mark.parametrize(
    "question",
    [
        "2024年香港有多少家门店?",  # no clause: the count
        "ACME有多少家门店在香港?",  # a place after the count: read as the entity
        "How many stores did ACME have in Hong Kong at the end of 2024?",  # have: the main verb
        "How many stores did ACME have at the end of 2024?",
    ],
)
def test_a_count_with_no_restricting_clause_is_the_count(question: str, jy: DomainProfile) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == ["STORE_COUNT"] and intent.declined is None, intent


@pytest.mark.parametrize(
    ("question", "company"),
    [
        ("香港2024年中期業績中的毛利是多少?", None),  # a half-year's report names a period
        ("香港2024年中报的毛利是多少?", None),  # 中报: the same
        ("2019年特变电工利息收入是多少?", "特变电工"),  # another company after a year, still
    ],
)  # fmt: skip
def test_a_half_year_report_names_no_company(question: str, company: str | None) -> None:
    found = out_of_scope(question, default_profile())
    assert (found.name if found else None) == company, found
