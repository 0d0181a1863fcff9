"""The harness's own reading of an answer's language (score/language.py): ``answer_language: en``
passes when the answer's own words hold no Chinese character, citations, the user's quoted words
and lines drawn from document passages set aside; it fails, naming the line, when they do."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.evals.score.language import own_words, written_in
from ragspine.evals.score.reading import numbers_in, read_decline
from tests.evals.score.test_scorers import FACT, _case, _checks, _seen

CITE = "(source: ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024)"
PASSAGE = {"doc": "ACME_FY2024_MDA.md", "locator": "section=1.2,para=1"}


def _check(answer: str, want: str, sources: list[dict[str, Any]] | None = None) -> Any:
    seen = _seen(answer=answer, sources=[FACT["source"], *(sources or [])])
    return _checks(_case(answer_language=want), seen).get("answer_language")


@pytest.mark.parametrize(
    ("answer", "sources", "language"),
    [
        # an English fact line; the citation's locator may hold Chinese (col=营业收入)
        (f"Mainland China FY2024 revenue: 1,320 million USD {CITE}", [], "en"),
        ("Jinyu FY2020 revenue: 1 yuan (source: book.xlsx · sheet=p,col=营业收入)", [], "en"),
        # the Chinese line of a Chinese answer
        ("中国内地 FY2024 收入:1,320 百万美元(来源:ACME_FY2024_Review.pptx · slide=2)", [], "zh"),
        # a name the profile gives only in Chinese, left in an English line: not English
        (f"中国内地 FY2024 revenue: 1,320 million USD {CITE}", [], "zh"),
        # the user's words quoted back are theirs, not the answer's
        ("“坪效” is not in the fact table: no figure is given for it.", [], "en"),
        # a sentence drawn from a cited passage is in the passage's language
        ("Attribution analysis:\nFY2024中国内地收入下降至1320百万美元。"
         "(来源:ACME_FY2024_MDA.md section=1.2,para=1)", [PASSAGE], "en"),
        # the same sentence citing no passage the answer gives is the answer's own
        ("Attribution analysis:\nFY2024中国内地收入下降至1320百万美元。", [PASSAGE], "zh"),
    ],
)  # fmt: skip
def test_the_answers_own_words_decide_its_language(
    answer: str, sources: list[dict[str, Any]], language: str
) -> None:
    assert written_in(answer, sources)[0] == language


def test_the_check_passes_an_english_answer_and_fails_a_chinese_one() -> None:
    english = _check(f"Mainland China FY2024 revenue: 1,320 million USD {CITE}", "en")
    assert english.passed and english.actual == "en"
    chinese = _check("中国内地 FY2024 收入:1,320 百万美元", "en")
    assert not chinese.passed and "中国内地 FY2024 收入" in chinese.why
    assert _check("中国内地 FY2024 收入:1,320 百万美元", "zh").passed


def test_a_case_that_states_no_language_is_not_judged_by_it() -> None:
    assert _checks(_case(), _seen()).get("answer_language") is None


def test_lines_citing_a_passage_are_set_aside_and_the_rest_kept() -> None:
    drawn = "香港收入增长。(来源:ACME_FY2024_MDA.md)"
    answer = f"Hong Kong FY2024 revenue: 455 million USD {CITE}\n\n{drawn}"
    assert own_words(answer, [PASSAGE]) == ["Hong Kong FY2024 revenue: 455 million USD"]


@pytest.mark.parametrize(
    ("answer", "declined", "numbers"),
    [
        # an English decline: no figure, the quantity named, nothing asked back
        ("“EBITDA” is not in the fact table: ACME Group holds no figure for it, and no other "
         "metric's figure is given in its place. No number is given, to avoid misleading. "
         "Metrics that can be asked about: revenue, gross profit and others.", True, []),
        # an English fact line: its figure read at its scale, its citation set aside
        (f"Mainland China FY2024 revenue: 1,320 million USD {CITE}", False, ["1,320 million"]),
        # an English change in points
        ("Hong Kong gross margin change, FY2024 vs FY2023: +0.9 percentage points (computed "
         "from the figures above)", False, ["+0.9 percentage points"]),
    ],
)  # fmt: skip
def test_the_harness_reads_an_english_answers_figures_and_declines(
    answer: str, declined: bool, numbers: list[str]
) -> None:
    assert numbers_in(answer) == numbers
    reading = read_decline(answer, tool_results=[], sources=[], quantity=["EBITDA"])
    assert reading.declined is declined
