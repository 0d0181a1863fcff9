"""A miss is words, said in the question's language (wording.py, render.not_found_line): an
English question gets an English not-found line, with the profile's English names and the
channel as the metric's modifier; a Chinese question keeps 查不到. A figure's line beside it is
in English too (test_answer_language.py)."""

from __future__ import annotations

import pytest

from ragspine.engine import Engine
from tests.agent.asking import ask


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "line"),
    [
        # the channel is the metric's modifier, the entity its English name
        ("demo", "What was the gross margin of mainland China's online business in 2024?",
         "Not found: mainland China FY2024 online gross margin is not in the fact table."),
        ("demo", "What was Hong Kong revenue in FY2025?",
         "Not found: Hong Kong FY2025 revenue is not in the fact table."),
        # a derived metric named only in Chinese: its English name built from its formula
        ("jinyu", "What was Jinyu's intangible assets growth in 2021?",
         "Not found: Jinyu Bio-Technology FY2021 intangible assets growth rate cannot be "
         "computed; there is no figure for FY2021 intangible assets."),
        # negative: a Chinese question keeps its Chinese line
        ("demo", "香港2025年的收入是多少?", "查不到:香港 FY2025 收入 未在事实表中找到。"),
    ],
)  # fmt: skip
def test_a_not_found_line_is_in_the_questions_language(
    request: pytest.FixtureRequest, which: str, question: str, line: str
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert result.answer.splitlines()[0] == line
    assert ("查不到" in result.answer) is (line.startswith("查不到"))


def test_beside_a_figure_a_miss_is_in_english_too(demo: Engine) -> None:
    result = ask(demo, "What were Hong Kong revenues in FY2024 and FY2025?")
    lines = result.answer.splitlines()
    assert lines[0].startswith("Hong Kong FY2024 revenue: 455 million USD")  # in English too
    assert "Not found: Hong Kong FY2025 revenue is not in the fact table." in lines
    assert "查不到" not in result.answer
