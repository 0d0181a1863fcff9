"""The 金宇生物 example as a user builds it (facts.csv, then the 2020 report): the ingest names the
report's period and the figure the report states otherwise than the workbook, with both cells;
a question about 2021, which no document covers, says so and quotes nothing of the 2020 report."""

from __future__ import annotations

import pytest

from ragspine.ingestion.report import IngestReportRecord
from tests.cli import invoke
from tests.conftest import JINYU, JinyuExample

pytestmark = pytest.mark.slow
REPORT = "600201_金宇生物_2020_年度报告.pdf"
CAPEX = "购建固定资产、无形资产和其他长期资产支付的现金"


def test_the_report_and_the_workbook_disagree_on_one_figure_and_both_are_named(
    jinyu_example: JinyuExample,
) -> None:
    out = jinyu_example.ingested.stdout
    assert out.startswith(f"    added  {REPORT} · FY2020 (")
    assert (
        f"conflict CAPEX_CASH JINYU FY2019: kept 46385827.27 (statements_600201_603339.xlsx · "
        f"sheet=cash_flow_statement,year=2019,col={CAPEX}), not 307359941.71 ({REPORT} · "
        f"page=74,table=1,row={CAPEX},col=2019年度): stated first"
    ) in out
    record = IngestReportRecord.model_validate_json(
        (jinyu_example.root / "ingest.json").read_text("utf-8")
    )
    (file,) = record.files
    (capex,) = [c for c in file.conflicts if c.metric == "CAPEX_CASH"]
    assert capex.kept.doc == "statements_600201_603339.xlsx" and capex.dropped.doc == REPORT
    assert (capex.kept.value, capex.dropped.value, capex.unit) == (
        "46385827.27", "307359941.71", "CNY",
    )  # fmt: skip
    labels = {u.label for u in file.not_mapped if u.kind == "statement_row"}
    assert {"其他综合收益", "库存股", "未分配利润"} <= labels


def test_a_question_about_a_year_no_document_covers_says_which_it_does(
    jinyu_example: JinyuExample,
) -> None:
    listed = invoke("documents", "--corpus", str(jinyu_example.corpus))
    assert listed.stdout.startswith("FY2020   PUBLIC")
    stores = [
        "--db", str(jinyu_example.db), "--corpus", str(jinyu_example.corpus),
        "--profile", str(JINYU / "profile.yaml"), "--reference-date", "2022-06-30",
    ]  # fmt: skip
    later = invoke("ask", "金宇生物技术股份有限公司2021年电子信箱是什么?", *stores)
    assert later.stdout == (
        "检索到的文档涵盖 FY2020,没有涵盖 FY2021 的文档;为避免误导,不引用其他期间的内容,"
        "可改问 FY2020 的情况。\n"
    )  # neither the 2020 report's e-mail nor its source
    english = invoke("ask", "What was Jinyu Bio-Technology Co., Ltd.'s email address in 2021?",
                     *stores)  # fmt: skip
    assert english.stdout.startswith("The documents retrieved cover FY2020, and none covers FY2021")
    assert "jinyu.com.cn" not in english.stdout and "source" not in english.stdout
    # a why-question: the figure (a fact carries its period) stays, the 2020 report's reasons not
    why = invoke("ask", "为什么金宇生物2019年营业收入增长?", *stores).stdout
    assert why.startswith("金宇生物 FY2019 营业收入:1,126,782,253.35 元")
    assert "没有涵盖 FY2019 的文档;为避免误导,不引用其他期间的内容" in why and ".pdf" not in why
    same = invoke("ask", "金宇生物技术股份有限公司2020年电子信箱是什么?", *stores)
    assert "stock@jinyu.com.cn" in same.stdout and "检索到的文档涵盖" not in same.stdout
