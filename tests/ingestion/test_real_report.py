"""The two real annual reports, ingested the way a user would, each with its own company's
profile, and their consolidated statements held against the statement rows a third party
extracted from the same companies' reports (the FinGLM challenge's workbook). `make test` prints
the agreement.

The one known difference: 金宇生物's 2020 report restates 2019's 购建固定资产、无形资产和其他长期
资产支付的现金 as 307,359,941.71 (its 2019 investing outflows, 1,699,559,941.71, add up only with
that figure), while the workbook, taken from the 2019 report, has 46,385,827.27.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ragspine.errors import IngestError
from ragspine.ingestion.pipeline import _check_company
from ragspine.ingestion.tables import TableMapper
from ragspine.profile import load_profile
from ragspine.readers import FileContent, TextBlock, XlsxReader
from ragspine.storage.fact_store import Fact, FactStore
from tests.cli import Ran, invoke

REALWORLD = Path(__file__).parents[3] / "shared" / "realworld"
EXAMPLES = Path(__file__).parents[2] / "examples"
COMPANIES = {
    # report, profile, entity, what the report states otherwise than the workbook
    "jinyu": ("600201_金宇生物_2020_年度报告.pdf", "JINYU", {("CAPEX_CASH", "2019")}),
    "sifang": ("603339_四方科技_2019_年度报告.pdf", "SIFANG", set()),
}

pytestmark = pytest.mark.skipif(not REALWORLD.is_dir(), reason="needs ../shared/realworld")


@pytest.fixture(scope="module", params=sorted(COMPANIES))
def ingested(request: pytest.FixtureRequest, real_report: Callable[[str], dict]) -> dict:  # type: ignore[type-arg]
    return real_report(request.param)


def _ask(ingested: dict, question: str) -> Ran:  # type: ignore[type-arg]
    return invoke(
        "ask", question, "--db", str(ingested["db"]), "--corpus", str(ingested["corpus"]),
        "--profile", str(ingested["profile"]), "--reference-date", "2022-06-30",
    )  # fmt: skip


@pytest.mark.slow
def test_ingesting_a_report_says_what_it_made(ingested: dict) -> None:  # type: ignore[type-arg]
    out: Ran = ingested["out"]
    assert out.returncode == 0, out.stderr
    line = out.stdout.splitlines()[0]
    year = {"jinyu": "FY2020", "sifang": "FY2019"}[ingested["name"]]  # read from its cover
    assert line.startswith(f"    added  {COMPANIES[ingested['name']][0]} · {year} (")
    assert "chunks" in line and "facts" in line and "values not mapped" in line
    # progress: the pages read, or the report taken from the session's cache of read documents
    assert out.stderr.strip().endswith(("page 195/195", "page 156/156", "not read again"))
    with FactStore(ingested["db"]) as store:
        facts = list(store.iter_facts())
    assert len(facts) >= 100
    versions = {(f.source_file_hash, f.extractor_version, f.mapping_version) for f in facts}
    assert len(versions) == 1 and all(versions.pop())  # every fact carries its versions


@pytest.mark.slow
def test_the_statements_agree_with_the_third_partys_rows(
    ingested: dict,  # type: ignore[type-arg]
    printed: Callable[[str], None],
) -> None:
    report_name, entity, restated = COMPANIES[ingested["name"]]
    with FactStore(ingested["db"]) as store:
        report: dict[tuple[str, str], Fact] = {
            (f.metric_code, f.period): f for f in store.iter_facts()
        }
    rows = XlsxReader().read(REALWORLD / "statements_600201_603339.xlsx")
    profile = load_profile(ingested["profile"])
    workbook = TableMapper(profile, "statements.xlsx", "-", entity).map(rows.tables)
    same, different = [], []
    for fact in workbook.facts:
        mine = report.get((fact.metric_code, fact.period))
        if mine is not None:
            (same if mine.exact == fact.exact else different).append((fact, mine))
    printed(
        f"{report_name} vs statement rows: {len(same)} line items agree, {len(different)} differ"
        + "".join(f"; {f.metric_code} FY{f.period} {m.value_text} vs {f.value_text}"
                  for f, m in different)
    )  # fmt: skip
    assert len(same) >= 40  # 103 for 金宇 (2019 and 2020), 45 for 四方科技 (2019 only)
    assert {(f.metric_code, f.period) for f, _ in different} == restated


@pytest.mark.slow
def test_answers_cite_the_reports_page_table_row_and_column(ingested: dict) -> None:  # type: ignore[type-arg]
    if ingested["name"] == "jinyu":
        out = _ask(ingested, "金宇生物2019年的货币资金是多少?")
        assert out.stdout.startswith(
            "金宇生物 FY2019末 货币资金:1,108,509,231.31 元(来源:600201_金宇生物_2020_年度报告.pdf"
            " · page=66,table=1,row=货币资金,col=2019年12月31日)"
        )
    else:  # the challenge's official answers, from 四方科技's own report
        assert (
            "毛利率:23.15%" in _ask(ingested, "2019年四方科技毛利率是多少？请保留两位小数。").stdout
        )
        fee = _ask(ingested, "在2019年的财务数据中，四方科技管理费用率是多少？保留两位小数")
        assert "管理费用率:3.99%" in fee.stdout
        assert "zqb@ntsquare.com" in _ask(ingested, "2019年四方科技电子信箱是什么?").stdout
        # the other company, asked here, is declined
        other = _ask(ingested, "金宇生物2019年营业收入是多少?")
        assert "不在本系统的覆盖范围内" in other.stdout and "元(来源" not in other.stdout


def test_asked_without_profile_the_store_answers_for_its_own_company(ingested: dict) -> None:  # type: ignore[type-arg]
    """`ingest --profile` stored the profile: a user who leaves it out gets the company's answer,
    not 「…」不在本系统的覆盖范围内 from the ACME demo's."""
    question, answer = {
        "jinyu": ("金宇生物2019年的货币资金是多少?", "货币资金:1,108,509,231.31 元"),
        "sifang": ("四方科技2019年的营业收入是多少元?", "营业收入:1,175,301,034.32 元"),
    }[ingested["name"]]
    out = invoke(
        "ask", question, "--db", str(ingested["db"]), "--corpus", str(ingested["corpus"]),
    )  # fmt: skip
    assert answer in out.stdout and "不在本系统的覆盖范围内" not in out.stdout
    assert out.stderr == ""


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("公司代码：603339 公司简称：四方科技", "「603339」"),  # another company's code
        ("公司代码：600201 公司简称：四方科技", "「四方科技」"),  # the code fits, the name does not
        ("公司代码：600201 公司简称：生物股份", None),  # ours
        ("公司简称：金宇生物金宇生物技术股份有限公司", None),  # ours, run into the next line
        ("年度报告", None),  # names no company: nothing to check
    ],
)
def test_a_report_of_another_company_is_refused_before_any_fact(
    text: str, refused: str | None
) -> None:
    content = FileContent(Path("r.pdf"), blocks=[TextBlock("page=1,para=1", text)])
    profile = load_profile(EXAMPLES / "jinyu" / "profile.yaml")
    if refused is None:
        _check_company(Path("r.pdf"), content, profile)
        return
    with pytest.raises(IngestError, match=refused) as err:
        _check_company(Path("r.pdf"), content, profile)
    assert str(err.value).startswith("r.pdf: page=1,para=1: the document is about")


def test_statement_rows_the_profile_does_not_name_are_listed_by_label(ingested: dict) -> None:  # type: ignore[type-arg]
    """四方科技's balance sheet prints 专项储备 and 其他综合收益, which its profile names no
    metric for: each value is in the report with its cell, and the terminal names such rows."""
    from ragspine.ingestion.report import IngestReportRecord

    out: Ran = ingested["out"]
    assert "statement rows not mapped" in out.stdout
    (file,) = IngestReportRecord.model_validate_json(ingested["report"].read_text("utf-8")).files
    rows = {(u.label, u.period): u for u in file.not_mapped if u.kind == "statement_row"}
    assert ("其他综合收益", "FY2019") in rows  # both reports print it; neither profile names it
    if ingested["name"] == "sifang":
        special = rows[("专项储备", "FY2019")]
        assert special.locator == "page=61,table=1,row=专项储备,col=2019年12月31日"
        assert special.value == "3,412,940.61"
