"""Every connection `ragspine serve` accepts has TCP_NODELAY on, with one worker and with several.

Without it a response written in two pieces (head, then body) waits for the client's delayed ACK
on a kept-alive connection (Nagle's algorithm): tens of milliseconds per request. uvicorn's
multi-worker listener is a socket whose protocol number is 0, and asyncio sets the option only
on sockets that say IPPROTO_TCP, so the workers' connections went without it. The option is read
here on the server's own sockets, not guessed from timings."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.service.conftest import running
from tests.service.sockets import CannotLook, server_side_option

CONNECTIONS = 6  # kept-alive connections; with 2 workers both usually get some


def _keep_alive(url: str) -> list[socket.socket]:
    host, port = url.removeprefix("http://").split(":")
    conns = []
    for _ in range(CONNECTIONS):
        conn = socket.create_connection((host, int(port)), timeout=10)
        conn.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
            answer += conn.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:40]
        conns.append(conn)  # served, kept open: the server holds its side
    return conns


@pytest.mark.slow
@pytest.mark.parametrize(
    "workers",
    [
        "1",  # uvicorn's own listener, in the serving process
        "2",  # a listener bound before the fork, shared by the workers
    ],
)
def test_every_accepted_connection_has_tcp_nodelay(
    workers: str, tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    with running(tmp_path, demo_db, demo_corpus, extra=("--workers", workers)) as svc:
        conns = _keep_alive(svc.url)
        try:
            peers = {c.getsockname()[:2] for c in conns}
            try:
                options = server_side_option(svc.pid, peers, socket.IPPROTO_TCP, socket.TCP_NODELAY)
            except CannotLook as why:
                pytest.skip(f"cannot read the server's sockets here: {why}")
        finally:
            for c in conns:
                c.close()
    assert set(options) == peers, "a connection was not found among the server's sockets"
    assert all(options.values()), f"TCP_NODELAY off on {sum(not v for v in options.values())}"
