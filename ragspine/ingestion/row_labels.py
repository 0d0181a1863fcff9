"""The row labels a file's tables hold figures under, and what a profile maps each to: what
`ragspine profile check` lists and `ragspine profile draft` starts from.

A file is read as `ingest` reads it (its reader, in a child process under the default limits)
and its tables mapped by the same ``TableMapper``, so a label listed as mapped is one `ingest`
stores and one listed as not mapped is one whose figures `ingest` leaves out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ragspine.errors import IngestError
from ragspine.ingestion.cache import DocumentCache
from ragspine.ingestion.isolated import read_file
from ragspine.ingestion.limits import FileLimits
from ragspine.ingestion.pipeline import report_year
from ragspine.ingestion.tables import RowLabel, TableFacts, TableMapper
from ragspine.ingestion.text import reader_for
from ragspine.profile import DomainProfile
from ragspine.profile.model import compact
from ragspine.readers import FileContent

Progress = Callable[[str, int, int], None]  # (file, done, total) pages


def read(
    path: Path, progress: Progress | None = None, cache: DocumentCache | None = None
) -> FileContent:
    """A file's text and tables, read as `ingest` reads it (or taken from ``cache`` as `ingest`
    would take it); an error is one line naming it."""
    if not path.is_file():
        raise IngestError(f"{path}: no such file")
    reader = reader_for(path)
    if reader is None:
        raise IngestError(f"{path}: no reader for {path.suffix or 'files without a suffix'}")
    pages = None if progress is None else lambda done, total: progress(path.name, done, total)
    return read_file(path, reader, FileLimits(), pages, cache)


def map_tables(content: FileContent, profile: DomainProfile) -> TableFacts:
    """The file's tables through the profile, as `ingest` maps them (facts not written)."""
    mapper = TableMapper(
        profile, content.path.name, "-", profile.home_entity_code, report_year(content)
    )
    return mapper.map(content.tables)


@dataclass(frozen=True)
class Seen:
    """One label of one file: where it is first seen, how often, and what it maps to."""

    file: str
    label: str
    code: str | None
    where: str
    times: int
    caption: str


def distinct(file: str, labels: list[RowLabel]) -> list[Seen]:
    """Each label once per file (two spellings of one label are one), in the file's order; a
    first cell without a letter (a figure, a dash) is no label."""
    first: dict[tuple[str, str | None], RowLabel] = {}
    times: dict[tuple[str, str | None], int] = {}
    for row in labels:
        if not any(ch.isalpha() for ch in row.label):
            continue
        key = (compact(row.label), row.code)
        first.setdefault(key, row)
        times[key] = times.get(key, 0) + 1
    return [
        Seen(file, row.label, row.code, row.locator, times[key], row.caption)
        for key, row in first.items()
    ]
