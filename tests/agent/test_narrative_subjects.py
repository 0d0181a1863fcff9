"""Issue 27, class 3 on the narrative route: a partner the profile names (talked about from
documents, never given facts) is a subject like any name the profile does not know: only
passages that name it (or another of its names) may answer; where none does, an honest
not-found, never passages about the home company presented as the answer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.agent import AgentResult
from ragspine.engine import Engine
from ragspine.profile import load_profile
from tests.conftest import JinyuExample

JINYU = Path(__file__).parents[2] / "examples" / "jinyu"


@pytest.fixture(scope="module")
def jinyu(jinyu_example: JinyuExample) -> Iterator[Engine]:
    with pytest.warns(UserWarning):  # 金宇 is part of 金宇车城: said when the profile loads
        profile = load_profile(JINYU / "profile.yaml")
    with Engine.open(jinyu_example.db, jinyu_example.corpus, profile=profile) as e:
        yield e


def ask(engine: Engine, question: str) -> AgentResult:
    return engine.ask(question, reference_date=date(2022, 6, 30), clearance="INTERNAL")


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("兰州兽医研究所2020年的营业收入是多少?", "兰州兽医研究所"),  # a figure of the partner's
        ("兰兽研2020年的净利润是多少?", "兰兽研"),  # by its short name
        ("中国农业科学院兰州兽医研究所2020年营收多少?", "中国农业科学院兰州兽医研究所"),  # whole
    ],
)  # fmt: skip
def test_a_figure_of_a_partner_no_passage_names_is_declined_by_its_name(
    jinyu: Engine, question: str, name: str
) -> None:
    result = ask(jinyu, question)
    assert result.sources == [] and result.tool_results == [], result.answer
    assert name in result.answer
    assert re.search(r"\d", result.answer.replace(name, "")) is None, result.answer


@pytest.mark.parametrize(
    "question",
    [
        "金宇生物与兰州兽医研究所的合作情况如何?",  # a document question about the partner
        "兰兽研为金宇生物提供了哪些技术支持?",
    ],
)
def test_a_document_question_about_a_partner_no_passage_names_is_not_found(
    jinyu: Engine, question: str
) -> None:
    result = ask(jinyu, question)
    assert result.route == "narrative" and result.sources == [], result.answer
    assert result.trace.codes["narrative"] == "no_subject"
