"""Hostile files, built real and small: what an attacker drops in an inbox."""

from __future__ import annotations

import zipfile
from pathlib import Path

from tests.ingestion.test_ingest_command import _book

# Billion laughs: eight levels of ten, a 100 MB string from a few hundred bytes of DTD.
LAUGHS = (
    '<!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa">'
    + "".join(
        f'<!ENTITY {b} "{("&" + a + ";") * 10}">' for a, b in zip("abcdefg", "bcdefgh", strict=True)
    )
    + "]>"
)


def entity_docx(path: Path) -> Path:
    """A real DOCX whose document.xml declares a DTD entity bomb: lxml refuses it (an
    XMLSyntaxError, not one of ours), the way any malformed XML in an Office file fails."""
    import docx

    plain = path.with_suffix(".plain.docx")
    document = docx.Document()
    document.add_paragraph("收入 100")
    document.save(str(plain))
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "word/document.xml":
                head, rest = data.decode().split("?>", 1)
                data = (head + "?>\n" + LAUGHS + rest.replace("收入 100", "收入 &h;")).encode()
            out.writestr(info, data)
    plain.unlink()
    return path


def bomb_xlsx(path: Path, inflated_mb: int = 24) -> Path:
    """A real workbook whose first sheet is ``inflated_mb`` MB of one repeated cell text: a
    few tens of KB on disk, a thousand times that inflated."""
    plain = _book(path.with_suffix(".plain.xlsx"), 455)
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            if info.filename != "xl/worksheets/sheet1.xml":
                out.writestr(info, src.read(info.filename))
                continue
            with out.open(info.filename, "w") as fh:
                fh.write(b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/')
                fh.write(b'main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>')
                block = b"A" * (1 << 20)
                for _ in range(inflated_mb):
                    fh.write(block)
                fh.write(b"</t></is></c></row></sheetData></worksheet>")
    plain.unlink()
    return path
