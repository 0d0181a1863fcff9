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


@pytest.fixture(scope="module")
def acme(demo_db: Path, demo_corpus: Path) -> Iterator[Engine]:
    with Engine.open(demo_db, demo_corpus) as e:
        yield e


@pytest.mark.parametrize(
    "question",
    [
        "ACME和华信物流的合作协议有哪些条款?",  # a counterparty before 的…协议, no 公司 suffix
        "ACME與華信物流的合作協議有哪些條款?",  # the same, traditional
        "ACME与鸿运商贸的战略合作进展如何?",  # a counterparty before 的战略合作
        "ACME进入韩国市场的计划是什么?",  # a market the company enters: a place after 进入
        "ACME進軍韓國市場有何打算?",  # the same after 進軍, traditional
        "ACME在佳木斯新建的物流中心何时启用?",  # a site where something is built: 在X新建
    ],
)  # fmt: skip
def test_a_document_question_about_a_name_no_passage_holds_is_not_found_acme(
    acme: Engine, question: str
) -> None:
    result = acme.ask(question, reference_date=date(2025, 6, 30), clearance="INTERNAL")
    assert result.sources == [], result.answer
    assert result.trace.codes["narrative"] == "no_subject", result.answer


@pytest.mark.parametrize(
    "question",
    [
        "金宇生物与牧原股份的合作协议包括哪些内容?",  # a counterparty named by its stock short name
        "金宇生物在佳木斯新建的生产基地何时投产?",  # a site where something is built: 在X新建
    ],
)  # fmt: skip
def test_a_document_question_about_a_name_no_passage_holds_is_not_found_jinyu(
    jinyu: Engine, question: str
) -> None:
    result = ask(jinyu, question)
    assert result.sources == [], result.answer
    assert result.trace.codes["narrative"] == "no_subject", result.answer


@pytest.mark.parametrize(
    ("question", "found"),
    [
        # 奖金 is in the report (a staff bonus; read across 领袖奖”、“金牛), never by the award
        ("金宇生物2020年荣获「最佳董事会奖」获得了多少奖金?", False),
        ("金宇生物2020年荣获的「最佳董事会奖」奖金是多少?", False),  # asked after the name
        ("金宇生物「新型学徒制培训」项目培训了多少人次?", True),  # one passage names both
    ],
)  # fmt: skip
def test_a_figure_of_a_name_is_held_to_a_passage_naming_both(
    jinyu: Engine, question: str, found: bool
) -> None:
    result = ask(jinyu, question)
    assert (result.trace.codes["narrative"] == "answered") is found, result.answer
    if not found:
        assert result.sources == [] and "奖金" in result.answer, result.answer
