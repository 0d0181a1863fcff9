"""PDF: paragraphs under the report's own headings, and ruled tables, with pdfplumber.

pdfplumber (on pdfminer.six) reads the text layer and finds tables from their ruling lines,
which is how listed companies' statements are printed; it is pure Python, so it installs
everywhere. Tables are looked for only on pages whose text holds figures: most of a report is
prose, and table finding is the slow part. The lines of all pages, without running headers,
page numbers and the contents list, are read back into headings and paragraphs by
``readers.layout``; a paragraph's locator is the page it starts on (``page=37,para=2``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ragspine.readers import layout
from ragspine.readers.base import FileContent, ReadError, Table, TextBlock

_FIGURE = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d{2}")
_UNIT = re.compile(
    r"单位\s*[:：]\s*(?:人民币)?(?:元|千元|万元|百万元|亿元|美元|千美元|百万美元)|"
    r"(?:in|unit:?)\s+(?:usd|rmb|cny)?\s*(?:thousands?|millions?|billions?)",
    re.I,
)
# A statement's title, which its continuation pages do not repeat.
_STATEMENT = re.compile(
    r"^\s*((?:合并|母公司)(?:资产负债表|利润表|现金流量表|所有者权益变动表))\s*$", re.M
)
# A running header or a page number: 2020年年度报告, XX股份有限公司2019 年年度报告, 5 / 195.
_RUNNING = re.compile(
    r"^(?:(?:\S*股份有限公司\s*)?(?:19|20)\d{2}\s*年\s*(?:年度|半年度)报告|\d+\s*/\s*\d+)$"
)
_PAGE_NUMBER = re.compile(r"^\d+\s*/\s*\d+$")
COVER_PAGES = 2  # the title page, and the page after it where the title is printed late
_TOC_ENTRY = re.compile(r"(?:\.{6,}|…{3,}|·{6,})\s*\d*$")  # 第一节 释义 ........ 4
_CID = re.compile(r"\(cid:\d+\)")  # pdfminer's placeholder for a glyph without text
MIN_FIGURES = 6  # a page with fewer figures holds no statement table worth the search


class PdfReader:
    suffixes: tuple[str, ...] = (".pdf",)
    # what the cache of read documents keys on (``ingestion.cache``): bump ``version`` when
    # this reader's output changes; ``libraries`` are the packages it reads through
    version = 1
    libraries: tuple[str, ...] = ("pdfplumber", "pdfminer.six")

    def __init__(
        self, progress: Callable[[int, int], None] | None = None, *, max_pages: int | None = None
    ) -> None:
        self.progress = progress
        self.max_pages = max_pages  # more pages than this is refused before the first is read
        self._title = self._unit = ""
        self._lines: list[layout.Line] = []
        self._in_body = False

    def read(self, path: Path) -> FileContent:
        import pdfplumber
        from pdfminer.pdfdocument import PDFPasswordIncorrect
        from pdfminer.pdfparser import PDFSyntaxError

        content = FileContent(path)
        self._title = self._unit = ""
        self._lines, self._in_body = [], False
        try:
            with pdfplumber.open(path) as pdf:
                total = len(pdf.pages)
                if self.max_pages is not None and total > self.max_pages:
                    raise ReadError(
                        f"{path}: refused: {total} pages, over the limit of {self.max_pages} "
                        "(--max-pages)"
                    )
                for n, page in enumerate(pdf.pages, start=1):
                    try:
                        self._page(content, n, page)
                    except Exception as exc:
                        raise ReadError(f"{path}: page {n}: cannot read: {exc}") from exc
                    page.close()  # pdfplumber keeps every parsed page otherwise
                    if self.progress:
                        self.progress(n, total)
                content.units = total
        except ReadError:
            raise
        except PDFPasswordIncorrect:
            raise ReadError(f"{path}: the PDF is password-protected") from None
        except PDFSyntaxError as exc:
            raise ReadError(f"{path}: not a readable PDF: {exc}") from None
        except Exception as exc:
            if "password" in str(exc).lower() or (
                type(exc).__name__ == "PdfminerException" and ("PDFPasswordIncorrect" in repr(exc))
            ):
                raise ReadError(f"{path}: the PDF is password-protected") from None
            raise ReadError(f"{path}: not a readable PDF: {exc or type(exc).__name__}") from None
        if not content.units:
            raise ReadError(f"{path}: the PDF has no pages")
        paras: dict[int, int] = {}
        for block in layout.blocks(self._lines):
            paras[block.page] = k = paras.get(block.page, 0) + 1
            content.blocks.append(
                TextBlock(f"page={block.page},para={k}", block.text, block.heading)
            )
        self._lines = []
        return content

    def _page(self, content: FileContent, n: int, page: object) -> None:
        text = page.extract_text() or ""  # type: ignore[attr-defined]
        for raw in text.splitlines():
            line = " ".join(_CID.sub("", raw).split())
            running = bool(line) and _RUNNING.match(line)
            if running and n <= COVER_PAGES and not _PAGE_NUMBER.match(line):
                content.cover.append(line)  # the title page's 2019 年年度报告, kept aside
            if not line or running or _TOC_ENTRY.search(line):
                continue
            if line == "目录" and not self._in_body:
                continue
            self._in_body = self._in_body or layout.is_part(line)
            self._lines.append(layout.Line(n, line))
        carried = self._title
        titles = [
            (m["top"], m["text"].strip())
            for m in page.search(_STATEMENT.pattern.strip("^$\\s*"))  # type: ignore[attr-defined]
        ]
        units = _UNIT.findall(text)
        if titles:
            self._title = titles[-1][1]
        elif units:
            self._title = ""  # a new table with a unit and no statement title
        self._unit = units[-1] if units else self._unit
        if len(_FIGURE.findall(text)) < MIN_FIGURES:
            return
        for k, found in enumerate(page.find_tables(), start=1):  # type: ignore[attr-defined]
            rows = found.extract()
            cells = [[(c or "").replace("\n", "") for c in row] for row in rows if row]
            if not cells:
                continue
            # the statement a table belongs to: the last title above it, else the one carried
            above = [t for top, t in titles if top < found.bbox[1]]
            title = above[-1] if above else carried
            caption = " ".join(c for c in (title, self._unit) if c)
            content.tables.append(Table(f"page={n},table={k}", cells, caption))
