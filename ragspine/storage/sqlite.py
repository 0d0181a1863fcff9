"""The SQLite side of the storage seam: one file on disk, one connection shared by threads."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from ragspine.errors import (
    ConstraintError,
    DatabaseError,
    StoreError,
    StoreNotFoundError,
    StoreUnavailableError,
)
from ragspine.storage.db import Connection, Cursor
from ragspine.storage.migrate import apply_migrations, load_migrations
from ragspine.storage.private import create_private


def converted(exc: sqlite3.Error) -> DatabaseError:
    """sqlite3's error as the seam's: a constraint, a busy or locked file, or another."""
    if isinstance(exc, sqlite3.IntegrityError):
        return ConstraintError(str(exc))
    if isinstance(exc, sqlite3.OperationalError):
        return StoreUnavailableError(str(exc))
    return DatabaseError(str(exc))


class SqliteConnection:
    """A ``storage.db.Connection`` over ``sqlite3``: today's statements, errors converted."""

    dialect = "sqlite"
    now = "datetime('now')"
    insertion_order = "rowid"

    def __init__(self, raw: sqlite3.Connection, path: Path) -> None:
        self.raw, self.path = raw, path

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        try:
            return self.raw.execute(sql, params)
        except sqlite3.Error as exc:
            raise converted(exc) from exc

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Cursor:
        try:
            return self.raw.executemany(sql, rows)
        except sqlite3.Error as exc:
            raise converted(exc) from exc

    def batches(self, sql: str, size: int) -> Iterator[list[Any]]:
        try:
            cur = self.raw.execute(sql)
            while rows := cur.fetchmany(size):
                yield rows
        except sqlite3.Error as exc:
            raise converted(exc) from exc

    def __enter__(self) -> Self:
        self.raw.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        try:
            return self.raw.__exit__(exc_type, exc, tb)
        except sqlite3.Error as error:  # the commit itself failed (a locked file)
            raise converted(error) from error

    def migrate(self, package: str) -> int:
        try:
            return apply_migrations(self.raw, load_migrations(package))
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a usable SQLite database: {exc}") from exc

    def joined(self, other: Connection) -> AbstractContextManager[Connection]:
        if not isinstance(other, SqliteConnection):
            raise StoreError(
                f"{self.path} and {other}: a file's facts and passages are written in one "
                "transaction, so both stores must be SQLite files or one PostgreSQL database"
            )
        return self._attached(other)

    @contextmanager
    def _attached(self, other: SqliteConnection) -> Iterator[Connection]:
        """This connection with ``other``'s file attached: statements on it in one ``with
        conn:`` commit to both files at once or to neither (SQLite's super-journal; the stores
        use its default rollback journal, not WAL)."""
        try:
            self.raw.execute("ATTACH DATABASE ? AS joined", (str(other.path),))
        except sqlite3.Error as exc:
            raise StoreError(f"{other.path}: cannot open it: {exc}") from exc
        try:
            yield self
        finally:
            self.raw.execute("DETACH DATABASE joined")

    def close(self) -> None:
        self.raw.close()

    def __str__(self) -> str:
        return str(self.path)


def open_sqlite(path: Path, *, create: bool, kind: str, how_to_build: str) -> SqliteConnection:
    """The file at ``path``; a missing one is created private (0600, its new directories
    0700: it may hold RESTRICTED text) unless ``create`` is False (StoreNotFoundError)."""
    if not create and not path.is_file():
        raise StoreNotFoundError(f"{kind} not found: {path} ({how_to_build})")
    if create:
        try:
            create_private(path)
        except OSError as exc:
            raise StoreError(f"{path}: cannot create {kind}: {exc}") from exc
    try:
        raw = sqlite3.connect(path, check_same_thread=False)
        raw.execute("PRAGMA foreign_keys = ON")
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open {kind}: {exc}") from exc
    return SqliteConnection(raw, path)
