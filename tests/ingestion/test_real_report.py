"""The real 2020 annual report of 金宇生物 (600201), ingested the way a user would, and its
consolidated statements held against the statement rows a third party extracted from the same
reports (the FinGLM challenge's workbook). `make test` prints the agreement.

The one known difference: the 2020 report restates 2019's 购建固定资产、无形资产和其他长期资产支付
的现金 as 307,359,941.71 (its 2019 investing outflows, 1,699,559,941.71, add up only with that
figure), while the workbook, taken from the 2019 report, has 46,385,827.27.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.ingestion.tables import TableMapper
from ragspine.profile import load_profile
from ragspine.readers import XlsxReader
from ragspine.storage.fact_store import Fact, FactStore
from tests.cli import Ran, invoke

REALWORLD = Path(__file__).parents[3] / "shared" / "realworld"
REPORT = REALWORLD / "600201_金宇生物_2020_年度报告.pdf"
PROFILE = Path(__file__).parents[2] / "examples" / "jinyu" / "profile.yaml"
RESTATED = {("CAPEX_CASH", "2019")}

pytestmark = pytest.mark.skipif(not REPORT.is_file(), reason="needs ../shared/realworld")


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> tuple[Ran, Path, Path]:
    folder = tmp_path_factory.mktemp("report")
    db, corpus = folder / "facts.db", folder / "chunks.db"
    out = invoke(
        "ingest", str(REPORT), "--db", str(db), "--corpus", str(corpus),
        "--profile", str(PROFILE),
    )  # fmt: skip
    return out, db, corpus


def test_ingesting_the_report_says_what_it_made(ingested: tuple[Ran, Path, Path]) -> None:
    out, db, _ = ingested
    assert out.returncode == 0, out.stderr
    line = out.stdout.splitlines()[0]
    assert line.startswith("    added  600201_金宇生物_2020_年度报告.pdf (")
    assert "chunks" in line and "facts" in line and "cells not mapped" in line
    assert out.stderr.strip().endswith("page 195/195")  # progress, on stderr
    with FactStore(db) as store:
        facts = list(store.iter_facts())
    assert len(facts) >= 100
    hashes = {(f.source_file_hash, f.extractor_version, f.mapping_version) for f in facts}
    assert len(hashes) == 1 and all(hashes.pop())  # every fact carries its versions


def test_the_statements_agree_with_the_third_partys_rows(
    ingested: tuple[Ran, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, db, _ = ingested
    with FactStore(db) as store:
        report: dict[tuple[str, str], Fact] = {
            (f.metric_code, f.period): f for f in store.iter_facts()
        }
    rows = XlsxReader().read(REALWORLD / "statements_600201_603339.xlsx")
    workbook = TableMapper(load_profile(PROFILE), "statements.xlsx", "-", "JINYU").map(rows.tables)
    same, different = [], []
    for fact in workbook.facts:
        mine = report.get((fact.metric_code, fact.period))
        if mine is not None:
            (same if mine.exact == fact.exact else different).append((fact, mine))
    with capsys.disabled():
        print(
            f"\nreal report vs statement rows: {len(same)} line items agree, "
            f"{len(different)} differ: "
            + ", ".join(f"{f.metric_code} FY{f.period} {m.value_text} vs {f.value_text}"
                        for f, m in different)
        )  # fmt: skip
    assert len(same) >= 100
    assert {(f.metric_code, f.period) for f, _ in different} == RESTATED


def test_an_answer_cites_the_reports_page_table_row_and_column(
    ingested: tuple[Ran, Path, Path],
) -> None:
    _, db, corpus = ingested
    out = invoke(
        "ask", "金宇生物2019年的货币资金是多少?", "--db", str(db), "--corpus", str(corpus),
        "--profile", str(PROFILE),
    )  # fmt: skip
    assert out.stdout.startswith(
        "金宇生物 FY2019末 货币资金:1,108,509,231.31 元(来源:600201_金宇生物_2020_年度报告.pdf"
        " · page=66,table=1,row=货币资金,col=2019年12月31日)"
    )
    text = invoke(
        "ask", "什么是在建工程?", "--db", str(db), "--corpus", str(corpus),
        "--profile", str(PROFILE),
    )  # fmt: skip
    assert "(来源:600201_金宇生物_2020_年度报告.pdf page=" in text.stdout
