"""uvicorn's h11 protocol with what it lacks against hostile clients (a deadline for the request
head and a cap on open connections) and, on every connection, TCP_NODELAY.

TCP_NODELAY: a response goes out in two writes (its head, then its body); with Nagle's algorithm
on, the body waits until the client acknowledges the head, and a client delays that ACK (some
40 ms on Linux) on a kept-alive connection. asyncio turns Nagle off only on sockets whose
protocol number says TCP, and the listener uvicorn binds for ``--workers N`` says 0: without the
option set here, every request on a worker's kept-alive connection waited out a delayed ACK.

uvicorn times out an idle connection only *between* two requests (``timeout_keep_alive``); a
client that connects and sends nothing, or sends its header lines one at a time (a slowloris),
holds its connection, and a file descriptor, for as long as it likes. And ``limit_concurrency``
answers 503 only once a request head has arrived, so it never sees those clients. Here:

- a connection waiting for a request head (from its connection, or from the first byte of the
  next request on a kept-alive one) has ``header_timeout`` seconds to complete it; then it gets a
  408 and is closed;
- past ``max_connections`` open connections, the one that has waited longest for a request head
  (idle, or sending one slowly) is closed to make room; a client whose request is under way is
  never dropped; if every connection has a request under way, the newcomer gets a 503.

Nothing is logged per connection (a flood of clients must not become a flood of log lines): the
drops are counted and the count is logged at most once a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from functools import cache
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ragspine.service.balance import published
from ragspine.service.settings import ServiceSettings

logger = logging.getLogger("ragspine.service")
REPORT_EVERY = 60.0  # seconds between two lines counting dropped connections
TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain\r\ncontent-length: 31\r\n"
    b"connection: close\r\n\r\nthe request head came too late\n"
)
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ncontent-length: 21\r\n"
    b"retry-after: 1\r\nconnection: close\r\n\r\ntoo many connections\n"
)


@cache
def _settings() -> ServiceSettings:
    return ServiceSettings.from_env()  # what `ragspine serve` gave every worker


class _Tally:
    """Drops counted by cause, logged as one line at most every ``REPORT_EVERY`` seconds."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.last = float("-inf")

    def add(self, cause: str) -> None:
        self.counts[cause] = self.counts.get(cause, 0) + 1
        now = time.monotonic()
        if now - self.last >= REPORT_EVERY:
            self.last = now
            said = ", ".join(f"{n} {c}" for c, n in sorted(self.counts.items()))
            logger.warning("connections dropped since the last report: %s", said)
            self.counts.clear()


TALLY = _Tally()


def no_delay(transport: asyncio.BaseTransport) -> None:
    """Turn Nagle's algorithm off on a TCP connection (see the module); a unix socket has none."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # the client has gone already: connection_lost follows
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class GuardedH11Protocol(H11Protocol):
    """The h11 protocol with a request-head deadline and a connection cap (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = _settings()
        self.header_timeout = settings.header_timeout
        self.max_connections = settings.max_connections
        self._head_timer: asyncio.TimerHandle | None = None
        self.waiting_since: float | None = None  # waiting for a request head since (loop time)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        no_delay(transport)
        super().connection_made(transport)
        published(self.loop, len(self.connections))  # `serve --workers N`: see service/balance
        self.waiting_since = self.loop.time()
        if len(self.connections) > self.max_connections and not self._make_room():
            TALLY.add("refused (all busy)")
            self._drop(BUSY)
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()
        if self.waiting_since is None and self.conn.their_state is h11.IDLE:
            self.waiting_since = self.loop.time()  # kept alive: idle until the next head

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.waiting_since = None
        super().connection_lost(exc)
        published(self.loop, len(self.connections))

    def _follow(self) -> None:
        """Arm the deadline once bytes of a head arrive; lift it once the head is complete."""
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.IDLE:
            if self._head_timer is None and self.timeout_keep_alive_task is None:
                self._arm()
        else:
            self._disarm()
            self.waiting_since = None

    def _arm(self) -> None:
        self._head_timer = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            TALLY.add("without a request head in time")
            self._drop(TIMED_OUT)

    def _make_room(self) -> bool:
        """Close the connection that has waited longest for a request head, if any."""
        waiting = [
            c
            for c in self.connections
            if isinstance(c, GuardedH11Protocol) and c is not self and c.waiting_since is not None
        ]
        if not waiting:
            return False
        oldest = min(waiting, key=lambda c: c.waiting_since or 0.0)
        TALLY.add("idle, to make room")
        oldest._drop(BUSY)
        return True

    def _drop(self, reply: bytes) -> None:
        self._disarm()
        self._unset_keepalive_if_required()
        self.waiting_since = None
        if not self.transport.is_closing():
            self.transport.write(reply)
            self.transport.close()
