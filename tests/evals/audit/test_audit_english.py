"""The independent audit reads an English answer as it reads a Chinese one (issue 24): every
figure of the engine's English lines (455 million USD, 1,776,317,811.37 yuan, 10.98%, +0.9
percentage points, 63 stores) is held to the facts the answer found, with their context, so a
correct English answer raises no alarm and a figure, unit, entity or period changed in it is
caught. The answers are the engine's own, asked as a user asks; the audit shares no code with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from ragspine.engine import Engine
from ragspine.evals.run.runner import CaseRunner
from ragspine.evals.score.scorers import audit
from ragspine.profile import load_profile
from tests.conftest import JINYU, JinyuExample

REF = date(2025, 6, 30)
JY_REF = date(2022, 6, 30)


@pytest.fixture(scope="module")
def demo(demo_db: Path, demo_corpus: Path) -> Iterator[CaseRunner]:
    with Engine.open(demo_db, demo_corpus) as engine:
        yield CaseRunner(engine)


def _findings(runner: CaseRunner, question: str, answer: str | None = None) -> list[str]:
    """The harness's audit of the engine's answer to ``question`` (or of ``answer`` in its
    place, with the same record otherwise): the found facts, the cited passages, the slot names."""
    ref = REF if runner.engine.profile.home_entity_code == "ACME_GROUP" else JY_REF
    result = runner.engine.ask(question, reference_date=ref, clearance="INTERNAL")
    seen = runner.observe(result.to_record(), None)
    return [f"{f.number} ({f.reason})" for f in audit(seen, answer or result.answer)]


QUESTIONS = [
    "What was Hong Kong's revenue in FY2024?",  # a level in million USD
    "What was Hong Kong's revenue growth in FY2024?",  # a derived rate and its operands
    "What share of group revenue did Hong Kong contribute in FY2024?",  # another entity's operand
    "What was revenue per store in Southeast Asia in FY2024?",  # an amount per store
    "What were Hong Kong revenues in FY2023 and FY2024?",  # two levels and their change
    "What was Hong Kong's gross margin in FY2023 and FY2024?",  # a change in points
    "Why did Hong Kong revenue grow in FY2024?",  # a fact, then the passages under its heading
    "Which region had the highest gross margin in FY2024?",  # a rank of four figures
    "What was Taiwan's store count?",  # an assumption note, a count of stores
    "What was the group's online revenue in Q3 2024?",  # a quarter, a channel
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_correct_english_answer_raises_no_alarm(demo: CaseRunner, question: str) -> None:
    assert _findings(demo, question) == []


@pytest.mark.parametrize(
    ("question", "true", "false"),
    [
        # another value
        ("What was Hong Kong's revenue in FY2024?", "455 million USD", "456 million USD"),
        # another currency, the same digits
        ("What was Hong Kong's revenue in FY2024?", "455 million USD", "455 million HKD"),
        # another scale
        ("What was Hong Kong's revenue in FY2024?", "455 million USD", "455 billion USD"),
        # another entity's line for the value
        ("What was Hong Kong's revenue in FY2024?", "Hong Kong FY2024", "Taiwan FY2024"),
        # another period
        ("What was Hong Kong's revenue in FY2024?", "Hong Kong FY2024", "Hong Kong FY2022"),
        # a derived rate misstated
        ("What was Hong Kong's revenue growth in FY2024?", "10.98%", "12.98%"),
        # an operand misstated under its formula
        ("What was Hong Kong's revenue growth in FY2024?", "410 million USD", "401 million USD"),
        # a change misstated
        ("What were Hong Kong revenues in FY2023 and FY2024?", "+45 million", "+54 million"),
        # a change in points misstated
        ("What was Hong Kong's gross margin in FY2023 and FY2024?",
         "+0.9 percentage points", "+1.9 percentage points"),
        # a fact line above the passages, misstated
        ("Why did Hong Kong revenue grow in FY2024?", "455 million USD", "465 million USD"),
        # a count misstated
        ("What was Taiwan's store count?", "63 stores", "68 stores"),
    ],
)  # fmt: skip
def test_a_figure_changed_in_an_english_answer_is_caught(
    demo: CaseRunner, question: str, true: str, false: str
) -> None:
    answer = demo.engine.ask(question, reference_date=REF, clearance="INTERNAL").answer
    assert true in answer
    assert _findings(demo, question, answer.replace(true, false, 1)) != []


@pytest.mark.slow
def test_a_yuan_amount_of_a_real_report_is_read_in_english(jinyu_example: JinyuExample) -> None:
    """金宇生物's figures to the fen, in yuan: held to the found fact, and caught when changed."""
    with pytest.warns(UserWarning):  # 金宇 is part of 金宇车城: said when the profile loads
        profile = load_profile(JINYU / "profile.yaml")
    question = "What was Jinyu's operating revenue in 2020?"
    with Engine.open(jinyu_example.db, jinyu_example.corpus, profile=profile) as engine:
        runner = CaseRunner(engine)
        answer = engine.ask(question, reference_date=JY_REF, clearance="INTERNAL").answer
        assert "1,581,905,632.48 yuan (source: " in answer, answer
        assert _findings(runner, question, answer) == []
        assert _findings(runner, question, answer.replace("632.48 yuan", "623.48 yuan")) != []
