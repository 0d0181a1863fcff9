"""Issue 27, round 10's wrong answers, by class.

1. A ratio asked with its percentage word first (how much percent is A in B, what percent is A
   of B): the ratio A / B, as its postposed form is, never the two levels;
2. 同比 glued after a metric that is itself a growth rate (同店同比): that growth, not its change;
3. a distinctive name (Bitcoin, USDA) no passage holds: an honest not-found naming it, for a
   yes/no question too;
4. a decline names the user's phrase: a hyphenated compound is one word (point-of-sale), a
   verb of spending names no quantity (spend on share buybacks: share buybacks).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.engine import Engine
from ragspine.profile import DomainProfile, load_profile
from tests.agent.asking import ask

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "metrics", "declined"),
    [
        # how much percent … in its revenue: net profit / revenue (the held NET_MARGIN)
        ("How much percent is Hong Kong net profit in its revenue for 2024?", ["NET_MARGIN"], None),
        # what percent … of: the same ratio, an owner with 's
        ("What percent is Hong Kong's net profit of its revenue in 2024?", ["NET_MARGIN"], None),
        # what percentage … of the group's revenue: a share of the group
        ("What percentage is Taiwan's 2024 revenue of the group's revenue?", ["REVENUE_SHARE"],
         None),
        # no formula of that shape: declined by the ratio's name, never the two levels
        ("What percent is Hong Kong's 2024 store count of its revenue?", [],
         "store count as a percentage of revenue"),
    ],
)  # fmt: skip
def test_a_ratio_asked_with_its_percentage_first_is_the_ratio(
    question: str, metrics: list[str], declined: str | None
) -> None:
    intent = parse_intent(question, REF)
    assert intent.metrics == metrics and intent.declined == declined, intent


@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        # a growth asked as a percentage, no second metric: the growth rate, as before
        ("How much percent did Hong Kong net profit grow in 2024?", ["NET_PROFIT_YOY"]),
        # what percent of the whole was the part: the part's ratio, as before
        ("What percentage of Hong Kong's 2024 revenue was net profit?", ["NET_MARGIN"]),
        # a percent word with no whole after the metric: the metric asked, not a ratio
        ("What is Hong Kong's 2024 net margin in percent?", ["NET_MARGIN"]),
    ],
)  # fmt: skip
def test_the_same_words_without_a_whole_read_as_before(question: str, metrics: list[str]) -> None:
    assert parse_intent(question, REF).metrics == metrics


@pytest.mark.parametrize(
    ("question", "metrics", "change"),
    [
        # 同店同比: the shorthand of same-store sales growth, its level
        ("东南亚2024年同店同比是多少?", ["SSSG"], False),
        # the growth's full name with 同比 glued: the same growth
        ("东南亚2024年同店销售增长同比是多少?", ["SSSG"], False),
        # a level metric's 同比: its growth rate, as before
        ("东南亚2024年收入同比是多少?", ["REVENUE_YOY"], False),
        # a verb after 同比: the growth's own movement, as before
        ("东南亚2024年同店销售增长同比增长多少?", ["SSSG"], True),
    ],
)  # fmt: skip
def test_yoy_glued_after_a_growth_restates_it(
    question: str, metrics: list[str], change: bool
) -> None:
    intent = parse_intent(question, REF)
    assert intent.metrics == metrics and intent.change is change, intent


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        # a capitalised word inside the sentence: a name
        ("Can I pay with Bitcoin at ACME stores in Hong Kong?", ["Bitcoin"]),
        # an acronym, the company's own name (the glossary's) left out
        ("Has ACME's loyalty app been approved by the FDA?", ["FDA"]),
        # two capitalised words, 'of' between: one name
        ("Does ACME bank with the Bank of Ceylon?", ["Bank of Ceylon"]),
        # the word opening the sentence, a month: no name
        ("Which stores opened in March 2024?", []),
        # Title Case throughout: no word is marked by its capital
        ("What Is The Store Opening Plan For Next Year?", []),
        # a Chinese question with a Latin name in it
        ("ACME的门店支持Apple Pay吗?", ["Apple Pay"]),
    ],
)  # fmt: skip
def test_distinctive_terms_are_names_the_user_marks(question: str, terms: list[str]) -> None:
    from ragspine.agent.distinct_terms import distinct_terms
    from ragspine.profile import default_profile

    assert distinct_terms(question, default_profile()) == terms


def test_a_name_no_passage_holds_is_said_not_found() -> None:
    from ragspine.agent.distinct_terms import unheld_term
    from ragspine.profile import default_profile

    texts = ["ACME Club members can pay with cards in Hong Kong stores."]

    def passages(query: str) -> list[str]:
        return texts  # the fake retriever: the one passage, whatever is asked

    profile = default_profile()
    assert unheld_term("Can I pay with Bitcoin at ACME stores?", profile, passages) == "Bitcoin"
    # a name a passage holds: judged by the passages, not declined here
    assert (
        unheld_term(
            "Can I pay at ACME Club stores with a Mastercard?",
            profile,
            lambda q: [*texts, "Mastercard holders earn double points."],
        )
        is None
    )


def test_a_yes_no_question_about_a_name_in_no_document_is_declined(demo: Engine) -> None:
    result = ask(demo, "Can I pay with Bitcoin at ACME stores in Hong Kong?")
    assert "Bitcoin" in result.answer and not result.tool_results, result.answer


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # a hyphenated compound whose first word another reader takes (how many point…)
        ("How many point-of-sale terminals does ACME run across its stores?",
         "point-of-sale terminals"),
        # a hyphenated compound no reader takes
        ("How many self-checkout kiosks did ACME install in 2024?", "self-checkout kiosks"),
        # the verb of spending is the frame: what was spent on is named
        ("How much did ACME spend on share buybacks in 2024?", "share buybacks"),
        # paid for: the same
        ("How much did ACME pay for the new headquarters in 2024?", "new headquarters"),
        # a noun after spend, as before
        ("How much did ACME spend on sea freight in 2024?", "sea freight"),
    ],
)  # fmt: skip
def test_a_decline_names_the_users_whole_phrase(question: str, declined: str) -> None:
    intent = parse_intent(question, REF)
    assert intent.metrics == [] and intent.declined == declined, intent


def test_points_asked_is_a_word_not_a_compounds_first_part() -> None:
    from ragspine.agent.modifiers import points_asked

    assert points_asked("how many point-of-sale terminals") is None
    assert points_asked("by how many points did it rise") is not None  # the word itself


@pytest.mark.parametrize(
    ("which", "question", "metrics"),
    [
        # 收益: Hong Kong's IFRS word for revenue
        ("demo", "香港2024年的收益是多少?", ["REVENUE"]),
        # a line ending in 收益 that the profile holds wins, longest first
        ("jy", "金宇生物2021年的投资收益是多少?", ["INVESTMENT_INCOME"]),
        ("jy", "金宇生物2021年的其他收益是多少?", ["OTHER_INCOME"]),
        # liabs: the analyst's shortening of liabilities
        ("jy", "What were Jinyu's total liabs at the end of 2020?", ["TOTAL_LIABILITIES"]),
        # 开销 / 开支: R&D expenses in other words
        ("jy", "金宇生物2019年研发开销是多少?", ["RD_EXPENSES"]),
        # the people on the payroll: the employees
        ("jy", "How many people were on Jinyu's payroll at the end of 2021?", ["EMPLOYEES"]),
    ],
)  # fmt: skip
def test_a_held_metric_in_other_words_is_recalled(
    which: str, question: str, metrics: list[str], jy_profile: DomainProfile
) -> None:
    profile = jy_profile if which == "jy" else None
    ref = date(2022, 6, 30) if which == "jy" else REF
    assert parse_intent(question, ref, profile=profile).metrics == metrics


@pytest.fixture(scope="module")
def jy_profile() -> DomainProfile:
    with pytest.warns(UserWarning):  # 金宇 is part of 金宇车城
        return load_profile(Path(__file__).parents[2] / "examples" / "jinyu" / "profile.yaml")


def test_a_qualifier_before_shouyi_is_never_revenue(jinyu: Engine) -> None:
    result = ask(jinyu, "金宇生物2021年的理财收益是多少?")  # no line names 理财收益
    assert not result.tool_results and "理财" in result.answer, result.answer


def test_a_name_a_document_is_named_for_is_not_declined(demo: Engine) -> None:
    # PIPL is in no passage (the guideline is written in Chinese) but names the document
    result = ask(
        demo, "What does the PIPL guideline say about cross-border transfers of member data?"
    )
    assert "ACME_PIPL_Compliance_Guideline.md" in result.answer, result.answer
