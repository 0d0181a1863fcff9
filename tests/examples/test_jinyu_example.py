"""The shipped real-company example (examples/jinyu: 金宇生物, 600201), used as its README says:
facts loaded with `ragspine facts load`, the 2020 annual report ingested with `ragspine ingest`,
questions asked with `ragspine ask`. The expected figures are the report's own, not ours."""

from __future__ import annotations

import csv
import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.profile import load_profile
from tests.cli import Ran, invoke
from tests.conftest import JinyuExample

EXAMPLE = Path(__file__).parents[2] / "examples" / "jinyu"
PROFILE = EXAMPLE / "profile.yaml"
FORMULAS = Path(__file__).parents[3] / "shared" / "realworld" / "formulas.tsv"
REFERENCE_DATE = "2022-06-30"


@pytest.fixture(scope="module")
def built(jinyu_example: JinyuExample) -> JinyuExample:
    """Built once per session with the commands a user runs (tests/conftest.py)."""
    facts_csv = EXAMPLE / "facts.csv"
    with facts_csv.open(encoding="utf-8") as fh:
        rows = sum(1 for _ in csv.DictReader(fh))
    db = jinyu_example.db
    assert (
        jinyu_example.loaded.stdout
        == f"loaded {rows} facts from {facts_csv}; {rows} facts in {db}\n"
    )
    out = jinyu_example.ingested.stdout
    assert "1 added" in out and "index rebuilt" in out, out
    return jinyu_example


def ask(built: JinyuExample, question: str, *extra: str) -> Ran:
    out = invoke(
        "ask", "--profile", str(PROFILE), "--db", str(built.db), "--corpus", str(built.corpus),
        "--reference-date", REFERENCE_DATE, *extra, question, cwd=built.root,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out


def ask_json(built: JinyuExample, question: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ask(built, question, "--json").stdout)
    return data


@pytest.mark.skipif(not FORMULAS.is_file(), reason="needs ../shared/realworld beside the repo")
def test_every_official_formula_is_a_derived_metric_a_question_reaches() -> None:
    profile = load_profile(PROFILE)
    derived = {d.name_zh: d.code for d in profile.derived_metrics}
    with FORMULAS.open(encoding="utf-8") as fh:
        names = {row["name"] for row in csv.DictReader(fh, delimiter="\t")}
    assert len(names) >= 30
    assert sorted(names - derived.keys()) == []
    for name in sorted(names):  # the name as a user writes it reaches that metric
        intent = parse_intent(f"金宇生物2020年{name}是多少？", date(2022, 6, 30), profile=profile)
        assert intent.metric == derived[name], name


@pytest.mark.parametrize(
    ("name", "printed"),
    [
        ("营业收入增长率", "40.39%"),  # 2020 report, 主要会计数据: 营业收入 +40.39%
        ("销售费用增长率", "25.92%"),  # 2020 report, 费用: 销售费用 +25.92%
        ("管理费用增长率", "10.94%"),  # 2020 report, 费用: 管理费用 +10.94%
        ("总资产增长率", "12.40%"),  # 2020 report, 主要会计数据: 总资产 +12.40%
    ],
)
def test_a_growth_rate_matches_the_one_printed_in_the_report(
    built: JinyuExample, name: str, printed: str
) -> None:
    data = ask_json(built, f"金宇生物2020年{name}是多少？保留两位小数")
    answer = data["answer"]
    assert answer.startswith(f"金宇生物 FY2020 {name}:{printed}(由公式计算:")
    (result,) = data["tool_results"]
    assert result["status"] == "found" and result["period"] == "2020"
    operands = result["operands"]
    assert {o["period"] for o in operands} == {"2019", "2020"}  # this year and the last
    for operand in operands:  # every operand shown with its value and its own source
        source = operand["source"]
        assert f"{source['doc']} · {source['locator']}" in answer
        assert source in data["sources"]


def test_a_derived_metric_with_a_missing_operand_says_what_is_missing(built: JinyuExample) -> None:
    # The balance-sheet lines for 无形资产 come only from the 2020 report: nothing for FY2021.
    data = ask_json(built, "金宇生物2021年无形资产增长率是多少？")
    answer = data["answer"]
    assert answer.startswith("查不到:") and "无形资产" in answer and "FY2021" in answer
    assert "%" not in answer and data["sources"] == []
    (result,) = data["tool_results"]
    assert result["status"] == "not_found"
    assert result["missing"] == [{"metric_code": "INTANGIBLE_ASSETS", "period": "FY2021"}]
    assert data["trace"]["fabrication_guard_triggered"] is True


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("贵州茅台2019年的营业收入是多少元?", "贵州茅台"),  # another company, by name
        ("2019年四方科技毛利率是多少？请保留两位小数。", "四方科技"),  # one with a derived metric
        ("哪家上市公司2021年负债总金额第7高？", "跨公司的排名"),  # a ranking across companies
    ],
)
def test_another_company_or_a_ranking_is_declined_without_a_number(
    built: JinyuExample, question: str, named: str
) -> None:
    data = ask_json(built, question)
    answer = data["answer"]
    assert answer.startswith(("「" + named + "」不在本系统的覆盖范围内", named))
    assert "金宇生物技术股份有限公司" in answer  # says what it does cover
    assert data["clarification"]["mode"] == "out_of_scope_entity"
    assert data["tool_results"] == [] and data["sources"] == []
    assert not re.search(r"\d", answer)  # no 金宇 figure, not even the year


def test_the_home_companys_stock_code_is_the_home_company(built: JinyuExample) -> None:
    out = ask(built, "600201在2019年的利润总额是多少元?")
    assert out.stdout.startswith("金宇生物 FY2019 利润总额:253,504,108.28 元(来源:")
    assert "statements_600201_603339.xlsx · sheet=profit_statement,year=2019,col=利润总额" in (
        out.stdout
    )


def test_an_amount_keeps_its_precision_and_the_plain_answer_shows_names_not_codes(
    built: JinyuExample,
) -> None:
    question = "金宇生物2021年流动资产合计是多少？"
    plain = ask(built, question).stdout
    assert plain.startswith("金宇生物 FY2021末 流动资产合计:2,760,640,049.40 元(来源:")
    assert "CURRENT_ASSETS" not in plain and "JINYU" not in plain
    data = ask_json(built, question)
    (result,) = data["tool_results"]
    assert result["metric_code"] == "CURRENT_ASSETS" and result["entity"] == "JINYU"
    assert result["value_text"] == "2760640049.40" and result["unit"] == "CNY"


def test_the_golden_set_validates(tmp_path: Path) -> None:
    out = invoke("eval", "validate", "--golden", str(EXAMPLE / "golden"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    found = re.match(r"ok: (\d+) cases in (\d+) files \(", out.stdout)
    assert found, out.stdout
    assert int(found[1]) >= 80 and int(found[2]) == len(list((EXAMPLE / "golden").glob("*.yaml")))
