"""Facts from a CSV file: how another company's numbers get into the fact table.

One row per fact, columns named as the ``Fact`` fields (``channel``, ``geography`` and the
version lineage optional). The value is kept as written, so ``318024319.30`` is shown with its two
decimals. Every row is read and checked before anything is written; an error names the file, the
line and the column. ``check`` adds the caller's rules (a profile's codes and units).
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

from ragspine.errors import FactFileError
from ragspine.sensitivity import DEFAULT_CLEARANCE, check_level
from ragspine.storage.fact_store import Fact

# A row's rule: (column, why) when the row breaks it, else None.
RowCheck = Callable[[dict[str, str]], tuple[str, str] | None]
_PERIOD = {"FY": re.compile(r"^[0-9]{4}$"), "H": re.compile(r"^[0-9]{4}H[12]$"),
           "Q": re.compile(r"^[0-9]{4}Q[1-4]$")}  # fmt: skip
# A value as statements print it, without separators: -40450729.84, 1444, 0.36.
_VALUE = re.compile(r"^[+-]?[0-9]+(?:\.[0-9]+)?$")

REQUIRED = ("metric_code", "entity", "period_type", "period", "value", "unit",
            "source_doc_id", "source_locator")  # fmt: skip
OPTIONAL = ("channel", "geography", "source_file_hash", "extractor_version", "mapping_version",
            "sensitivity")  # fmt: skip


def read_facts_csv(
    path: str | Path, *, check: RowCheck | None = None, default_channel: str = "TOTAL"
) -> list[Fact]:
    """Every fact in the file, or a FactFileError naming the first bad line and column."""
    path = Path(path)
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            reader = csv.DictReader(fh)
            header = list(reader.fieldnames or [])
            _check_header(path, header)
            facts: list[Fact] = []
            seen: dict[tuple[str, ...], int] = {}
            for row in reader:
                fact = _fact(path, reader.line_num, row, check, default_channel)
                if fact.key in seen:
                    raise FactFileError(
                        f"{path}: line {reader.line_num}: fact {'/'.join(fact.key)} repeats "
                        f"line {seen[fact.key]}"
                    )
                seen[fact.key] = reader.line_num
                facts.append(fact)
            return facts
    except FileNotFoundError:
        raise FactFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise FactFileError(f"{path}: cannot read: {exc}") from exc


def _check_header(path: Path, header: list[str]) -> None:
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise FactFileError(f"{path}: line 1: missing column(s) {', '.join(missing)}")
    unknown = [c for c in header if c not in REQUIRED and c not in OPTIONAL]
    if unknown:
        raise FactFileError(f"{path}: line 1: unknown column(s) {', '.join(unknown)}")


def _fact(
    path: Path,
    line: int,
    row: dict[str | None, str | None],
    check: RowCheck | None,
    default_channel: str,
) -> Fact:
    def bad(column: str, why: str) -> FactFileError:
        return FactFileError(f"{path}: line {line}, column {column}: {why}")

    if None in row or any(v is None for v in row.values()):
        raise FactFileError(f"{path}: line {line}: wrong number of fields")
    cell = {k: (v or "").strip() for k, v in row.items() if k is not None}
    for column in REQUIRED:
        if not cell[column]:
            raise bad(column, "is empty")
    if not _VALUE.match(cell["value"]):
        raise bad("value", f"{cell['value']!r} is not a number written as 1234.56")
    exact = Decimal(cell["value"])
    if not math.isfinite(float(exact)):
        raise bad("value", f"{cell['value']!r} is too large")
    period_type, period = cell["period_type"], cell["period"]
    if period_type not in _PERIOD:
        raise bad("period_type", f"{period_type!r} is not FY, H or Q")
    if not _PERIOD[period_type].match(period):
        raise bad("period", f"{period!r} is not a {period_type} period code (2020, 2020H1, 2020Q3)")
    cell["channel"] = cell.get("channel") or default_channel
    cell["sensitivity"] = cell.get("sensitivity") or DEFAULT_CLEARANCE
    try:
        check_level(cell["sensitivity"])
    except ValueError as exc:
        raise bad("sensitivity", str(exc)) from None
    problem = check(cell) if check else None
    if problem:
        raise bad(*problem)
    return Fact(
        cell["metric_code"], cell["entity"], cell.get("geography", ""), cell["channel"],
        period_type, period, float(exact), cell["unit"], cell["source_doc_id"],
        cell["source_locator"], cell.get("source_file_hash") or None,
        cell.get("extractor_version") or None, cell.get("mapping_version") or None, cell["value"],
        cell["sensitivity"],
    )  # fmt: skip
