"""`serve --workers N` spreads kept-alive connections over its workers (least connections, see
``ragspine/service/balance.py``): opened at once, 8 connections used to land 8/0, 7/1 or 6/2,
counted on the workers' own sockets; the board the workers share, and the private asyncio names
the fair accept rests on."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from ragspine.service.balance import SLOT, Board, FairLoop, new_board
from tests.service.conftest import running
from tests.service.sockets import owners

CONNECTIONS = 8  # as the service bench opens them
ROUNDS = 3  # bursts; an uneven accept passes all three by luck about one time in a hundred


def _startup_complete(log: Path, workers: int) -> None:
    deadline = time.monotonic() + 60
    while log.read_text().count("Application startup complete") < workers:
        assert time.monotonic() < deadline, log.read_text()[-2000:]
        time.sleep(0.1)


async def _burst(port: int) -> list[tuple[str, int]]:
    """``CONNECTIONS`` connections opened at once, each served one request and kept open."""
    conns = await asyncio.gather(
        *(asyncio.open_connection("127.0.0.1", port) for _ in range(CONNECTIONS))
    )
    for _, writer in conns:
        writer.write(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
    for reader, _ in conns:
        await reader.readuntil(b"}")
    peers = [w.get_extra_info("sockname")[:2] for _, w in conns]
    return peers, conns  # type: ignore[return-value]


@pytest.mark.slow
def test_a_burst_of_kept_alive_connections_is_shared_by_both_workers(
    tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    with running(tmp_path, demo_db, demo_corpus, extra=("--workers", "2")) as svc:
        _startup_complete(svc.log, 2)
        port = int(svc.url.rsplit(":", 1)[1])
        spreads = []
        for _ in range(ROUNDS):

            async def one() -> Counter[int]:
                peers, conns = await _burst(port)
                held = owners(svc.pid, port)
                for _, writer in conns:  # type: ignore[attr-defined]
                    writer.close()
                return Counter(held[p] for p in peers)

            spreads.append(sorted(asyncio.run(one()).values()))
            time.sleep(0.3)  # the workers see the closes before the next burst
    # least connections: 4/4, or 5/3 when both workers see equal counts at once
    assert all(len(s) == 2 and min(s) >= 3 for s in spreads), spreads


HOLD = """
import sys
from pathlib import Path
from ragspine.service.balance import Board
board = Board(Path(sys.argv[1]))
board.publish(int(sys.argv[2]))
print(board.slot, flush=True)
sys.stdin.readline()
"""


def _sibling(board: Path, connections: int) -> subprocess.Popen[str]:
    """Another process holding a slot of ``board`` with ``connections`` open, until its stdin
    closes (slot locks are per process: a sibling must be one)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(board), str(connections)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline().strip().isdigit()
    return proc


def test_the_board_counts_live_siblings_and_clears_a_dead_ones_slot(tmp_path: Path) -> None:
    path = new_board(tmp_path / "board")
    sibling = _sibling(path, 3)
    board = Board(path)
    try:
        assert board.slot == 1  # the sibling holds slot 0
        board.publish(5)
        assert board.mine() == 5
        assert board.fewest_elsewhere() == 3
    finally:
        assert sibling.stdin is not None
        sibling.stdin.close()
        sibling.wait(10)
    # the sibling died without clearing its slot: its lock went with it
    assert board.fewest_elsewhere() is None
    assert SLOT.unpack_from(path.read_bytes(), 0) == (0, 0)
    board.close()


async def _accept_delay(board_path: Path, mine: int) -> float:
    """Seconds a FairLoop holding ``mine`` connections takes to accept a new one."""
    loop = asyncio.get_running_loop()
    assert isinstance(loop, FairLoop) and loop.board is not None
    loop.board.publish(mine)
    accepted = asyncio.Event()
    server = await loop.create_server(lambda: _Accepted(accepted), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    started = time.monotonic()
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    await asyncio.wait_for(accepted.wait(), 5)
    took = time.monotonic() - started
    writer.close()
    server.close()
    return took


class _Accepted(asyncio.Protocol):
    def __init__(self, event: asyncio.Event) -> None:
        self.event = event

    def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
        self.event.set()


@pytest.mark.parametrize(
    ("mine", "deferred"),
    [
        (2, False),  # the sibling holds more: accept at once
        (5, False),  # as many: accept at once
        (6, True),  # one more than the sibling: let it take this one (MAX_DEFER, then anyway)
    ],
)
def test_a_worker_defers_to_a_sibling_holding_fewer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mine: int, deferred: bool
) -> None:
    path = new_board(tmp_path / "board")
    sibling = _sibling(path, 5)  # it never accepts: this worker must go ahead after MAX_DEFER
    monkeypatch.setenv("RAGSPINE_SERVICE_BOARD", str(path))
    try:
        runner = asyncio.Runner(loop_factory=FairLoop)
        took = runner.run(_accept_delay(path, mine))
        runner.close()
    finally:
        assert sibling.stdin is not None
        sibling.stdin.close()
        sibling.wait(10)
    assert (took >= 0.04) is deferred, took


def test_the_private_asyncio_names_the_fair_accept_uses_exist() -> None:
    """FairLoop overrides and calls these; a Python that renames them breaks it here first."""
    for name in ("_accept_connection", "_start_serving", "_remove_reader"):
        assert hasattr(asyncio.SelectorEventLoop, name), name
    assert os.name == "posix"  # the board's locks are POSIX record locks
