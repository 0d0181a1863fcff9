"""``serve --workers N``: each new connection goes to the worker holding the fewest.

uvicorn's workers share one listening socket. Every worker's event loop is woken by a new
connection and asyncio's accept takes every connection queued (up to the backlog) in one go, so
the first worker to wake takes a burst whole: 8 kept-alive connections opened at once (a reverse
proxy's upstream pool, a load test) landed 8/0, 7/1 or 6/2 between two workers, and one worker
served most of the traffic while the other idled. Counted on the workers' own sockets.

Here, the least-connections rule of a load balancer, kept by the workers themselves: each worker
publishes its count of open connections on a small shared board (a file every worker maps, one
slot per worker, held by a lock for the worker's life so a dead worker's slot is seen as free)
and accepts one connection at a time, and only while no live sibling holds fewer. A worker that
is not next steps back from the listener for ``RECHECK`` seconds; past ``MAX_DEFER`` it accepts
anyway, so a sibling that is stuck never strands a client for long. One worker, or no board:
asyncio's own accept, unchanged.

The accept is asyncio's (``SelectorEventLoop._accept_connection``, asked for one connection);
stepping back and back in uses its ``_remove_reader``/``_start_serving``: private names, pinned
by ``tests/service/test_balance.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import mmap
import os
import struct
from pathlib import Path
from typing import Any

BOARD_ENV = "RAGSPINE_SERVICE_BOARD"  # the board's path, from `serve` to its workers
SLOTS = 64  # workers a board has room for; past it a worker accepts as asyncio does
SLOT = struct.Struct("=qq")  # a live worker's pid, its open connections
RECHECK = 0.001  # seconds a worker that is not next waits before looking again
MAX_DEFER = 0.05  # seconds a worker defers to its siblings at most, then accepts anyway


def new_board(path: Path) -> Path:
    """An empty board at ``path`` (`serve` makes it before its workers start)."""
    path.write_bytes(bytes(SLOT.size * SLOTS))
    return path


class Board:
    """One worker's view of the board: its own slot (locked while it lives) and the others'."""

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_RDWR)
        self._map = mmap.mmap(self._fd, SLOT.size * SLOTS)
        self.slot = self._claim()

    def _claim(self) -> int | None:
        """The first slot no live worker holds, locked for this process's life."""
        for slot in range(SLOTS):
            try:
                fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, SLOT.size, slot * SLOT.size)
            except OSError:
                continue
            SLOT.pack_into(self._map, slot * SLOT.size, os.getpid(), 0)
            return slot
        return None

    def publish(self, connections: int) -> None:
        """This worker's count of open connections."""
        if self.slot is not None:
            SLOT.pack_into(self._map, self.slot * SLOT.size, os.getpid(), connections)

    def mine(self) -> int:
        count: int = SLOT.unpack_from(self._map, (self.slot or 0) * SLOT.size)[1]
        return count

    def fewest_elsewhere(self) -> int | None:
        """The fewest connections a live sibling holds (None: no sibling). A slot with a pid
        whose lock is free belonged to a worker that died: it is cleared, not counted."""
        fewest: int | None = None
        for slot in range(SLOTS):
            if slot == self.slot:
                continue
            pid, count = SLOT.unpack_from(self._map, slot * SLOT.size)
            if pid == 0 or (fewest is not None and count >= fewest):
                continue
            if not self._held(slot):
                SLOT.pack_into(self._map, slot * SLOT.size, 0, 0)
                continue
            fewest = count
        return fewest

    def _held(self, slot: int) -> bool:
        try:
            fcntl.lockf(self._fd, fcntl.LOCK_SH | fcntl.LOCK_NB, SLOT.size, slot * SLOT.size)
        except OSError:
            return True
        fcntl.lockf(self._fd, fcntl.LOCK_UN, SLOT.size, slot * SLOT.size)
        return False

    def close(self) -> None:
        if self.slot is not None:
            SLOT.pack_into(self._map, self.slot * SLOT.size, 0, 0)
        self._map.close()
        os.close(self._fd)  # drops the slot's lock


class FairLoop(asyncio.SelectorEventLoop):
    """asyncio's selector loop whose accept follows the board (see the module)."""

    def __init__(self) -> None:
        super().__init__()
        where = os.environ.get(BOARD_ENV)
        self.board = Board(Path(where)) if where else None
        self._deferred_since: float | None = None

    def _accept_connection(
        self, protocol_factory: Any, sock: Any, sslcontext: Any = None, server: Any = None,
        backlog: int = 100, *more: Any,
    ) -> None:  # fmt: skip
        board = self.board
        if board is None or board.slot is None:
            super()._accept_connection(protocol_factory, sock, sslcontext, server, backlog, *more)  # type: ignore[misc]
            return
        fewest = board.fewest_elsewhere()
        if fewest is not None and board.mine() > fewest:
            now = self.time()
            if self._deferred_since is None:
                self._deferred_since = now
            if now - self._deferred_since < MAX_DEFER:
                self._remove_reader(sock.fileno())  # type: ignore[attr-defined]
                self.call_later(
                    RECHECK, self._listen_again, protocol_factory, sock, sslcontext, server,
                    backlog, *more,
                )  # fmt: skip
                return
        self._deferred_since = None
        # one connection: the next waits for the next turn, when the board has its count
        super()._accept_connection(protocol_factory, sock, sslcontext, server, 1, *more)  # type: ignore[misc]

    def _listen_again(self, protocol_factory: Any, sock: Any, *rest: Any) -> None:
        server = rest[1] if len(rest) > 1 else None
        if sock.fileno() == -1 or (server is not None and not server.is_serving()):
            return  # the server closed meanwhile
        self._start_serving(protocol_factory, sock, *rest)  # type: ignore[attr-defined]

    def close(self) -> None:
        if self.board is not None:
            with contextlib.suppress(OSError, ValueError):
                self.board.close()
            self.board = None
        super().close()


def published(loop: asyncio.AbstractEventLoop, connections: int) -> None:
    """Tell the board how many connections this worker holds (a protocol calls it on every
    connection made and lost); nothing without a board."""
    board = getattr(loop, "board", None)
    if isinstance(board, Board):
        board.publish(connections)
