"""The PostgreSQL side of the storage seam: psycopg 3 over a connection pool.

Every store lives in its own schema of one database (``ragspine_facts``, ``ragspine_chunks``,
``ragspine_faq``, ``ragspine_keys``), each with its own ``schema_migrations``; a pooled
connection's ``search_path`` is its store's schema, so the stores' SQL names its tables as on
SQLite. A file's facts and passages commit together because both schemas are in one database:
``joined`` is a plain transaction with both on its ``search_path``.

Outside ``with conn:`` a statement takes a connection from the pool (in autocommit), reads its
rows and gives the connection back; inside, the thread keeps one connection for the whole
transaction, and each statement runs under a savepoint so one that fails is undone alone (as
SQLite undoes a failed statement) and the transaction can still be read to say why.
"""

from __future__ import annotations

import functools
import os
import re
import threading
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from types import TracebackType
from typing import Any, Self

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from ragspine.errors import (
    ConstraintError,
    DatabaseError,
    MigrationError,
    StoreError,
    StoreNotFoundError,
    StoreUnavailableError,
)
from ragspine.storage.db import Connection, Cursor
from ragspine.storage.migrate import load_migrations, pending
from ragspine.store_location import PgLocation

NOW = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')"
POOL_ENV = "RAGSPINE_PG_POOL"  # connections per store and process at most (default 8)
CONNECT_TIMEOUT = 10  # seconds
_UNAVAILABLE = ("08", "40", "53", "57")  # connection, rollback, resources, operator
_LITERAL = re.compile(r"('(?:[^']|'')*')")


@functools.lru_cache(maxsize=1024)
def pg_sql(sql: str) -> str:
    """A statement written for sqlite3 (``?`` placeholders) as psycopg takes it (``%s``; a
    literal ``%`` doubled). Quoted literals keep their ``?``."""
    parts = _LITERAL.split(sql)
    return "".join(
        part.replace("%", "%%") if i % 2 else part.replace("%", "%%").replace("?", "%s")
        for i, part in enumerate(parts)
    )


def _message(exc: BaseException) -> str:
    diag = getattr(exc, "diag", None)
    primary = getattr(diag, "message_primary", None)
    return str(primary or str(exc).strip().splitlines()[0] if str(exc).strip() else exc)


def converted(exc: psycopg.Error) -> DatabaseError:
    """psycopg's error as the seam's, by its SQLSTATE class: 23 a constraint; 08, 40, 53, 57
    (and a connection that broke without one) unavailable; anything else a DatabaseError."""
    state = exc.sqlstate or ""
    if state.startswith("23"):
        return ConstraintError(_message(exc))
    if state[:2] in _UNAVAILABLE or (not state and isinstance(exc, psycopg.OperationalError)):
        return StoreUnavailableError(_message(exc))
    return DatabaseError(_message(exc))


class _Rows:
    """A statement's rows, read before its connection went back to the pool."""

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows, self._at, self.rowcount = rows, 0, rowcount

    def fetchone(self) -> Any:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[Any]:
        rest, self._at = self._rows[self._at :], len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


def _run(cur: psycopg.Cursor[Any], sql: str, params: Any, many: bool) -> _Rows:
    if many:
        cur.executemany(pg_sql(sql), params)
    else:
        cur.execute(pg_sql(sql), tuple(params))
    return _Rows(cur.fetchall() if cur.description else [], cur.rowcount)


class PgConnection:
    """A ``storage.db.Connection`` over a pool; ``schemas``: the first is the store's own."""

    dialect = "postgresql"
    now = NOW
    insertion_order = "ctid"  # rows never updated keep their place: insertion order

    def __init__(
        self, pool: ConnectionPool, location: PgLocation, schemas: tuple[str, ...], owner: bool
    ) -> None:
        self._pool, self.location, self.schemas, self._owner = pool, location, schemas, owner
        self._local = threading.local()

    def _statement(self, sql: str, params: Any, many: bool) -> Cursor:
        bound = getattr(self._local, "conn", None)
        try:
            if bound is not None:
                with bound.transaction(), bound.cursor() as cur:  # a savepoint
                    return _run(cur, sql, params, many)
            with self._pool.connection() as conn, conn.cursor() as cur:
                return _run(cur, sql, params, many)
        except psycopg.Error as exc:
            raise converted(exc) from exc
        except PoolTimeout as exc:
            raise StoreUnavailableError(f"{self.location}: no free connection: {exc}") from exc

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        return self._statement(sql, params, many=False)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Cursor:
        return self._statement(sql, list(rows), many=True)

    def batches(self, sql: str, size: int) -> Iterator[list[Any]]:
        """Through a server-side cursor (``DECLARE``; one ``FETCH`` per batch) in a transaction of
        its own, or in the thread's transaction when it has one."""
        bound = getattr(self._local, "conn", None)
        name = f"ragspine_batches_{uuid.uuid4().hex[:12]}"
        try:
            with ExitStack() as stack:
                if bound is None:
                    conn = stack.enter_context(self._pool.connection())
                    stack.enter_context(conn.transaction())
                else:
                    conn = bound
                cur = stack.enter_context(conn.cursor(name=name))
                cur.execute(pg_sql(sql))
                while rows := cur.fetchmany(size):
                    yield rows
        except psycopg.Error as exc:
            raise converted(exc) from exc
        except PoolTimeout as exc:
            raise StoreUnavailableError(f"{self.location}: no free connection: {exc}") from exc

    def __enter__(self) -> Self:
        depth = getattr(self._local, "depth", 0)
        if depth == 0:
            try:
                conn = self._pool.getconn()
            except PoolTimeout as exc:
                raise StoreUnavailableError(f"{self.location}: no free connection: {exc}") from exc
            try:
                tx = conn.transaction()
                tx.__enter__()
                if len(self.schemas) > 1:
                    conn.execute(f"SET LOCAL search_path TO {', '.join(self.schemas)}")
            except psycopg.Error as exc:
                self._pool.putconn(conn)
                raise converted(exc) from exc
            self._local.conn, self._local.tx = conn, tx
        self._local.depth = depth + 1
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        self._local.depth -= 1
        if self._local.depth:
            return None
        conn, tx = self._local.conn, self._local.tx
        self._local.conn = self._local.tx = None
        try:
            tx.__exit__(exc_type, exc, tb)  # commits, or rolls back on an exception
        except psycopg.Error as error:
            raise converted(error) from error
        finally:
            self._pool.putconn(conn)
        return None

    def migrate(self, package: str) -> int:
        """The store's PostgreSQL twins (``package``.postgresql) applied in order, each in its
        own transaction under an advisory lock on the schema: replicas starting at once apply
        each migration once."""
        migrations = load_migrations(package + ".postgresql")
        schema = self.schemas[0]
        latest = max((m.number for m in migrations), default=0)
        with self._pool.connection() as conn:
            while True:
                step = "history"
                try:
                    with conn.transaction():
                        todo = _pending_locked(conn, schema, migrations)
                        if not todo:
                            return latest
                        mig = todo[0]
                        step = f"{mig.number:04d}_{mig.name}"
                        conn.execute(f"SET LOCAL search_path TO {schema}")
                        conn.execute(mig.sql)
                        conn.execute(
                            f"INSERT INTO {schema}.schema_migrations (number, name, checksum)"
                            " VALUES (%s, %s, %s)",
                            (mig.number, mig.name, mig.checksum),
                        )
                except psycopg.Error as exc:
                    raise MigrationError(
                        f"{self.location}: migration {step} ({schema}) failed: {_message(exc)}"
                    ) from exc

    def joined(self, other: Connection) -> AbstractContextManager[Connection]:
        if not isinstance(other, PgConnection) or other.location != self.location:
            raise StoreError(
                f"{self.location} and {other}: a file's facts and passages are written in one "
                "transaction, so both stores must be in one PostgreSQL database (or SQLite files)"
            )
        return self._both(other)

    @contextmanager
    def _both(self, other: PgConnection) -> Iterator[Connection]:
        yield PgConnection(self._pool, self.location, self.schemas + other.schemas, owner=False)

    def close(self) -> None:
        if self._owner:
            self._pool.close()

    def __str__(self) -> str:
        return str(self.location)


def _pending_locked(conn: psycopg.Connection[Any], schema: str, migrations: list[Any]) -> list[Any]:
    """Inside a transaction: the schema's lock taken, its history created if new, the
    migrations not applied yet (the applied ones checked as on SQLite)."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (schema,))
    conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS {schema}.schema_migrations ("
        " number INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,"
        f" applied_at TEXT NOT NULL DEFAULT ({NOW}))"
    )
    rows = conn.execute(f"SELECT number, name, checksum FROM {schema}.schema_migrations")
    return pending({r[0]: (r[1], r[2]) for r in rows.fetchall()}, migrations)


def open_postgres(
    location: PgLocation, schema: str, *, create: bool, kind: str, how_to_build: str
) -> PgConnection:
    """A pool on the database, its connections' ``search_path`` the store's schema. A server
    out of reach is one StoreUnavailableError naming it (never its password); without
    ``create``, a database where the store's schema was never migrated is StoreNotFoundError."""
    try:
        with psycopg.connect(location.url, connect_timeout=CONNECT_TIMEOUT) as probe:
            found = probe.execute(
                "SELECT to_regclass(%s)", (f"{schema}.schema_migrations",)
            ).fetchone()
    except psycopg.Error as exc:
        raise StoreUnavailableError(f"{location}: cannot open {kind}: {_message(exc)}") from exc
    if not create and (found is None or found[0] is None):
        raise StoreNotFoundError(f"{kind} not found in {location} ({how_to_build})")
    pool = ConnectionPool(
        location.url,
        min_size=1,
        max_size=max(int(os.environ.get(POOL_ENV) or 8), 1),
        kwargs={
            "autocommit": True,
            "options": f"-c search_path={schema}",
            "connect_timeout": CONNECT_TIMEOUT,
        },
        name=f"ragspine-{schema}",
        open=True,
    )
    return PgConnection(pool, location, (schema,), owner=True)
