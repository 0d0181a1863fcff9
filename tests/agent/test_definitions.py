"""Concept questions (什么是在建工程, What is a quick ratio): answered only from a passage that
defines the term, never from one that merely mentions it next to the company's figures."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ragspine.agent.definitions import NO_DEFINITION, defines, defining_hits, definition_term
from ragspine.engine import Engine
from ragspine.profile import default_profile
from ragspine.retrieval.base import NarrativeHit
from tests.cli import invoke
from tests.pg_stores import Place, facts_beside


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("什么是在建工程？", "在建工程"),  # 什么是 X
        ("存货的定义是什么？", "存货"),  # X 的定义是什么
        ("长期待摊费用是什么意思？", "长期待摊费用"),  # X 是什么意思
        ("金融工具是指什么？", "金融工具"),  # X 是指什么
        ("请解释一下什么是商誉?", "商誉"),  # a polite lead-in is not part of the term
        ("什麼是在建工程?", "在建工程"),  # traditional characters read as simplified
        ("What is a quick ratio?", "quick ratio"),  # English, the article dropped
        ("Define goodwill.", "goodwill"),  # English imperative
        ("为什么收入下降?", None),  # a why question is not a concept question
        ("2020年收入是多少?", None),  # a number question is not either
        ("什么是？", None),  # no term at all
        ("什么是X?", None),  # one letter is no term
    ],
)
def test_definition_term_is_the_concept_asked_about(question: str, term: str | None) -> None:
    assert definition_term(question) == term


FINANCIAL_INSTRUMENT = "金融工具是指形成一方的金融资产并形成其他方的金融负债或权益工具的合同。"
FINANCIAL_INSTRUMENT_HANT = "金融工具是指形成一方的金融資產並形成其他方的金融負債或權益工具的合同。"


@pytest.mark.parametrize(
    ("term", "passage", "expected"),
    [
        # a definition proper
        ("金融工具", FINANCIAL_INSTRUMENT, True),
        # the same in traditional characters
        ("金融工具", FINANCIAL_INSTRUMENT_HANT, True),
        # a classification defines the term too
        ("存货", "本公司存货分为原材料、在产品、库存商品和周转材料。", True),
        # a measurement rule: a weaker definition, still one
        ("在建工程", "在建工程按实际发生的成本计价,包括建筑费用和安装费用。", True),
        # 合营安排的分类: the passage may name only the head noun
        ("合营安排的分类", "合营安排分为共同经营和合营企业两类。", True),
        # a table row with amounts
        ("在建工程", "在建工程 20,932,896.59 454,439,655.24", False),
        # a heading alone
        ("在建工程", "在建工程", False),
        # a usage that does not define it
        ("在建工程", "报告期内公司新增在建工程主要来自生产线改造项目的投入。", False),
        # a definition that carries the company's own figure is not used for a concept
        ("在建工程", "在建工程是指尚未完工的工程,期末余额为20,932,896.59元。", False),
        # another term's definition
        ("存货", FINANCIAL_INSTRUMENT, False),
        # a bare 是 across a clause is a usage, not a definition
        ("在建工程", "在建工程较上年增加,主要是新厂房投入增加所致。", False),
        # a formula is a definition
        ("现金比率", "现金比率=货币资金/流动负债,反映企业的即时偿债能力。", True),
        # a bare 为 right after the term defines it
        ("营业周期", "本公司的营业周期为12个月。", True),
    ],
)
def test_defines_only_prose_that_defines_the_term(term: str, passage: str, expected: bool) -> None:
    assert defines(term, passage) is expected


def _hit(chunk_id: str, text: str) -> NarrativeHit:
    return NarrativeHit(chunk_id, f"{chunk_id}.md", "section=1,para=1", text)


def test_defining_hits_puts_a_definition_before_a_measurement_rule() -> None:
    rule = _hit("rule", "在建工程按实际发生的支出计价,包括建筑费用和安装费用。")
    table = _hit("table", "在建工程 20,932,896.59 454,439,655.24")
    definition = _hit("definition", "在建工程是指正在建设中、尚未达到预定可使用状态的工程。")
    usage = _hit("usage", "报告期内公司新增在建工程主要来自生产线改造项目的投入。")
    ordered = defining_hits("在建工程", [rule, table, definition, usage])
    assert [h.chunk_id for h in ordered] == ["definition", "rule"]
    # with no definition proper, the rules keep their retrieval order
    other = _hit("other", "在建工程采用成本法核算。")
    assert [h.chunk_id for h in defining_hits("在建工程", [other, rule])] == ["other", "rule"]


# -- end to end: a corpus built with `ragspine ingest`, asked through the Engine ---------------

POLICIES = """---
title: 会计政策
sensitivity: PUBLIC
language: zh
entity: ACME_GROUP
period: 2024
published: 2025-03-01
---

# 在建工程的计量

在建工程按实际发生的成本计价,包括建筑费用、安装费用和借款费用资本化金额。

# 在建工程

本公司在建工程是指正在建设中、尚未达到预定可使用状态的工程。
"""
FIGURES = """---
title: 主要财务数据
sensitivity: PUBLIC
language: zh
entity: ACME_GROUP
period: 2024
published: 2025-03-01
---

# 主要财务指标

| 项目 | 2024年 | 2023年 |
| --- | --- | --- |
| 在建工程 | 20,932,896.59 | 454,439,655.24 |
| 现金比率 | 1.25 | 1.10 |
"""


@pytest.fixture(scope="module")
def engine(
    tmp_path_factory: pytest.TempPathFactory, places: Callable[[Path], Place]
) -> Iterator[Engine]:
    root = tmp_path_factory.mktemp("definitions")
    docs = root / "docs"
    docs.mkdir()
    (docs / "policies.md").write_text(POLICIES, "utf-8")
    (docs / "figures.md").write_text(FIGURES, "utf-8")
    corpus = places(root)("chunks.db")
    db = facts_beside(corpus, root)
    stores = ["--corpus", str(corpus), "--db", db]
    out = invoke("ingest", *stores, str(docs), cwd=root)
    assert out.returncode == 0 and "2 added" in out.stdout, out.stderr
    with Engine.open(db, corpus, profile=default_profile()) as opened:
        yield opened


def test_a_defined_term_is_answered_with_its_definition_and_cited(engine: Engine) -> None:
    result = engine.ask("什么是在建工程？")
    assert result.route == "narrative" and result.tool_results == []
    first, *rest = result.answer.splitlines()
    # the definition proper first, then the measurement rule, each with its source
    assert first.startswith("本公司在建工程是指正在建设中、尚未达到预定可使用状态的工程。")
    assert first.endswith("(来源:policies.md section=2,para=1)")
    assert any(line.startswith("在建工程按实际发生的成本计价") for line in rest)
    assert {s["doc"] for s in result.sources} == {"policies.md"}
    assert {"doc": "policies.md", "locator": "section=2,para=1"} in result.sources
    # the table row that also names 在建工程 is neither quoted nor cited
    assert "20,932,896.59" not in result.answer and "figures.md" not in result.answer


def test_a_term_only_mentioned_in_a_table_is_not_defined_and_no_number_is_given(
    engine: Engine,
) -> None:
    result = engine.ask("什么是现金比率？")
    assert result.answer == NO_DEFINITION.format(term="现金比率")
    assert result.sources == [] and result.tool_results == []
    assert not re.search(r"\d", result.answer)
    counts = result.to_dict()["trace"]["counts"]
    # the row was retrieved; it was refused because it does not define the term
    assert counts["narrative_hits"] >= 1 and counts["defining_hits"] == 0
