"""The stores' generations held in memory, kept current by PostgreSQL's LISTEN/NOTIFY.

Each change of a counter (``storage.generations``) is announced at its commit on the channel
``ragspine_generations`` (the stores' ``notify_generation`` migrations), with the counter and
its new value. A listener keeps ONE dedicated connection per database that LISTENs on a daemon
thread and holds the latest value of each counter; a service's request pins those values
(``service.api.pinning``) without a round trip. A notification can never be missed silently:

- after each (re)connect the listener LISTENs first and then reads every counter once, so a
  commit is either in that read or announced after it;
- while it is not connected (dropped, or not yet up) ``current()`` is None and the caller reads
  the counters itself, one query per request, until it reconnects (backoff doubling from
  ``FIRST_RETRY`` to ``LAST_RETRY``);
- every ``CHECK_EVERY`` seconds it reads the counters again on its connection, which bounds what
  a connection gone silently dead (no reset from the peer) could hide; TCP keepalives end one
  sooner.

What it cannot remove is the notification's own lag: a write committed a moment before a
request may reach it at the next one (measured: ``benchmarks.replica_freshness``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from ragspine.storage.generations import Counter, Pin, union_sql
from ragspine.storage.store import Store
from ragspine.store_location import PgLocation

CHANNEL = "ragspine_generations"  # as the migrations name it
APPLICATION = "ragspine-listener"  # its connections' application_name (pg_stat_activity)
WAIT = 0.5  # seconds one wait for notifications lasts: how soon ``stop`` is noticed
CHECK_EVERY = 30.0  # seconds between two reads of the counters on the listening connection
FIRST_RETRY, LAST_RETRY = 0.05, 5.0  # seconds before a reconnect: doubling from, up to
LISTEN_ENV = "RAGSPINE_PG_LISTEN"  # "off": read the generations at every request instead

logger = logging.getLogger("ragspine.service")
Connect = Callable[[PgLocation], Any]  # a location → an open psycopg connection (autocommit)


def connect(location: PgLocation) -> Any:
    """A dedicated autocommit connection, named for ``pg_stat_activity``, with TCP keepalives
    so a peer gone without a word is noticed in seconds, not hours."""
    import psycopg

    return psycopg.connect(
        location.url,
        autocommit=True,
        application_name=APPLICATION,
        connect_timeout=10,
        keepalives=1,
        keepalives_idle=10,
        keepalives_interval=3,
        keepalives_count=3,
    )


class GenerationListener:
    """One database's counters, held current by LISTEN on a connection of its own."""

    def __init__(
        self,
        location: PgLocation,
        counters: Sequence[Counter],
        *,
        check_every: float = CHECK_EVERY,
        connect: Connect = connect,
    ) -> None:
        self.location, self._connect, self._check_every = location, connect, check_every
        self._tables = list(dict.fromkeys(c.table for c in counters))
        self._keys = {c.table: c.key for c in counters}
        self._pin: Pin | None = None  # replaced whole, never changed in place
        self._stop, self._tried = threading.Event(), threading.Event()
        self._thread: threading.Thread | None = None
        self.reads = 0  # reads of the counters this listener made (tests count statements)
        self.connects = 0

    def current(self) -> Pin | None:
        """The counters' latest values while listening; None while not (read them instead).
        A new dict at each change: the same object means nothing moved."""
        return self._pin

    def start(self, wait: float = 0.0) -> bool:
        """Listen on a daemon thread; wait up to ``wait`` s for its first attempt to connect
        (one that fails is retried meanwhile). Whether it is up."""
        self._thread = threading.Thread(target=self._run, name=APPLICATION, daemon=True)
        self._thread.start()
        if wait > 0:
            self._tried.wait(wait)
        return self._pin is not None

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=WAIT * 4)

    def _run(self) -> None:
        delay = FIRST_RETRY
        while not self._stop.is_set():
            try:
                with self._connect(self.location) as conn:
                    self.connects += 1
                    self._listen(conn)
                    delay = FIRST_RETRY
                    self._follow(conn)
            except Exception as exc:  # a dropped or refused connection: fall back, retry
                if not self._stop.is_set():
                    logger.warning("generation listener down: %s", type(exc).__name__)
            self._pin = None
            self._tried.set()
            self._stop.wait(delay)
            delay = min(delay * 2, LAST_RETRY)

    def _listen(self, conn: Any) -> None:
        conn.execute(f"LISTEN {CHANNEL}")
        self._pin = self._read(conn)  # after LISTEN: a later commit is announced
        self._tried.set()

    def _follow(self, conn: Any) -> None:
        checked = time.monotonic()
        while not self._stop.is_set():
            for note in conn.notifies(timeout=WAIT):
                self._heard(note.payload, conn)
            if time.monotonic() - checked >= self._check_every:
                self._pin, checked = self._read(conn), time.monotonic()

    def _heard(self, payload: str, conn: Any) -> None:
        """``SCHEMA.TABLE GENERATION``: that counter's value, the others kept (a counter this
        service does not hold is ignored). A payload of another form (another version's) is
        answered by reading every counter."""
        table, _, value = payload.partition(" ")
        held = self._pin
        if not value.lstrip("-").isdigit() or held is None:
            self._pin = self._read(conn)
        elif table in self._keys:
            self._pin = {**held, self._keys[table]: int(value)}

    def _read(self, conn: Any) -> Pin:
        self.reads += 1
        rows = conn.execute(union_sql(self._tables)).fetchall()
        return {self._keys[self._tables[int(i)]]: int(gen) for i, gen in rows}


class Listening:
    """The listeners of a service's counters, one per database; ``current()`` the pin of all."""

    def __init__(self, listeners: Sequence[GenerationListener]) -> None:
        self.listeners = list(listeners)
        self._merged: tuple[tuple[Pin | None, ...], Pin] | None = None

    @classmethod
    def of(cls, stores: Sequence[Store], **kw: Any) -> Listening | None:
        """A listener for each database holding a store with a counter (None: no such store;
        ``kw`` goes to each ``GenerationListener``)."""
        by_db: dict[str, tuple[PgLocation, list[Counter]]] = {}
        for store in stores:
            if store.counter is not None and isinstance(store.path, PgLocation):
                by_db.setdefault(str(store.path), (store.path, []))[1].append(store.counter)
        if not by_db:
            return None
        return cls([GenerationListener(w, cs, **kw) for w, cs in by_db.values()])

    def start(self, wait: float = 0.0) -> bool:
        return all([listener.start(wait) for listener in self.listeners])

    def stop(self) -> None:
        for listener in self.listeners:
            listener.stop()

    def current(self) -> Pin | None:
        """Every database's counters, or None while any of them is not listening. The same
        object while nothing moved."""
        pins = [listener.current() for listener in self.listeners]
        if len(pins) == 1:
            return pins[0]
        if any(p is None for p in pins):
            return None
        merged = self._merged
        if merged is None or any(a is not b for a, b in zip(merged[0], pins, strict=True)):
            both: Pin = {}
            for p in pins:
                both.update(p or {})
            merged = self._merged = (tuple(pins), both)
        return merged[1]
