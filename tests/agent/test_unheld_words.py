"""Issue 27 round 8, class 3: a fact question asked in a word no visible passage holds is an
honest not-found naming the user's phrase, never passages about something else; a question
whose words the passages hold, or that asks no fact, is answered as before."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.unheld_words import asks_fact, unheld_phrase
from ragspine.engine import Engine
from ragspine.profile import default_profile
from tests.agent.fake_corpus import corpus


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("In what year was ACME founded?", True),  # a year asked
        ("How many tonnes of food were donated?", True),  # a figure asked
        ("What target price did analysts set?", True),  # what + noun
        ("金宇生物承诺在哪一年实现碳中和?", True),  # 哪一年
        ("Why did Hong Kong revenue fall in 2024?", False),  # a reason: its verbs are the user's
        ("What did the CEO say about online growth?", False),  # what + did: a document question
        ("How did ACME improve inventory turnover?", False),  # how did: no fact
    ],
)  # fmt: skip
def test_a_fact_question_is_one_asking_a_figure_a_date_or_a_what_noun(
    question: str, fact: bool
) -> None:
    assert asks_fact(question) is fact


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("In what year was ACME founded?", "founded"),  # founded in no passage
        ("How many tonnes of food did ACME donate in 2024?", "tonnes of food"),  # its phrase, of
        ("What target price did analysts set for ACME?", "target price"),  # the first missing
        ("ACME承诺在哪一年实现碳中和?", "实现碳中和"),  # a Chinese word, the run it stands in
    ],
)  # fmt: skip
def test_a_fact_word_no_passage_holds_is_named_by_its_phrase(question: str, phrase: str) -> None:
    english, chinese = "ACME donates surplus food; analysts met the board.", "ACME承诺分红"
    retrieved = [english if question.isascii() else chinese]  # the question's script
    passages = corpus(english, chinese)
    assert unheld_phrase(question, default_profile(), passages, retrieved) == phrase


@pytest.mark.parametrize(
    "question",
    [
        "In what year was ACME founded?",  # the passage holds founding: the stem found-
        "How many members did the Sustainability Committee have in 2024?",  # every word held
        "Why was ACME founded?",  # no fact asked: never judged here
        "ACME在2024年的收入是多少?",  # nothing but what the parser reads
    ],
)  # fmt: skip
def test_a_question_whose_words_passages_hold_is_not_declined(question: str) -> None:
    texts = ("ACME's founding in 1998.", "The Sustainability Committee has members.")
    assert unheld_phrase(question, default_profile(), corpus(*texts), texts) is None


@pytest.mark.parametrize(
    ("question", "retrieved", "phrase"),
    [
        ("會員積分什麼時候過期?", ["Points expire at the end of the year."], None),  # 过期 vs
        # English passages: a Chinese word is not judged by them
        ("What target price did analysts set?", ["分析师的报告"], None),  # English vs Chinese
        ("會員積分什麼時候過期?", ["积分余额逐笔核对", "Points expire."], None),  # mixed scripts
        ("What target price did analysts set?", [], "target price"),  # nothing retrieved: named
    ],
)  # fmt: skip
def test_a_word_is_judged_only_by_passages_in_its_script(
    question: str, retrieved: list[str], phrase: str | None
) -> None:
    assert unheld_phrase(question, default_profile(), corpus(), retrieved) == phrase


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("In what year was ACME founded?", "founded"),  # no founding year in any document
        ("How many tonnes of food did ACME's food redistribution programme donate in 2024?",
         "tonnes of food"),  # the programme is named, its tonnes are not
    ],
)  # fmt: skip
def test_the_demo_says_not_found_by_name_never_other_passages(
    demo: Engine, question: str, named: str
) -> None:
    result = demo.ask(question, reference_date=date(2025, 6, 30), clearance="INTERNAL")
    assert result.sources == [] and named in result.answer, result.answer
    assert result.trace.codes["narrative"] == "no_subject"


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("金宇生物承诺在哪一年实现碳中和?", "实现碳中和"),  # a pledge, no carbon
        ("What target price did brokerage analysts set for Jinyu's shares at the end of 2020?",
         "target price"),  # no passage retrieved at all: still named
        ("How much did Ping An Insurance pay Jinyu in insurance claims in 2020?",
         "Ping An Insurance"),  # a name the profile does not know: judged by it, named whole
    ],
)  # fmt: skip
def test_jinyu_says_not_found_by_name(jinyu: Engine, question: str, named: str) -> None:
    result = jinyu.ask(question, reference_date=date(2022, 6, 30), clearance="INTERNAL")
    assert result.sources == [] and named in result.answer, result.answer


@pytest.mark.parametrize(
    "question",
    [
        "In what year did ACME launch its scholarship programme?",  # launch, scholarship: held
        "How often does the Sustainability Committee meet?",  # no fact asked
    ],
)  # fmt: skip
def test_the_demo_still_answers_what_its_passages_hold(demo: Engine, question: str) -> None:
    result = demo.ask(question, reference_date=date(2025, 6, 30), clearance="INTERNAL")
    assert result.sources, result.answer
