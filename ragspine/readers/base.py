"""What a reader gives back: text blocks and tables, each with a stable locator.

A locator says where in the file a thing is, the way a person would look it up: ``page=37,para=2``
in a PDF, ``sheet=ACME_HK`` in a workbook, ``slide=2,table=1`` in a deck. Facts built from a table
cell extend the table's locator with ``row=…,col=…``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ragspine.errors import ReadError as ReadError


@dataclass(frozen=True)
class TextBlock:
    locator: str  # page=3,para=2 | slide=2,para=1
    text: str
    heading: str = ""  # the page's or slide's title, when it has one


@dataclass(frozen=True)
class Table:
    locator: str  # page=66,table=1 | sheet=ACME_HK | slide=2,table=1
    rows: list[list[str]]  # cells as text, as the file shows them
    caption: str = ""  # text around the table that says its unit (单位:元) or period


@dataclass
class FileContent:
    path: Path
    blocks: list[TextBlock] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    units: int = 0  # pages, sheets or slides read
    meta: dict[str, object] = field(default_factory=dict)  # what the file says of itself: title …
    # Lines of the first pages kept out of the blocks as running heads, which the title page
    # shares: 2019 年年度报告 (where a document's period is read, ``ingestion.doc_period``).
    cover: list[str] = field(default_factory=list)


class Reader(Protocol):
    """One file type: the suffixes it reads and how."""

    suffixes: tuple[str, ...]

    def read(self, path: Path) -> FileContent: ...
