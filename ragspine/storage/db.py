"""The storage seam: what a store asks of its database, whichever one it is.

A store writes its SQL once, with ``?`` placeholders, and runs it through a ``Connection``:
SQLite's (``storage.sqlite``) or PostgreSQL's (``storage.postgres``). The dialects differ only
where the seam says so (``now``, ``insertion_order``, the migrations' folder); every error a
driver raises comes out as the ``DatabaseError`` tree (``ConstraintError`` for a broken key or
check, ``StoreUnavailableError`` for a busy or unreachable database), so no store catches a
driver's exceptions. ``with conn:`` is one transaction: committed at its end, rolled back on an
exception; a statement that fails inside it is undone alone, as SQLite does, so the caller can
still read in the transaction to say what went wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from types import TracebackType
from typing import Any, Protocol, Self


class Cursor(Protocol):
    """A statement's outcome: its rows (read at once on PostgreSQL) and the rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """One store's database, shared by threads."""

    dialect: str  # "sqlite" or "postgresql"
    now: str  # SQL for the current UTC time as text, 'YYYY-MM-DD HH:MM:SS' on both
    insertion_order: str  # SQL ordering a never-updated table's rows as they were inserted

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Cursor: ...

    def batches(self, sql: str, size: int) -> Iterator[list[Any]]:
        """A query's rows ``size`` at a time, never all in memory (a copy of a large table):
        ``fetchmany`` on SQLite, a server-side cursor on PostgreSQL."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None: ...

    def migrate(self, package: str) -> int:
        """The store's migrations (its package; this dialect's twins) brought up to date."""
        ...

    def joined(self, other: Connection) -> AbstractContextManager[Connection]:
        """A connection on which ``with conn:`` spans both stores' tables in one transaction."""
        ...

    def close(self) -> None: ...


class NoLock:
    """A lock that never waits: a PostgreSQL store's threads each take a connection of their
    own from the pool, so they need not queue for one (SQLite's share one, behind a lock)."""

    def __enter__(self) -> bool:
        return True

    def __exit__(self, *exc: object) -> None:
        return None

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        return True

    def release(self) -> None:
        return None
