"""What every store here shares: open its database (a SQLite file or a PostgreSQL schema),
migrate it, lock it, close it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from types import TracebackType
from typing import Self

from ragspine.storage.db import Connection, NoLock
from ragspine.storage.generations import Counter
from ragspine.storage.sqlite import open_sqlite
from ragspine.store_location import Location, PgLocation, parse_location


class Store:
    """One store's database with numbered migrations; safe to share between threads.

    ``location``: a path, ``sqlite:PATH`` or a ``postgresql://`` URL (``store_location``).
    On SQLite the threads share one connection behind ``_lock``; on PostgreSQL each takes its
    own from a pool and ``_lock`` never waits. ``path`` is the location, printable (a URL
    without its password)."""

    MIGRATIONS: str  # the package holding NNNN_name.sql (its PostgreSQL twins in .postgresql)
    KIND: str  # for messages: "fact database", "chunk store"
    HOW_TO_BUILD: str  # what a user runs when the file is missing
    SCHEMA: str  # its PostgreSQL schema: every store has its own, in one database
    TABLES: tuple[str, ...]  # what a copy carries (``storage.copy``), parents before children
    GENERATION: str | None = None  # its counter's table, if it keeps one (storage.generations)

    def __init__(self, location: str | Path | PgLocation, *, create: bool = True) -> None:
        self.path: Location = parse_location(location)
        self._lock: AbstractContextManager[object]
        self._conn: Connection
        if isinstance(self.path, PgLocation):
            from ragspine.storage.postgres import open_postgres

            self._conn = open_postgres(
                self.path,
                self.SCHEMA,
                create=create,
                kind=self.KIND,
                how_to_build=self.HOW_TO_BUILD,
            )
            self._lock = NoLock()
        else:
            self._conn = open_sqlite(
                self.path, create=create, kind=self.KIND, how_to_build=self.HOW_TO_BUILD
            )
            self._lock = threading.Lock()

    @property
    def dialect(self) -> str:
        return self._conn.dialect

    @property
    def counter(self) -> Counter | None:
        """The store's generation counter where reading it saves a round trip of rows: on
        PostgreSQL (a SQLite file's own index answers as fast as a copy in memory)."""
        if self.GENERATION is None or self._conn.dialect != "postgresql":
            return None
        return Counter(self._conn, f"{self.SCHEMA}.{self.GENERATION}")

    @property
    def connection(self) -> Connection:
        """The store's database, for a copy of its tables (``storage.copy``)."""
        return self._conn

    def init_schema(self) -> int:
        """Bring the schema up to date; returns the schema version. Idempotent. A store whose
        schema cannot be brought up is closed before the error goes on: its caller has nothing
        to use, and a PostgreSQL pool left open would be collected later, maybe in one of its
        own threads (which cannot join themselves)."""
        try:
            with self._lock:
                return self._conn.migrate(self.MIGRATIONS)
        except BaseException:
            self.close()
            raise

    @contextmanager
    def joined(self, other: Store) -> Iterator[Connection]:
        """A connection on which statements in one ``with conn:`` change this store and
        ``other`` together or not at all (one file attached to the other on SQLite; one
        transaction over both schemas of the one database on PostgreSQL). Both locked."""
        with self._lock, other._lock, self._conn.joined(other._conn) as conn:
            yield conn

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
