"""Issue 27, round 2: the safety net and the classes the second fresh round found (questions in
other words than evals/meaning_fresh_2, on the demo and on 金宇生物).

1. an unexplained quantity-changing word (average, cumulative, deferred, policy, number of …)
   beside a matched metric declines the phrase by the question's words, never the metric's level;
2. a ratio asked as a multiple (X是Y的几倍, how many times Y was X) is the profile's ratio X / Y;
3. a share of the year (上半年占全年) is not a share of the group;
4. a sentence-initial capitalised common English word is not a name.
"""

from __future__ import annotations

import re

import pytest

from ragspine.engine import Engine
from tests.agent.asking import ask, formula_given, found


@pytest.mark.parametrize(
    ("which", "question", "name"),
    [
        ("demo", "台湾2024年月均毛利是多少?", "月均毛利"),  # an average per month
        (
            "demo",
            "What was Taiwan's average monthly net profit in 2024?",
            "average monthly net profit",
        ),  # the same in English
        ("demo", "东南亚2023年到2024年净利润累计是多少?", "净利润累计"),  # a cumulative sum
        (
            "demo",
            "How much deferred net profit did Taiwan report in 2024?",
            "deferred net profit",
        ),  # a metric word inside another noun phrase
        ("demo", "香港2024年毛利预算是多少?", "毛利预算"),  # a budget is not the actual
        (
            "demo",
            "What was Hong Kong's budgeted gross profit for 2024?",
            "budgeted gross profit",
        ),  # the same in English
        (
            "jy",
            "金宇生物2020年每月平均净利润是多少?",
            "每月平均净利润",
        ),  # 金宇生物, traditional below
        ("jy", "金宇生物2020年營業成本預測是多少?", "營業成本預測"),  # a forecast
    ],
)
def test_an_unexplained_modifier_declines_by_the_questions_words(
    which: str, question: str, name: str, demo: Engine, jinyu: Engine
) -> None:
    result = ask(demo if which == "demo" else jinyu, question)
    assert found(result) == [], result.answer
    assert result.sources == [], result.answer
    assert name in result.answer, result.answer


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("香港2024年的毛利确认政策是什么?", "毛利确认政策"),  # a policy about the metric
        ("What is Taiwan's store count recognition policy?", "store count recognition policy"),
    ],
)
def test_a_metric_inside_a_policy_name_is_never_its_figure(
    question: str, words: str, demo: Engine
) -> None:
    result = ask(demo, question)
    assert found(result) == [], result.answer
    assert not re.search(r"\d{3}", result.answer), result.answer


@pytest.mark.parametrize(
    ("question", "metric", "shown"),
    [
        ("2021年末金宇生物流动资产相当于流动负债的几倍?", "CURRENT_RATIO", ""),  # a multiple
        (
            "At the end of 2021, how many times its current liabilities were Jinyu's current "
            "assets?",
            "CURRENT_RATIO",
            "",
        ),  # the same in English, the whole named first
    ],
)
def test_a_ratio_asked_as_a_multiple_is_the_profiles_ratio(
    question: str, metric: str, shown: str, jinyu: Engine
) -> None:
    result = ask(jinyu, question)
    assert found(result) == [metric], result.answer
    assert formula_given(result)


def test_a_share_of_the_year_is_not_a_share_of_the_group(demo: Engine) -> None:
    result = ask(demo, "香港2024年上半年收入占全年收入的比例是多少?")  # a half of the year
    assert found(result) == [], result.answer
    assert "占全年" in result.answer, result.answer


@pytest.mark.parametrize(
    "question",
    [
        "Supposing that Taiwan's revenue rose, what was Taiwan's gross margin in 2024?",  # a verb
        "Excluding the rent, what was Hong Kong's net profit in 2024?",  # a preposition
    ],
)
def test_a_sentence_initial_common_word_is_not_a_name(question: str, demo: Engine) -> None:
    result = ask(demo, question)
    assert result.clarification.mode != "out_of_scope_entity", result.answer
    assert found(result), result.answer


@pytest.mark.parametrize(
    ("which", "question", "name"),
    [
        ("jy", "金宇生物实际控制人2020年的营业收入是多少?", "实际控制人"),  # another party's figure
        ("jy", "金宇生物2020年猪用疫苗产品的营业收入是多少?", "猪用疫苗产品"),  # a product line
        (
            "demo",
            "How much revenue did Taiwan's private-label product line earn in 2024?",
            "private-label product line",
        ),  # the same in English
    ],
)
def test_another_partys_or_a_parts_figure_is_declined_by_its_name(
    which: str, question: str, name: str, demo: Engine, jinyu: Engine
) -> None:
    result = ask(demo if which == "demo" else jinyu, question)
    assert found(result) == [], result.answer
    assert name in result.answer, result.answer


def test_a_premise_clause_is_context_not_a_figure_asked(demo: Engine) -> None:
    result = ask(demo, "Given that Taiwan's revenue rose, what was Taiwan's net margin in 2024?")
    assert found(result) == ["NET_MARGIN"], result.answer


def test_a_multiple_of_two_entities_gives_both_levels(demo: Engine) -> None:
    result = ask(demo, "2024年香港的毛利是台湾的几倍?")  # no ratio of entities: both operands
    assert found(result) == ["GROSS_PROFIT", "GROSS_PROFIT"], result.answer


def test_a_word_in_another_sentence_does_not_decline_the_metric(demo: Engine) -> None:
    result = ask(demo, "香港FY2024毛利是多少?董事会如何看待香港业务?")  # two questions, one each
    assert "GROSS_PROFIT" in found(result), result.answer


def test_a_multiple_of_two_metrics_no_ratio_holds_gives_both_levels(jinyu: Engine) -> None:
    result = ask(jinyu, "金宇生物2021年财务费用相当于管理费用的几倍?")  # no such ratio held
    assert sorted(found(result)) == ["ADMIN_EXPENSES", "FINANCE_EXPENSES"], result.answer
