"""File readers: one small interface (``read(path) -> text blocks + tables``) per file type.

Each library is imported only when its file type is read, so the engine runs without them.
"""

from __future__ import annotations

from pathlib import Path

from ragspine.readers.base import FileContent, Reader, ReadError, Table, TextBlock
from ragspine.readers.docx import DocxReader
from ragspine.readers.pdf import PdfReader
from ragspine.readers.pptx import PptxReader
from ragspine.readers.xlsx import XlsxReader

__all__ = [
    "BINARY_SUFFIXES",
    "FileContent",
    "PdfReader",
    "PptxReader",
    "ReadError",
    "Reader",
    "Table",
    "TextBlock",
    "XlsxReader",
    "reader_for",
]

_READERS: list[Reader] = [PdfReader(), XlsxReader(), PptxReader(), DocxReader()]
BINARY_SUFFIXES = tuple(s for r in _READERS for s in r.suffixes)


def reader_for(path: Path) -> Reader | None:
    suffix = path.suffix.lower()
    return next((r for r in _READERS if suffix in r.suffixes), None)
