"""Each reader on real files written here (openpyxl, python-pptx, pypdf) and on the real report."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook
from pptx import Presentation
from pptx.util import Inches
from pypdf import PdfWriter

from ragspine.ingestion.text import reader_for
from ragspine.readers import DocxReader, PdfReader, PptxReader, ReadError, XlsxReader


def _workbook(path: Path) -> Path:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "ACME_HK"
    sheet.append(["指标", "FY2023", "FY2024"])
    sheet.append(["REVENUE", 410, 455.5])
    sheet.append(["备注", "未经审计", None])
    sheet["C2"].number_format = "#,##0.00"
    book.save(path)
    return path


def _deck(path: Path, *, table: bool = True) -> Path:
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])  # title only
    assert slide.shapes.title is not None
    slide.shapes.title.text = "FY2024 业绩回顾"
    box = slide.shapes.add_textbox(Inches(1), Inches(5), Inches(6), Inches(1))
    box.text_frame.text = "香港收入增长约11%。"
    if table:
        shape = slide.shapes.add_table(2, 3, Inches(1), Inches(2), Inches(6), Inches(1))
        for c, text in enumerate(["指标", "FY2023", "FY2024"]):
            shape.table.cell(0, c).text = text
        for c, text in enumerate(["REVENUE", "410", "455"]):
            shape.table.cell(1, c).text = text
    deck.save(str(path))
    return path


def test_a_workbook_sheet_is_a_table_with_cells_as_formatted(tmp_path: Path) -> None:
    content = XlsxReader().read(_workbook(tmp_path / "hk.xlsx"))
    (table,) = content.tables
    assert table.locator == "sheet=ACME_HK" and content.units == 1
    # 455.5 in a #,##0.00 cell reads 455.50: the precision the workbook shows
    assert table.rows[1] == ["REVENUE", "410", "455.50"]
    assert table.rows[2] == ["备注", "未经审计", ""]


def test_a_deck_gives_its_text_frames_and_tables_by_slide(tmp_path: Path) -> None:
    content = PptxReader().read(_deck(tmp_path / "review.pptx"))
    assert [(b.locator, b.text) for b in content.blocks] == [
        ("slide=1,para=1", "FY2024 业绩回顾"),
        ("slide=1,para=2", "香港收入增长约11%。"),
    ]
    (table,) = content.tables
    assert table.locator == "slide=1,table=1" and table.rows[1] == ["REVENUE", "410", "455"]
    assert table.caption == "FY2024 业绩回顾"  # the slide's title says what the table is


def test_a_deck_without_tables_is_read_as_text(tmp_path: Path) -> None:
    content = PptxReader().read(_deck(tmp_path / "notes.pptx", table=False))
    assert content.tables == [] and len(content.blocks) == 2


@pytest.mark.parametrize(
    ("name", "data", "why"),
    [
        ("bad.pdf", b"%PDF-1.4 this is not a pdf", "not a readable PDF"),  # corrupt PDF
        ("empty.pdf", b"", "not a readable PDF"),  # zero bytes
        ("bad.xlsx", b"PK\x03\x04 not a workbook", "not a readable XLSX workbook"),  # corrupt zip
        ("bad.pptx", b"not a deck at all", "not a readable PPTX deck"),  # not a zip
    ],
)
def test_an_unreadable_file_is_one_clear_error(
    tmp_path: Path, name: str, data: bytes, why: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    reader = reader_for(path)
    assert reader is not None
    with pytest.raises(ReadError, match=why) as err:
        reader.read(path)
    assert str(path) in str(err.value)


def test_a_password_protected_pdf_says_so(tmp_path: Path) -> None:
    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    writer.encrypt("secret")
    path = tmp_path / "locked.pdf"
    writer.write(path)
    with pytest.raises(ReadError, match="password-protected"):
        PdfReader().read(path)


def test_an_empty_workbook_says_so(tmp_path: Path) -> None:
    path = tmp_path / "empty.xlsx"
    Workbook().save(path)
    with pytest.raises(ReadError, match="no filled cells"):
        XlsxReader().read(path)


@pytest.mark.parametrize(
    "name",
    [
        "book.xlsx",  # a workbook cut off half way through its zip
        "deck.pptx",  # a deck cut off half way through its zip
    ],
)
def test_a_truncated_file_is_one_clear_error(tmp_path: Path, name: str) -> None:
    whole = _workbook(tmp_path / "w.xlsx") if name.endswith("xlsx") else _deck(tmp_path / "d.pptx")
    data = whole.read_bytes()
    path = tmp_path / name
    path.write_bytes(data[: len(data) // 2])
    reader = reader_for(path)
    assert reader is not None
    with pytest.raises(ReadError) as err:
        reader.read(path)
    assert str(err.value).startswith(str(path))


def test_a_word_document_gives_paragraphs_under_their_heading_and_tables(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("门店策略", level=1)
    document.add_paragraph("2025年计划新开约20家门店。")
    table = document.add_table(rows=2, cols=2)
    for c, text in enumerate(["指标", "FY2024"]):
        table.cell(0, c).text = text
    for c, text in enumerate(["STORE_COUNT", "540"]):
        table.cell(1, c).text = text
    path = tmp_path / "strategy.docx"
    document.save(str(path))
    content = DocxReader().read(path)
    assert [(b.locator, b.text, b.heading) for b in content.blocks] == [
        ("para=1", "门店策略", "门店策略"),
        ("para=2", "2025年计划新开约20家门店。", "门店策略"),
    ]
    assert [(t.locator, t.rows) for t in content.tables] == [
        ("table=1", [["指标", "FY2024"], ["STORE_COUNT", "540"]])
    ]
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"not a document")
    with pytest.raises(ReadError, match="not a readable DOCX document"):
        DocxReader().read(broken)
