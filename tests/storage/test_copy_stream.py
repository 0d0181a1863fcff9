"""A copy streams its tables (``storage.copy``): never more than one batch of rows in memory on
either side, checksums summed as the rows go by, progress after each batch."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import psycopg

from ragspine.faq.faq_cache import FaqCache
from ragspine.storage.copy import checksum, copy_tables, verify
from ragspine.storage.db import Connection
from tests.pg import Locate

ROWS = 25  # faq items, past two batches of BATCH
BATCH = 10


class Watched:
    """A connection that notes the most rows any one read handed over (a seam: every call is
    passed on to the real connection). Reads of the schema itself are not counted."""

    def __init__(self, inner: Connection) -> None:
        self.inner, self.dialect, self.most = inner, inner.dialect, 0

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = self.inner.execute(sql, params).fetchall()
        if "PRAGMA" not in sql and "information_schema" not in sql:
            self.most = max(self.most, len(rows))
        return _Listed(rows)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Any:
        return self.inner.executemany(sql, rows)

    def batches(self, sql: str, size: int) -> Iterator[list[Any]]:
        for rows in self.inner.batches(sql, size):
            self.most = max(self.most, len(rows))
            yield rows

    def __enter__(self) -> Watched:
        self.inner.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.inner.__exit__(*exc)


class _Listed:
    def __init__(self, rows: list[Any]) -> None:
        self.rows, self.rowcount = rows, len(rows)

    def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[Any]:
        return self.rows


def _items(store: FaqCache, n: int) -> None:
    with store.connection as conn:
        conn.executemany(
            "INSERT INTO faq_item (id, answer, sources, sensitivity) VALUES (?, ?, ?, ?)",
            [(i, f"答{i}", "[]", "PUBLIC") for i in range(1, n + 1)],
        )


def test_a_table_larger_than_a_batch_is_copied_one_batch_at_a_time(
    tmp_path: Path, locate: Locate
) -> None:
    with FaqCache(locate("source.db")) as src, FaqCache(tmp_path / "target.db") as dst:
        src.init_schema(), dst.init_schema()
        _items(src, ROWS)
        source, target = Watched(src.connection), Watched(dst.connection)
        said: list[tuple[str, int, int]] = []
        copied = copy_tables(
            source, target, FaqCache.TABLES, batch=BATCH,  # type: ignore[arg-type]
            progress=lambda t, done, total: said.append((t, done, total)),
        )  # fmt: skip
        assert copied["faq_item"] == checksum(
            [tuple(r) for r in src.connection.execute("SELECT * FROM faq_item").fetchall()]
        )  # summed while streaming: the rows of the source, as a checksum of them all says
        checks = verify("faq", source, target, FaqCache.TABLES, batch=BATCH)  # type: ignore[arg-type]
        assert all(c.ok for c in checks) and checks[0].rows_to == ROWS
        assert 0 < source.most <= BATCH and target.most <= BATCH
        assert [s for s in said if s[0] == "faq_item"] == [
            ("faq_item", 10, ROWS),
            ("faq_item", 20, ROWS),
            ("faq_item", 25, ROWS),
        ]


def test_on_postgresql_rows_come_from_a_server_side_cursor(pg_url: str) -> None:
    """The server hands over one batch per FETCH; the rest stays on the server."""
    with FaqCache(pg_url) as store:
        store.init_schema()
        _items(store, ROWS)
        batches = store.connection.batches("SELECT id FROM faq_item ORDER BY id", BATCH)
        first = next(batches)
        with psycopg.connect(pg_url) as other:
            running = [
                str(r[0])
                for r in other.execute(
                    "SELECT query FROM pg_stat_activity WHERE datname = current_database()"
                    " AND pid <> pg_backend_pid()"
                ).fetchall()
            ]
        rest = [row for rows in batches for row in rows]
        assert len(first) == BATCH and len(rest) == ROWS - BATCH
        assert any(q.startswith("FETCH FORWARD") for q in running), running
