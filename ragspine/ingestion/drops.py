"""What an ingest did not store, each item with its place in the file: nothing dropped in silence.

Two kinds of record. ``Unmapped``: a value the mapper read and did not turn into a fact (a row
or a column whose label no metric of the profile names, a cell in a mapped row that is not a
number, a statement table whose period columns were not recognised, a workbook row of another
company). ``Conflict``: two readings of one fact (same metric, entity, channel and period) that
disagree; one is kept, the other is not stored, and the record says which and why.
"""

from __future__ import annotations

from dataclasses import dataclass

# Unmapped.kind: why a value was not stored.
STATEMENT_ROW = "statement_row"  # a row of a consolidated statement no metric names
TABLE_ROW = "table_row"  # a row of another table with period columns no metric names
COLUMN = "column"  # a workbook column no metric names (one record per cell)
NOT_A_NUMBER = "not_a_number"  # a mapped row's cell that is not a number
DERIVED = "derived"  # a row naming a derived metric: computed from its operands, not stored
NO_PERIODS = "no_periods"  # a statement table whose columns name no period: nothing read
OTHER_ENTITY = "other_entity"  # a workbook row about a company the profile does not hold
KINDS = (STATEMENT_ROW, TABLE_ROW, COLUMN, NOT_A_NUMBER, DERIVED, NO_PERIODS, OTHER_ENTITY)

# Conflict.why: which reading is kept.
FIRST_IN_FILE = (
    "read first in this file (consolidated statements are read before other tables, then "
    "tables in page order); the later reading is not stored"
)
STATED_ELSEWHERE = (
    "another file stated it first and keeps it: a file never overwrites another file's figure "
    "(correct or remove one of them)"
)


@dataclass(frozen=True)
class Unmapped:
    """One value not stored: ``label`` is the row or column as printed, ``text`` the cell."""

    locator: str
    text: str
    why: str
    kind: str = NOT_A_NUMBER
    label: str = ""
    period: str = ""  # the column's period label (FY2020), where one was read


@dataclass(frozen=True)
class Reading:
    """One side of a conflict: where a value was read and what it said."""

    doc_id: str
    locator: str
    value: str


@dataclass(frozen=True)
class Conflict:
    """Two readings of one fact that disagree: ``kept`` stands in the store, ``dropped`` not."""

    metric: str
    entity: str
    period: str
    unit: str
    kept: Reading
    dropped: Reading
    why: str
