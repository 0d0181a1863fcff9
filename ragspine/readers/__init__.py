"""File readers: one small interface (``read(path) -> text blocks + tables``) per file type.

Each library is imported only when its file type is read, so the engine runs without them.
``ragspine.ingestion.text.reader_for`` picks a file's reader, among these and the text reader.
"""

from __future__ import annotations

from ragspine.readers.base import FileContent, Reader, ReadError, Table, TextBlock
from ragspine.readers.docx import DocxReader
from ragspine.readers.pdf import PdfReader
from ragspine.readers.pptx import PptxReader
from ragspine.readers.xlsx import XlsxReader

__all__ = [
    "BINARY_SUFFIXES",
    "READERS",
    "FileContent",
    "PdfReader",
    "PptxReader",
    "ReadError",
    "Reader",
    "Table",
    "TextBlock",
    "XlsxReader",
]

READERS: tuple[Reader, ...] = (PdfReader(), XlsxReader(), PptxReader(), DocxReader())
BINARY_SUFFIXES = tuple(s for r in READERS for s in r.suffixes)
