"""DOCX: paragraphs as blocks (under their heading) and tables as tables, with python-docx."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from zipfile import BadZipFile

from ragspine.readers.base import FileContent, ReadError, Table, TextBlock


class DocxReader:
    suffixes: tuple[str, ...] = (".docx",)
    # what the cache of read documents keys on (``ingestion.cache``): bump ``version`` when
    # this reader's output changes; ``libraries`` are the packages it reads through
    version = 1
    libraries: tuple[str, ...] = ("python-docx",)

    def read(self, path: Path) -> FileContent:
        import docx
        from docx.opc.exceptions import PackageNotFoundError

        try:
            document = docx.Document(str(path))
        except (BadZipFile, PackageNotFoundError, KeyError, ValueError) as exc:
            raise ReadError(f"{path}: not a readable DOCX document: {exc}") from None
        content = FileContent(path, units=1)
        try:
            self._body(content, document)
        except Exception as exc:  # python-docx raises what the broken XML gives it
            raise ReadError(f"{path}: cannot read: {exc}") from exc
        return content

    def _body(self, content: FileContent, document: Any) -> None:
        heading = ""
        for n, para in enumerate((p for p in document.paragraphs if p.text.strip()), start=1):
            text = para.text.strip()
            if para.style is not None and para.style.name.lower().startswith(("heading", "title")):
                heading = text
            content.blocks.append(TextBlock(f"para={n}", text, heading))
        for k, table in enumerate(document.tables, start=1):
            rows = [[cell.text.strip() for cell in row.cells] for row in table.rows]
            if any(any(r) for r in rows):
                content.tables.append(Table(f"table={k}", rows))
