"""Store generations: a counter per store, bumped in the same transaction as every write to it,
so what a process holds in memory (keys, FAQ items, fact lookups, a search index) is known
current by reading one number instead of the rows.

A counter is a one-row table ``NAME_state (id = 1, generation)`` in the store's schema, bumped by
triggers on the tables what is held is read from: no write path, a copy's included, can forget
it (the corpus's older counter is bumped by its writers' own statements). On PostgreSQL each
change is also announced at its commit (NOTIFY, ``storage.generation_listener``). Outside a
request each read asks the database; inside a request (``pinned``) the request's reads are
answered from one pin of every counter: the service worker's listener's (no round trip), or
while it is not listening ONE query per database at the request's start.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from ragspine.storage.db import Connection

Pin = dict[tuple[str, str], int]  # (database, "schema.table") → generation
_pinned: ContextVar[Pin | None] = ContextVar("ragspine_generations", default=None)


@dataclass(frozen=True)
class Counter:
    """One store's counter: its connection and its ``schema.table``."""

    conn: Connection
    table: str

    @property
    def key(self) -> tuple[str, str]:
        return str(self.conn), self.table


def generation(counter: Counter) -> int:
    """The store's generation: the request's pinned value, else one single-row read."""
    pin = _pinned.get()
    if pin is not None and counter.key in pin:
        return pin[counter.key]
    (gen,) = counter.conn.execute(f"SELECT generation FROM {counter.table} WHERE id = 1").fetchone()
    return int(gen)


def read_all(counters: Sequence[Counter]) -> Pin:
    """Every counter's generation: one query per database (a UNION of single-row reads)."""
    by_db: dict[str, list[Counter]] = {}
    for c in counters:
        by_db.setdefault(c.key[0], []).append(c)
    found: Pin = {}
    for group in by_db.values():
        tables = list(dict.fromkeys(c.table for c in group))
        for i, gen in group[0].conn.execute(union_sql(tables)).fetchall():
            found[(group[0].key[0], tables[int(i)])] = int(gen)
    return found


def union_sql(tables: Sequence[str]) -> str:
    """One query reading each counter ``tables[i]`` as the row ``(i, generation)``."""
    return " UNION ALL ".join(
        f"SELECT {i}, generation FROM {t} WHERE id = 1" for i, t in enumerate(tables)
    )


def is_pinned() -> bool:
    """Whether this context's reads answer from a pin (a service's request)."""
    return _pinned.get() is not None


@contextmanager
def pinned(pin: Pin) -> Iterator[None]:
    """``generation`` answers from ``pin`` inside the block (and the threads it hands work to,
    which copy its context)."""
    token = _pinned.set(pin)
    try:
        yield
    finally:
        _pinned.reset(token)
