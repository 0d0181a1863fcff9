"""What every SQLite store here shares: open on disk, migrate, lock, close."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Self

from ragspine.errors import StoreError, StoreNotFoundError
from ragspine.storage.migrate import apply_migrations, load_migrations
from ragspine.storage.private import create_private


class SqliteStore:
    """One SQLite file with numbered migrations; safe to share between threads."""

    MIGRATIONS: str  # the package holding NNNN_name.sql
    KIND: str  # for messages: "fact database", "chunk store"
    HOW_TO_BUILD: str  # what a user runs when the file is missing

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise StoreNotFoundError(f"{self.KIND} not found: {self.path} ({self.HOW_TO_BUILD})")
        if create:  # a new file is private (0600, its new directories 0700): RESTRICTED text
            try:
                create_private(self.path)
            except OSError as exc:
                raise StoreError(f"{self.path}: cannot create {self.KIND}: {exc}") from exc
        self._lock = threading.Lock()
        try:
            self._conn = sqlite3.connect(self.path, check_same_thread=False)
            self._conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open {self.KIND}: {exc}") from exc

    def init_schema(self) -> int:
        """Bring the schema up to date; returns the schema version. Idempotent."""
        with self._lock:
            try:
                return apply_migrations(self._conn, load_migrations(self.MIGRATIONS))
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.path}: not a usable SQLite database: {exc}") from exc

    @contextmanager
    def joined(self, other: SqliteStore) -> Iterator[sqlite3.Connection]:
        """This store's connection with ``other``'s file attached, both locked: statements on it
        in one ``with conn:`` commit to both files at once or to neither (SQLite's super-journal;
        the stores use its default rollback journal, not WAL)."""
        with self._lock, other._lock:
            try:
                self._conn.execute("ATTACH DATABASE ? AS joined", (str(other.path),))
            except sqlite3.Error as exc:
                raise StoreError(f"{other.path}: cannot open {other.KIND}: {exc}") from exc
            try:
                yield self._conn
            finally:
                self._conn.execute("DETACH DATABASE joined")

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
