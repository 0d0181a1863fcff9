"""Copy a store's tables from one database to another, then prove the copy by counts and
checksums (``ragspine store migrate``).

The rules, whichever the two dialects are:

- Every column is copied as it is stored, ids and times included: lineage (a fact's source
  file, its superseded versions, the profile it was mapped with) reads the same on both sides.
  Both sides must have the same columns (both migrated to this version's schema); a difference
  is an error before anything is written.
- One store is written in ONE transaction on the target: all of its tables or none. A target
  that already holds rows is refused unless ``replace`` (its rows are deleted in that same
  transaction, children first).
- On PostgreSQL an identity column's sequence is moved past the highest id copied, so the next
  row a replica inserts never collides with a copied one.
- The checksum of a table is independent of row order, so it needs no sort and is summed while
  the rows stream by: each value encoded with its kind (null, integer, float as its ``repr``,
  text as-is; a boolean counts as an integer), a row's encoding hashed with SHA-256, and the
  row hashes added modulo 2**256 (a row twice counts twice). It never depends on the
  database's collation, row order or dialect, so the same rows give the same checksum on SQLite
  and on PostgreSQL; ``verify`` compares counts and checksums table by table.
- Tables stream: rows are read ``batch`` at a time (``Connection.batches``: a server-side
  cursor on PostgreSQL), each batch written before the next is read, so a copy holds one batch
  in memory whatever the table's size; the source's checksum is summed as it is copied.

Copy a store at rest (no ingest running), one at a time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ragspine.errors import CopyError as CopyError
from ragspine.storage.db import Connection

BATCH = 1_000  # rows read, written and held at once, and how often progress is said
Progress = Callable[[str, int, int], None]  # table, rows copied, rows in all
Summed = tuple[int, str]  # rows, checksum
_MOD = 1 << 256


@dataclass(frozen=True)
class TableCheck:
    """One table on both sides: rows and checksum, as ``verify`` found them."""

    store: str
    table: str
    rows_from: int
    rows_to: int
    sum_from: str
    sum_to: str

    @property
    def ok(self) -> bool:
        return self.rows_from == self.rows_to and self.sum_from == self.sum_to


def columns(conn: Connection, table: str) -> list[str]:
    """The table's columns in their declared order (its schema's, on PostgreSQL)."""
    if conn.dialect == "sqlite":
        return [str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})").fetchall()]
    rows = conn.execute(
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
        (table,),
    ).fetchall()
    return [str(r[0]) for r in rows]


def _encode(value: Any) -> str:
    if value is None:
        return "n"
    if isinstance(value, bool | int):
        text, kind = str(int(value)), "i"
    elif isinstance(value, float):
        text, kind = repr(value), "f"
    else:
        text, kind = str(value), "t"
    return f"{kind}{len(text)}:{text}"


class RowSum:
    """A table's checksum built a batch at a time (the module's docstring)."""

    def __init__(self) -> None:
        self.rows, self._sum = 0, 0

    def add(self, rows: Iterable[Sequence[Any]]) -> None:
        for row in rows:
            digest = hashlib.sha256("".join(_encode(v) for v in row).encode("utf-8")).digest()
            self._sum = (self._sum + int.from_bytes(digest, "big")) % _MOD
            self.rows += 1

    @property
    def summed(self) -> Summed:
        return self.rows, f"{self._sum:064x}"


def checksum(rows: Iterable[Sequence[Any]]) -> Summed:
    """Rows and their checksum (the module's docstring)."""
    total = RowSum()
    total.add(rows)
    return total.summed


def table_batches(
    conn: Connection, table: str, names: Sequence[str], batch: int = BATCH
) -> Iterator[list[tuple[Any, ...]]]:
    """The table's rows, ``batch`` at a time."""
    sql = f"SELECT {', '.join(names)} FROM {table}"
    for rows in conn.batches(sql, batch):
        yield [tuple(r) for r in rows]


def table_sum(conn: Connection, table: str, names: Sequence[str], batch: int = BATCH) -> Summed:
    total = RowSum()
    for rows in table_batches(conn, table, names, batch):
        total.add(rows)
    return total.summed


def row_counts(conn: Connection, tables: Sequence[str]) -> dict[str, int]:
    return {t: int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in tables}


def same_columns(
    source: Connection, target: Connection, tables: Sequence[str]
) -> dict[str, list[str]]:
    """Each table's columns, the same on both sides, else a CopyError naming the first that
    differs (one side migrated further than the other)."""
    found: dict[str, list[str]] = {}
    for table in tables:
        mine, theirs = columns(source, table), columns(target, table)
        if not mine:
            raise CopyError(f"{source}: has no table {table}")
        if sorted(mine) != sorted(theirs):
            only = sorted(set(mine) ^ set(theirs))
            raise CopyError(
                f"{table}: the two sides' columns differ ({', '.join(only) or 'none'}); "
                "run this version of ragspine on both"
            )
        found[table] = mine
    return found


def copy_tables(
    source: Connection,
    target: Connection,
    tables: Sequence[str],
    *,
    replace: bool = False,
    progress: Progress | None = None,
    finish: Callable[[Connection], None] | None = None,
    batch: int = BATCH,
) -> dict[str, Summed]:
    """Copy ``tables`` (parents before children) in one transaction on ``target``, a batch at
    a time; returns each table's rows and checksum as read from the source. ``finish`` runs
    last inside that transaction (a counter to move)."""
    names = same_columns(source, target, tables)
    held = {t: n for t, n in row_counts(target, tables).items() if n}
    if held and not replace:
        listed = ", ".join(f"{t} ({n} rows)" for t, n in held.items())
        raise CopyError(f"{target}: not empty: {listed}; --replace deletes them first")
    totals = row_counts(source, tables) if progress else {}
    copied: dict[str, Summed] = {}
    with target:
        for table in reversed(tables):
            target.execute(f"DELETE FROM {table}")
        for table in tables:
            sql = (
                f"INSERT INTO {table} ({', '.join(names[table])})"
                f" VALUES ({', '.join('?' for _ in names[table])})"
            )
            total = RowSum()
            for rows in table_batches(source, table, names[table], batch):
                target.executemany(sql, rows)
                total.add(rows)
                if progress:
                    progress(table, total.rows, totals[table])
            if progress and not total.rows:
                progress(table, 0, 0)
            copied[table] = total.summed
            if target.dialect == "postgresql":
                _move_identity(target, table)
        if finish is not None:
            finish(target)
    return copied


def _move_identity(target: Connection, table: str) -> None:
    """An identity column's sequence set past the highest id now in ``table``."""
    found = target.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema ="
        " current_schema() AND table_name = ? AND is_identity = 'YES'",
        (table,),
    ).fetchall()
    for (column,) in found:
        target.execute(
            f"SELECT setval(pg_get_serial_sequence(?, ?), COALESCE(MAX({column}), 0) + 1, false)"
            f" FROM {table}",
            (table, column),
        )


def verify(
    store: str,
    source: Connection,
    target: Connection,
    tables: Sequence[str],
    *,
    source_sums: dict[str, Summed] | None = None,
    batch: int = BATCH,
) -> list[TableCheck]:
    """Counts and checksums of every table on both sides (the same columns, streamed afresh);
    ``source_sums``: the source's, as ``copy_tables`` summed them, so it is not read twice."""
    names = same_columns(source, target, tables)
    checks = []
    for table in tables:
        known = (source_sums or {}).get(table)
        n_from, sum_from = known or table_sum(source, table, names[table], batch)
        n_to, sum_to = table_sum(target, table, names[table], batch)
        checks.append(TableCheck(store, table, n_from, n_to, sum_from, sum_to))
    return checks
