"""What an ingest says about each file: a few lines for the terminal, the whole list as JSON.

The terminal gets counts and the first few labels of each kind of value not stored (``… N
more``); ``ingest --report FILE.json`` gets every one, with its locator, as a versioned record
(``IngestReportRecord``). Every item has a stable id (the same file read the same way gives the
same ids), so two reports can be compared item by item. The file is written whole or not at all.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ragspine.errors import IngestError
from ragspine.ingestion import drops
from ragspine.ingestion.drops import Conflict, Unmapped
from ragspine.ingestion.pipeline import FileReport

REPORT_VERSION = 1
SHOWN = 3  # labels shown per kind on the terminal; the rest are counted
# Each kind as the terminal counts it: {s} is the plural's s.
_KIND_NAMES = {
    drops.STATEMENT_ROW: "statement row{s} not mapped",
    drops.TABLE_ROW: "other table row{s} not mapped",
    drops.COLUMN: "workbook column{s} not mapped",
    drops.NOT_A_NUMBER: "cell{s} not a number",
    drops.DERIVED: "derived metric{s} (computed from others, not stored)",
    drops.NO_PERIODS: "statement table{s} without period columns",
    drops.OTHER_ENTITY: "row{s} of other companies",
}
_WHY = {drops.FIRST_IN_FILE: "read first in this file", drops.STATED_ELSEWHERE: "stated first"}
# Kinds counted one per record (a cell, a company's row); the others by label (a row's values).
_COUNTED_BY_ITEM = {drops.NOT_A_NUMBER, drops.OTHER_ENTITY, drops.NO_PERIODS}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NotMappedRecord(_Strict):
    """One value not stored; ``label`` is the row or column as the mapper reads it."""

    id: str
    kind: Literal[
        "statement_row", "table_row", "column", "not_a_number", "derived", "no_periods",
        "other_entity",
    ]  # fmt: skip
    label: str
    value: str
    period: str
    locator: str
    why: str


class ReadingRecord(_Strict):
    doc: str
    locator: str
    value: str


class ConflictRecord(_Strict):
    """Two readings of one fact: ``kept`` is in the store, ``dropped`` is not, ``why`` says."""

    id: str
    metric: str
    entity: str
    period: str
    unit: str
    kept: ReadingRecord
    dropped: ReadingRecord
    why: str


class FileRecord(_Strict):
    doc: str
    outcome: str
    period: str
    chunks: int
    facts: int
    superseded: int
    not_mapped: list[NotMappedRecord]
    conflicts: list[ConflictRecord]


class IngestReportRecord(_Strict):
    """``ingest --report``: every file of the run, in the order ingested. ``complete`` is false
    when the run stopped at an error (the files listed were stored; the rest were not)."""

    version: Literal[1] = 1  # REPORT_VERSION: a new shape is a new number
    created_at: str
    complete: bool
    files: list[FileRecord]


def _id(prefix: str, *parts: str) -> str:
    return prefix + hashlib.sha1("\x00".join(parts).encode("utf-8")).hexdigest()[:12]


def file_record(report: FileReport) -> FileRecord:
    def unmapped(u: Unmapped) -> NotMappedRecord:
        return NotMappedRecord(
            id=_id("u_", report.doc_id, u.kind, u.locator),
            kind=u.kind,  # type: ignore[arg-type]
            label=u.label,
            value=u.text,
            period=u.period,
            locator=u.locator,
            why=u.why,
        )

    def conflict(c: Conflict) -> ConflictRecord:
        return ConflictRecord(
            id=_id("c_", c.dropped.doc_id, c.dropped.locator, c.kept.doc_id, c.kept.locator),
            metric=c.metric,
            entity=c.entity,
            period=c.period,
            unit=c.unit,
            kept=ReadingRecord(doc=c.kept.doc_id, locator=c.kept.locator, value=c.kept.value),
            dropped=ReadingRecord(
                doc=c.dropped.doc_id, locator=c.dropped.locator, value=c.dropped.value
            ),
            why=c.why,
        )

    return FileRecord(
        doc=report.doc_id,
        outcome=report.outcome,
        period=report.period,
        chunks=report.chunks,
        facts=report.facts,
        superseded=report.superseded,
        not_mapped=[unmapped(u) for u in report.unmapped],
        conflicts=[conflict(c) for c in report.conflicts],
    )


def check_report_path(path: Path) -> None:
    """Before anything is ingested: a report that could not be written fails the run first."""
    if path.is_dir():
        raise IngestError(f"--report {path}: a folder; give a file name (ingest.json)")
    if not path.parent.is_dir():
        raise IngestError(f"--report {path}: no such folder {path.parent}")


def write_report(path: Path, reports: Iterable[FileReport], *, complete: bool) -> None:
    """The record, written to a temporary file beside ``path`` and moved over it in one step."""
    record = IngestReportRecord(
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        complete=complete,
        files=[file_record(r) for r in reports],
    )
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(record.model_dump_json(indent=2) + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def headline(report: FileReport) -> str:
    """One line per file: what it became, with its period and what it dropped, counted."""
    period = f" · {report.period}" if report.period else ""
    if report.outcome == "unchanged":
        return f"{report.outcome:>9}  {report.doc_id}{period}"
    parts = [f"{report.chunks} chunks"]
    if report.facts or report.unmapped or report.conflicts:
        parts.append(f"{report.facts} facts")
        parts.append(_plural(len(report.unmapped), "value") + " not mapped")
        parts.append(_plural(len(report.conflicts), "conflict"))
    if report.superseded:
        parts.append(f"{report.superseded} facts superseded")
    return f"{report.outcome:>9}  {report.doc_id}{period} ({', '.join(parts)})"


def details(report: FileReport, *, indent: str = " " * 11) -> list[str]:
    """The lines under a file's headline: per kind, the labels not mapped (the first ``SHOWN``,
    then ``… N more``), and each conflict (the first ``SHOWN``) with both readings."""
    lines: list[str] = []
    for kind, name in _KIND_NAMES.items():
        items = [u for u in report.unmapped if u.kind == kind]
        if not items:
            continue
        labels = list(dict.fromkeys(u.label or u.locator for u in items))
        shown = ", ".join(labels[:SHOWN]) + (
            f", … {len(labels) - SHOWN} more" if len(labels) > SHOWN else ""
        )
        n = len(items) if kind in _COUNTED_BY_ITEM else len(labels)
        count = f"{n} {name.format(s='' if n == 1 else 's')}"
        if n != len(items):  # rows, each with a value per period column
            count += f" ({len(items)} values)"
        lines.append(f"{indent}{count}: {shown}")
    for c in report.conflicts[:SHOWN]:
        lines.append(
            f"{indent}conflict {c.metric} {c.entity} {c.period}: kept {c.kept.value} "
            f"({c.kept.doc_id} · {c.kept.locator}), not {c.dropped.value} "
            f"({c.dropped.doc_id} · {c.dropped.locator}): {_WHY.get(c.why, c.why)}"
        )
    if len(report.conflicts) > SHOWN:
        lines.append(f"{indent}… {len(report.conflicts) - SHOWN} more conflicts")
    return lines


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
