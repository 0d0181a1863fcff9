"""`ragspine profile draft` and `ragspine profile check` run as a user runs them, on a small
report (.docx: its company-information lines and a statement table) and a statements workbook
(.xlsx: one row per year and company) written here."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from docx import Document
from openpyxl import Workbook

from ragspine.ingestion.company import CompanyNames, company_names, english_name, legal_variants
from ragspine.ingestion.draft import draft, render
from ragspine.ingestion.row_labels import map_tables
from ragspine.profile import default_profile, load_profile
from ragspine.readers import FileContent, Table, TextBlock
from tests.cli import invoke

COVER = "公司代码：688001 公司简称：样例科技"
INFO = [
    "公司的中文名称 样例科技集团股份有限公司",
    "公司的外文名称 SAMPLE TECHNOLOGY GROUP CO.,LTD",
    "公司的外文名称缩写 SMPL",
]
STATEMENT = [
    ["项目", "附注", "2023年12月31日", "2022年12月31日"],
    ["货币资金", "七、1", "905,402,299.44", "603,513,254.62"],
    ["实收资本(或股本)", "七、53", "210,674,875.00", "210,743,750.00"],  # half-width brackets
    ["应付短期融资款", "七、58", "3,412,940.61", ""],  # a line item cas does not name
    ["销售商品、提供劳务收到的", "", "", ""],  # a label wrapped over two rows
    ["现金", "", "1,342,096,969.07", "1,100,000,000.00"],
]
# A note's table: its rows are listed by `check`, never drafted from (no line item in it).
NOTE = [
    ["项目", "2023年", "2022年"],
    [
        "计入当期损益的政府补助，但与公司正常经营业务密切相关，符合国家政策规定、"
        "按照一定标准定额或定量持续享受的政府补助除外",
        "7,504,393.00",
        "",
    ],
]


def _report(path: Path, *, cover: str = COVER) -> Path:
    doc = Document()
    for line in (cover, *INFO):
        doc.add_paragraph(line)
    table = doc.add_table(rows=len(STATEMENT), cols=4)
    for r, row in enumerate(STATEMENT):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    note = doc.add_table(rows=len(NOTE), cols=3)
    for r, row in enumerate(NOTE):
        for c, text in enumerate(row):
            note.cell(r, c).text = text
    doc.save(str(path))
    return path


def _workbook(path: Path) -> Path:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "profit_statement"
    sheet.append(["报告年份", "股票代码", "股票简称", "营业收入", "营业成本", "汇兑收益", "退保金"])
    sheet.append([2024, "688001", "样例科技", 1200.5, 800.25, 3.5, -1])  # ours; -1: not reported
    sheet.append([2024, "600999", "别家公司", 1.0, 1.0, 1.0, 1.0])  # another company's row
    book.save(path)
    return path


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    folder = tmp_path_factory.mktemp("draft")
    report, workbook = _report(folder / "report.docx"), _workbook(folder / "statements.xlsx")
    ran = invoke("profile", "draft", str(report), str(workbook))
    assert ran.returncode == 0, ran.stderr
    profile = folder / "profile.yaml"
    profile.write_text(ran.stdout, "utf-8")
    return profile, report, workbook


def test_a_draft_extends_cas_with_the_companys_own_names(drafted: tuple[Path, Path, Path]) -> None:
    profile, *_ = drafted
    data = yaml.safe_load(profile.read_text("utf-8"))
    assert data["extends"] == "cas" and data["home_company_name"] == "样例科技集团股份有限公司"
    assert data["home_entity_code"] == "SMPL" and data["coverage"] == ["FY2022", "FY2023"]
    # the workbook's line items have 2024 only: each says its own years
    assert data["metrics"] == [
        {"code": code, "coverage": ["FY2024"]}
        for code in ("REVENUE", "OPERATING_COSTS", "EXCHANGE_GAINS")
    ]
    (entity,) = data["entities"]
    assert entity["name_zh"] == "样例科技" and entity["name_en"] == "Sample Technology Group"
    assert entity["aliases"] == [
        "样例科技", "样例科技集团股份有限公司", "样例科技集团", "688001",
        "Sample Technology Group", "Sample Technology", "SMPL", "本公司", "公司",
    ]  # fmt: skip
    assert set(data) == {
        "version", "extends", "name", "home_company_name", "home_entity_code", "coverage",
        "entities", "metrics",
    }  # fmt: skip


def test_a_draft_loads_as_it_is(drafted: tuple[Path, Path, Path]) -> None:
    prof = load_profile(drafted[0])
    assert prof.metric("PAID_IN_CAPITAL").kind == "balance" and prof.derived("GROSS_MARGIN")


def test_rows_the_base_does_not_name_are_commented_candidates(
    drafted: tuple[Path, Path, Path],
) -> None:
    text = drafted[0].read_text("utf-8")
    candidates = [line for line in text.splitlines() if line.startswith("#   - {code: ITEM_")]
    assert candidates == [
        '#   - {code: ITEM_1, unit: CNY, kind: balance, name_zh: "应付短期融资款", '
        'aliases: ["应付短期融资款"]}  # report.docx · table=1',
    ]
    assert "# 6 statement row labels name line items of `cas`; 1 do not" in text
    # uncommented, the candidate is a metric of a valid profile
    kept = text.replace("#   - {code: ITEM_1", "  - {code: ITEM_1")
    drafted[0].with_name("kept.yaml").write_text(kept, "utf-8")
    assert load_profile(drafted[0].with_name("kept.yaml")).metric("ITEM_1").unit == "CNY"


def test_check_lists_each_label_and_what_it_maps_to(drafted: tuple[Path, Path, Path]) -> None:
    profile, report, workbook = drafted
    ran = invoke("profile", "check", str(profile), str(report), str(workbook))
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0].startswith(f"{profile}: valid: 163 metrics, 36 derived, 1 entities")
    rows = [line.split() for line in lines[3:-1]]
    assert rows == [
        ["report.docx", "table=1", "货币资金", "MONETARY_FUNDS"],
        ["report.docx", "table=1", "实收资本", "PAID_IN_CAPITAL"],  # read without its note
        ["report.docx", "table=1", "应付短期融资款", "not", "mapped"],
        ["report.docx", "table=1", "销售商品、提供劳务收到的现金", "CASH_FROM_SALES"],
        ["report.docx", "table=2", NOTE[1][0][:39] + "…", "not", "mapped"],  # cut at 40
        ["statements.xlsx", "sheet=profit_statement", "营业收入", "REVENUE"],
        ["statements.xlsx", "sheet=profit_statement", "营业成本", "OPERATING_COSTS"],
        ["statements.xlsx", "sheet=profit_statement", "汇兑收益", "EXCHANGE_GAINS"],
    ]  # fmt: skip
    assert lines[-1] == "8 row labels with figures: 6 mapped, 2 not"
    only = invoke("profile", "check", str(profile), str(report), "--not-mapped")
    assert [line.split()[2][:7] for line in only.stdout.splitlines()[3:-1]] == [
        "应付短期融资款",
        "计入当期损益的",
    ]


def test_check_without_files_validates_the_profile(drafted: tuple[Path, Path, Path]) -> None:
    ran = invoke("profile", "check", str(drafted[0]))
    assert ran.returncode == 0 and ran.stdout.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "{dir}/missing.yaml"], "missing.yaml: profile file not found"),  # no profile
        (["check", "{dir}/bad.yaml"], "bad.yaml: extends: unknown base profile 'ifrs'"),
        (["check", "{dir}/profile.yaml", "{dir}/nowhere.pdf"], "nowhere.pdf: no such file"),
        (["draft", "{dir}/nowhere.pdf"], "nowhere.pdf: no such file"),
        (["draft", "{dir}/anonymous.docx"], "anonymous.docx: names no company in its first pages"),
        (["draft", "{dir}/notes.txt"], "notes.txt: names no company"),  # a text file, no company
    ],
)
def test_errors_are_one_line(
    drafted: tuple[Path, Path, Path], tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "bad.yaml").write_text("extends: ifrs\nname: x\n", "utf-8")
    (tmp_path / "profile.yaml").write_text(drafted[0].read_text("utf-8"), "utf-8")
    (tmp_path / "notes.txt").write_text("年度报告\n", "utf-8")
    _report(tmp_path / "anonymous.docx", cover="年度报告")
    doc = Document(str(tmp_path / "anonymous.docx"))
    for p in doc.paragraphs:
        p.text = "年度报告"
    doc.save(str(tmp_path / "anonymous.docx"))
    ran = invoke("profile", *(a.format(dir=tmp_path) for a in args))
    assert ran.returncode == 1 and ran.stdout == ""
    assert ran.stderr.startswith("error: ") and message in ran.stderr
    assert ran.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("公司代码：603339 公司简称：四方科技", "short", "四方科技"),  # the cover line
        ("公司代码：603339 公司简称：四方科技", "code", "603339"),
        ("公司简称：金宇生物金宇生物技术股份有限公司\n公司的中文名称 金宇生物技术股份有限公司",
         "short", "金宇生物"),  # run into the next line
        ("公司的中文简称 生物股份", "short", "生物股份"),  # the information section, no colon
        ("股票种类 股票上市交易所 股票简称 股票代码 变更前股票简称", "short", ""),  # a header
        ("四方科技集团股份有限公司\n重要提示", "legal", "四方科技集团股份有限公司"),  # the cover
        ("公司的外文名称 JINYU CO.，LTD.", "english", "JINYU CO.，LTD."),  # to the line's end
        ("公司的外文名称缩写 SQTEG", "initials", "SQTEG"),
    ],
)  # fmt: skip
def test_the_company_is_read_from_its_reports_own_words(text: str, field: str, value: str) -> None:
    content = FileContent(Path("r.pdf"), blocks=[TextBlock("page=1,para=1", text)])
    assert getattr(company_names(content), field) == value


@pytest.mark.parametrize(
    ("legal", "variants"),
    [
        ("四方科技集团股份有限公司", ["四方科技集团", "四方科技"]),  # 集团, then 科技 leaves 2
        ("金宇生物技术股份有限公司", ["金宇生物技术", "金宇生物"]),
        ("贵州茅台酒股份有限公司", ["贵州茅台酒"]),  # nothing generic at the end
        ("中国石油化工股份有限公司", ["中国石油化工"]),
        ("", []),
    ],
)
def test_a_legal_name_is_written_without_its_form_and_generic_words(
    legal: str, variants: list[str]
) -> None:
    assert legal_variants(legal) == variants


def test_an_english_name_loses_its_legal_form() -> None:
    assert english_name("JINYU BIO-TECHNOLOGY CO.，LTD.") == "Jinyu Bio-Technology"
    assert english_name("Kweichow Moutai Co., Ltd.") == "Kweichow Moutai"
    assert CompanyNames(short="样例", code="688001").aliases() == ["样例", "688001"]


def test_a_drafted_name_another_listed_company_holds_is_left_out() -> None:
    # 中远海运 is 中远海运控股 without 控股, and part of 中远海运发展's and 中远海运特种运输's names
    report = FileContent(
        Path("601919.pdf"),
        blocks=[
            TextBlock("page=1,para=1", "公司代码：601919 公司简称：中远海控"),
            TextBlock("page=4,para=2", "公司的中文名称 中远海运控股股份有限公司"),
        ],
    )
    drafted = draft(report, [])
    assert drafted.aliases == ["中远海控", "中远海运控股股份有限公司", "中远海运控股", "601919",
                               "本公司", "公司"]  # fmt: skip
    assert drafted.left_out == ["中远海运"] and drafted.entity_code == "CO_601919"
    assert '# left out: "中远海运", part of another listed company\'s name' in render(drafted)


@pytest.mark.parametrize(
    ("cover", "meta", "held"),
    [
        # the year a running head on the cover names: 期末余额 / 期初余额 read as 2019 / 2018
        (["2019 年年度报告"], {}, True),
        # a text file's front matter names it
        ([], {"period": "FY2019"}, True),
        # no year anywhere: the columns name no period, so the row holds no figure
        ([], {}, False),
    ],
)
def test_check_reads_the_years_columns_as_ingest_does(
    cover: list[str], meta: dict[str, object], held: bool
) -> None:
    """`profile check` and `draft` map a file as `ingest` does, with the year its cover (or
    front matter) names: a notes table's 期末余额 / 期初余额 are that year's and the one before."""
    table = Table(
        "page=96,table=1", [["项目", "期末余额", "期初余额"], ["应收票据", "5,025", "4,668"]]
    )
    content = FileContent(Path("r.pdf"), tables=[table], meta=meta, cover=cover)
    labels = [row.label for row in map_tables(content, default_profile()).labels]
    assert labels == (["应收票据"] if held else [])
