"""`ragspine ingest` says what it did not store: each row or column no metric names, with its
label, each conflict with both readings, on the terminal in short and with `--report` in full."""

from __future__ import annotations

import json
from pathlib import Path

from openpyxl import Workbook

from ragspine.ingestion.report import IngestReportRecord
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.storage.fact_store import FactStore
from tests.cli import Ran, invoke
from tests.pg_stores import NewPlace, Place, store_absent
from tests.readers.test_readers import _deck

ROOT = Path(__file__).parents[2]
JINYU = str(ROOT / "examples" / "jinyu" / "profile.yaml")


def _statements(path: Path) -> Path:
    """A statement workbook as the challenge's: a row per company and year, items across."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "balance_static"
    sheet.append(["股票简称", "报告年份", "营业收入", "营业成本", "专项储备", "其他综合收益",
                  "库存股", "一般风险准备", "毛利率"])  # fmt: skip
    sheet.append(
        ["生物股份", "2020", "1,581,905,632.48", "500.00", "12.50", "-3.20", "7", "8", "1"]
    )
    sheet.append(["生物股份", "2019", "1,126,782,253.35", "400.00", "", "-1", "6", "5", "1"])
    sheet.append(["四方科技", "2020", "1,103,203,106.18", "300.00", "1.00", "2.00", "3", "4", "1"])
    book.save(path)
    return path


def _ingest(place: Place, *args: str, profile: str | None = JINYU) -> Ran:
    extra = ["--profile", profile] if profile else []
    return invoke(
        "ingest", *args, "--db", str(place("facts.db")),
        "--corpus", str(place("chunks.db")), *extra,
    )  # fmt: skip


def test_rows_no_metric_names_are_listed_by_label_not_only_counted(
    tmp_path: Path, place: Place
) -> None:
    book = _statements(tmp_path / "statements.xlsx")
    report = tmp_path / "ingest.json"
    out = _ingest(place, str(book), "--report", str(report))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == (
        "    added  statements.xlsx (0 chunks, 4 facts, 9 values not mapped, 0 conflicts)"
    )
    # the first three labels of each kind, then how many more, and the values they held
    assert lines[1] == (
        "           4 workbook columns not mapped (6 values): 专项储备, 其他综合收益, 库存股, "
        "… 1 more"
    )
    assert (
        lines[2]
        == "           1 derived metric (computed from others, not stored) (2 values): 毛利率"
    )
    assert lines[3] == "           1 row of other companies: 四方科技"
    assert lines[-1].endswith(f"; report: {report}")
    record = IngestReportRecord.model_validate_json(report.read_text("utf-8"))
    assert record.version == 1 and record.complete
    (file,) = record.files
    dropped = {(u.kind, u.label, u.period, u.value) for u in file.not_mapped}
    assert ("column", "专项储备", "FY2020", "12.50") in dropped
    assert ("column", "其他综合收益", "FY2019", "-1") not in dropped  # -1: "not reported"
    assert ("other_entity", "四方科技", "", "四方科技") in dropped
    special = next(u for u in file.not_mapped if u.label == "专项储备")
    assert special.locator == "sheet=balance_static,year=2020,col=专项储备"
    assert "no metric of the profile is named 「专项储备」" in special.why
    assert len({u.id for u in file.not_mapped}) == len(file.not_mapped)  # one id each


def test_the_report_is_the_same_for_the_same_file_and_written_whole(
    tmp_path: Path, new_place: NewPlace
) -> None:
    book = _statements(tmp_path / "statements.xlsx")
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    assert _ingest(new_place(), str(book), "--report", str(first)).returncode == 0
    assert _ingest(new_place(), str(book), "--report", str(second)).returncode == 0

    def ids(path: Path) -> list[str]:
        record = json.loads(path.read_text("utf-8"))
        return [u["id"] for f in record["files"] for u in f["not_mapped"]]

    assert ids(first) == ids(second) and ids(first)  # stable: two reports compare item by item
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == [
        "first.json",
        "second.json",
        "statements.xlsx",
    ]  # fmt: skip  (no temporary file left beside them)


def test_a_report_that_cannot_be_written_fails_before_anything_is_stored(
    tmp_path: Path, bare_place: Place
) -> None:
    book = _statements(tmp_path / "statements.xlsx")
    nowhere = tmp_path / "missing" / "ingest.json"
    out = _ingest(bare_place, str(book), "--report", str(nowhere))
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr == f"error: --report {nowhere}: no such folder {nowhere.parent}\n"
    assert store_absent(FactStore, bare_place("facts.db"))
    assert store_absent(ChunkStore, bare_place("chunks.db"))


def test_a_conflict_names_both_readings_and_which_is_kept(tmp_path: Path, place: Place) -> None:
    deck = _deck(tmp_path / "review.pptx")  # REVENUE FY2024: 455
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "KPI"  # names no entity: the company's own, as the deck's
    sheet.append(["指标", "FY2023", "FY2024"])
    sheet.append(["REVENUE", 410, 999])  # agrees on FY2023, not on FY2024
    book.save(tmp_path / "kpi.xlsx")
    report = tmp_path / "ingest.json"
    out = _ingest(place, str(deck), str(tmp_path / "kpi.xlsx"), "--report", str(report),
                  profile=None)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "    added  kpi.xlsx (0 chunks, 0 facts, 0 values not mapped, 1 conflict)" in out.stdout
    assert (
        "           conflict REVENUE ACME_GROUP FY2024: kept 455 "
        "(review.pptx · slide=1,table=1,row=REVENUE,col=FY2024), not 999 "
        "(kpi.xlsx · sheet=KPI,row=REVENUE,col=FY2024): stated first"
    ) in out.stdout
    record = IngestReportRecord.model_validate_json(report.read_text("utf-8"))
    (conflict,) = record.files[1].conflicts
    assert (conflict.kept.doc, conflict.kept.value) == ("review.pptx", "455")
    assert (conflict.dropped.doc, conflict.dropped.locator, conflict.dropped.value) == (
        "kpi.xlsx", "sheet=KPI,row=REVENUE,col=FY2024", "999",
    )  # fmt: skip
    assert conflict.unit == "USD_M" and "never overwrites another file's figure" in conflict.why


def test_without_a_report_the_terminal_says_where_the_full_list_is(
    tmp_path: Path, place: Place
) -> None:
    out = _ingest(place, str(_statements(tmp_path / "statements.xlsx")))
    assert out.stdout.endswith("every value not stored, with its locator: --report FILE.json\n")


def test_the_worker_says_the_same_and_keeps_the_full_list_beside_the_file(
    tmp_path: Path, place: Place
) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    _statements(inbox / "statements.xlsx")
    (inbox / "notes.md").write_text("# 说明\n\n门店营业时间调整。\n", "utf-8")
    out = invoke(
        "worker", "--inbox", str(inbox), "--once", "--settle", "0", "--profile", JINYU,
        "--db", str(place("facts.db")), "--corpus", str(place("chunks.db")),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    record = inbox / "done" / "statements.xlsx.report.json"
    assert (
        "    added  statements.xlsx (0 chunks, 4 facts, 9 values not mapped, 0 conflicts)\n"
        "           4 workbook columns not mapped (6 values): 专项储备, 其他综合收益, 库存股, "
        "… 1 more\n"
    ) in out.stdout
    assert f"           every value not stored, with its locator: {record}\n" in out.stdout
    (file,) = IngestReportRecord.model_validate_json(record.read_text("utf-8")).files
    assert file.doc == "statements.xlsx" and len(file.not_mapped) == 9
    # a file that left nothing unstored has no such record
    assert sorted(p.name for p in (inbox / "done").iterdir()) == [
        "notes.md", "statements.xlsx", "statements.xlsx.report.json",
    ]  # fmt: skip
