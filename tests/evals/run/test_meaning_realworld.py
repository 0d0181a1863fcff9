"""Issue 27's real-question measurement (benchmarks/meaning_realworld.py): the labelled 2-1
questions moved onto 金宇生物 and 2020, asked of the engine, read by the harness's reading."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks.meaning_realworld import (
    JINYU,
    REALWORLD,
    asked_formula,
    classify,
    company_span,
    main,
    transplant,
)
from tests.cli import invoke
from tests.fakes.corpora import empty_corpus
from tests.pg_stores import Place

NAMES = ["净利润率", "净利润增长率", "流动负债比率", "非流动负债比率", "投资收益占营业收入比率",
         "企业硕士及以上人员占职工人数比例", "研发人员占职工人数比例"]  # fmt: skip


@pytest.mark.parametrize(
    ("question", "company", "span"),
    [
        # the full name, as written
        ("2020年爱柯迪股份有限公司销售费用增长率?", "爱柯迪股份有限公司", "爱柯迪股份有限公司"),
        # a short name is the full name's characters in order, not a substring of it
        ("在2021年的财务数据中,海航控股的现金比率是多少?", "海南航空控股股份有限公司", "海航控股"),
        ("华体科技2020年资产负债比率是多少?", "四川华体照明科技股份有限公司", "华体科技"),
    ],
)  # fmt: skip
def test_the_company_is_found_as_the_question_names_it(
    question: str, company: str, span: str
) -> None:
    assert company_span(question, company) == span


def test_a_question_is_moved_onto_jinyu_and_2020() -> None:
    company = "四川华体照明科技股份有限公司"
    moved = transplant("华体科技2019年资产负债比率是多少?", company, "2019")
    assert moved == "金宇生物2020年资产负债比率是多少?"
    full = transplant(f"2019年{company}的流动比率", company, "2019")
    assert full == "2020年金宇生物技术股份有限公司的流动比率"  # a full name for a full name
    assert transplant("华体科技资产负债比率是多少?", company, "2019") is None  # no year


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("金宇生物2020年的净利润增长率是多少?", "净利润增长率"),  # the longest one named
        ("金宇生物2020年非流动负债比率", "非流动负债比率"),  # not 流动负债比率 inside it
        ("金宇生物2020年流动负债的比率为多少?", "流动负债比率"),  # 的 is ignored
        # worded its own way: the formula whose characters it holds, in order
        ("2020年金宇生物的投资收益占营业收入的比例是多少?", "投资收益占营业收入比率"),
        ("拥有硕士及以上学历的员工占职工总数的比例", "企业硕士及以上人员占职工人数比例"),
        ("金宇生物2020年的营业收入是多少?", None),  # no formula asked
    ],
)  # fmt: skip
def test_the_asked_quantity_is_the_formula_the_question_names(
    question: str, name: str | None
) -> None:
    assert asked_formula(question, NAMES) == name


FOUND = {"status": "found", "metric_code": "RD_EXPENSES"}


@pytest.mark.parametrize(
    ("seen", "kind"),
    [
        ({"tool_results": [{"status": "found", "metric_code": "RD_TO_REVENUE"}]}, "right"),
        # the level of a word inside the ratio's name: another quantity
        ({"tool_results": [FOUND, {**FOUND, "metric_code": "REVENUE"}]}, "another quantity"),
        ({"tool_results": [{"status": "not_found", "metric_code": "RD_TO_REVENUE"}]}, "not found"),
        ({"clarification": "ask_first", "answer": "请问您想查询哪个指标?"}, "asked back"),
        ({"answer": "「研发比」不在事实表中,不提供任何数字。"}, "declined"),
        # passages with numbers, no fact: neither an answer of the metric nor a decline
        ({"answer": "研发投入占营业收入比例 13.09%(来源:r.pdf page=1)",
          "sources": [{"doc": "r.pdf", "locator": "page=1"}]}, "other"),
    ],
)  # fmt: skip
def test_an_answer_is_read_by_the_harness(seen: dict[str, Any], kind: str) -> None:
    base: dict[str, Any] = {"answer": "", "tool_results": [], "sources": [], "clarification": ""}
    assert classify("RD_TO_REVENUE", **(base | seen)) == kind


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="needs ../shared/realworld beside the repo")
def test_a_slice_of_the_real_questions_runs_and_is_counted(
    tmp_path: Path, place: Place, capsys: pytest.CaptureFixture[str]
) -> None:
    db, out = place("facts.db"), tmp_path / "readings.jsonl"
    profile = str(JINYU / "profile.yaml")
    facts = str(JINYU / "facts.csv")
    loaded = invoke("facts", "load", facts, "--db", str(db), "--profile", profile)
    assert loaded.returncode == 0, loaded.stderr
    corpus = empty_corpus(place("none.db"))  # facts alone: on PostgreSQL in their database
    args = ["--db", str(db), "--corpus", str(corpus), "--limit", "12"]
    assert main([*args, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "12 asked (0 could not be moved)" in printed
    rows = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert len(rows) == 12
    assert all("金宇生物" in r["question"] and "2020" in r["question"] for r in rows)
    # each is counted once, in one of the kinds, and the counts are printed
    kinds = {r["kind"] for r in rows}
    assert kinds <= {"right", "another quantity", "not found", "asked back", "declined", "other"}
    for kind in kinds:
        count = sum(r["kind"] == kind for r in rows)
        assert f"{kind:<18}{count:>5}" in printed


def test_the_suites_table_counts_each_class_and_language_over_the_runs() -> None:
    # benchmarks/meaning_suites: what `make evals-meaning` prints after the two runs
    from benchmarks.meaning_suites import table

    def stats(count: int, total: int) -> dict[str, int]:
        return {"count": count, "total": total}

    acme = {
        "metrics": {"pass_rate": stats(3, 10)},
        "per_tag": {"class1": {"pass_rate": stats(1, 4), "metric_accuracy": stats(1, 3)},
                    "zh": {"pass_rate": stats(3, 10)}},
    }  # fmt: skip
    jinyu = {
        "metrics": {"pass_rate": stats(5, 6)},
        "per_tag": {"class1": {"pass_rate": stats(2, 2)}},
    }
    lines = table({"acme": acme, "jinyu": jinyu}).splitlines()
    assert next(x for x in lines if x.startswith("class1")).split() == [
        "class1", "1/4", "(0.25)", "2/2", "(1.00)", "3/6", "(0.50)",
    ]  # fmt: skip
    assert next(x for x in lines if x.startswith("all")).split()[-2:] == ["8/16", "(0.50)"]
    assert next(x for x in lines if x.startswith("en")).split()[1:] == ["–", "–", "–"]
