"""XLSX: every sheet a table, cells as the workbook shows them, with openpyxl.

Numbers are written with the precision their cell format shows (``#,##0.00`` → two decimals),
so 86661495.95999999 stored by a spreadsheet reads 86661495.96, as it was typed.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path
from zipfile import BadZipFile

from ragspine.readers.base import FileContent, ReadError, Table

_DECIMALS = re.compile(r"0\.(0+)")


class XlsxReader:
    suffixes: tuple[str, ...] = (".xlsx", ".xlsm")
    # what the cache of read documents keys on (``ingestion.cache``): bump ``version`` when
    # this reader's output changes; ``libraries`` are the packages it reads through
    version = 1
    libraries: tuple[str, ...] = ("openpyxl",)

    def read(self, path: Path) -> FileContent:
        from openpyxl import load_workbook
        from openpyxl.utils.exceptions import InvalidFileException

        try:
            book = load_workbook(path, read_only=True, data_only=True)
        except (BadZipFile, InvalidFileException, KeyError, OSError, ValueError) as exc:
            raise ReadError(f"{path}: not a readable XLSX workbook: {exc}") from None
        content = FileContent(path)
        try:
            for sheet in book.worksheets:
                try:
                    rows = [
                        [_text(cell.value, cell.number_format) for cell in row]
                        for row in sheet.iter_rows()
                    ]
                except Exception as exc:  # openpyxl raises what the broken XML gives it
                    raise ReadError(f"{path}: sheet={sheet.title}: cannot read: {exc}") from exc
                rows = [r for r in rows if any(r)]
                if rows:
                    content.tables.append(Table(f"sheet={sheet.title}", rows))
                content.units += 1
        finally:
            book.close()
        if not content.tables:
            raise ReadError(f"{path}: the workbook has no filled cells")
        return content


def _text(value: object, number_format: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        m = _DECIMALS.search(number_format or "")
        if m:
            return f"{value:.{len(m.group(1))}f}"
        return repr(value) if value != int(value) else str(int(value))
    if isinstance(value, datetime | date):
        return value.isoformat()
    return str(value).strip()
