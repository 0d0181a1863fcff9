"""Numbered, add-only migrations, for SQLite here and for PostgreSQL in ``storage.postgres``.

A migration is ``NNNN_name.sql`` in a package folder; a store's PostgreSQL twins, with the same
numbers and names, are in its ``postgresql`` subpackage (the SQLite files never change: their
checksums are recorded in users' stores). Each applied one is recorded with its
checksum; a shipped file that no longer matches what was applied is an error, never a silent
re-run, because schemas only ever grow.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

from ragspine.errors import MigrationError

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()


def load_migrations(package: str) -> list[Migration]:
    """The package's migrations in order; numbers must run 1, 2, 3 without gaps."""
    found = []
    for entry in resources.files(package).iterdir():
        m = _NAME.match(entry.name)
        if m:
            found.append(Migration(int(m[1]), m[2], entry.read_text("utf-8")))
    found.sort(key=lambda mig: mig.number)
    for expected, mig in enumerate(found, start=1):
        if mig.number != expected:
            raise MigrationError(f"{package}: migration {expected:04d} is missing")
    return found


def pending(applied: dict[int, tuple[str, str]], migrations: list[Migration]) -> list[Migration]:
    """The shipped migrations not yet applied, after checking the ones that were (``applied``:
    number → (name, checksum)): a changed one, or one this version does not ship, is refused."""
    shipped = {mig.number for mig in migrations}
    unknown = sorted(set(applied) - shipped)
    if unknown:
        raise MigrationError(
            f"database has migration {unknown[0]:04d} that this version of ragspine does not know; "
            "upgrade ragspine"
        )
    for mig in migrations:
        if mig.number in applied and applied[mig.number][1] != mig.checksum:
            raise MigrationError(
                f"migration {mig.number:04d}_{applied[mig.number][0]} was changed after it was "
                "applied; migrations are add-only: write a new one instead"
            )
    return [mig for mig in migrations if mig.number not in applied]


def apply_migrations(conn: sqlite3.Connection, migrations: list[Migration]) -> int:
    """Apply the ones not yet applied, each in its own transaction; returns the schema version."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " number INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (datetime('now')))"
    )
    applied = {
        row[0]: (row[1], row[2])
        for row in conn.execute("SELECT number, name, checksum FROM schema_migrations")
    }
    for mig in pending(applied, migrations):
        try:
            with conn:
                conn.executescript("BEGIN;" + mig.sql)
                conn.execute(
                    "INSERT INTO schema_migrations (number, name, checksum) VALUES (?, ?, ?)",
                    (mig.number, mig.name, mig.checksum),
                )
        except sqlite3.Error as exc:
            conn.rollback()
            raise MigrationError(f"migration {mig.number:04d}_{mig.name} failed: {exc}") from exc
    return max((m.number for m in migrations), default=0)
