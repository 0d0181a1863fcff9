"""The service bench's own parts: its load keeps its connections alive and counts what failed,
and its table reads a URL's backend and gives each route its share of the ceiling."""

from __future__ import annotations

import asyncio

import pytest

from benchmarks.service_bench import CEILING, Measure, markdown, rows, store_kind
from benchmarks.service_load import load


async def _serve_and_load(
    status: int, connections: int, close_after: int = 0
) -> tuple[dict[str, object], int]:
    """A tiny HTTP/1.1 server answering every request with ``status`` (closing a connection
    after ``close_after`` answers when set), loaded for a moment; the result and how many
    connections it accepted."""
    accepted = 0

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal accepted
        accepted += 1
        answered = 0
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                await reader.readexactly(length)
                writer.write(f"HTTP/1.1 {status} X\r\ncontent-length: 2\r\n\r\nok".encode())
                await writer.drain()
                answered += 1
                if close_after and answered >= close_after:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        result = await load(
            f"http://127.0.0.1:{port}/v1/ask", b'{"question": "q"}', ["x-api-key: k"],
            connections, warmup=0.0, seconds=0.3,
        )  # fmt: skip
    return result, accepted


def test_the_load_keeps_each_connection_alive() -> None:
    result, accepted = asyncio.run(_serve_and_load(200, connections=3))
    assert accepted == 3  # one connection per client for the whole run
    assert result["requests"] == len(result["ms"]) > 3  # type: ignore[arg-type]
    assert result["errors"] == 0


def test_the_load_counts_refusals_and_lost_connections_as_errors() -> None:
    refused, _ = asyncio.run(_serve_and_load(503, connections=2))
    assert refused["errors"] == refused["requests"] > 0
    closed, accepted = asyncio.run(_serve_and_load(200, connections=1, close_after=2))
    # each connection the server closed is one error and one new connection (the last one may
    # still be open when the time is up)
    assert accepted > 1 and closed["errors"] in (accepted - 1, accepted)


@pytest.mark.parametrize(
    ("db", "kind"),
    [
        ("data/demo/facts.db", "sqlite"),  # a path is a SQLite file
        ("/abs/path/facts.db", "sqlite"),  # an absolute one too
        ("postgresql://u@h:5432/ragspine", "postgresql"),  # lane 25-A's backend
        ("postgres://u@h/ragspine", "postgresql"),  # the short scheme libpq takes too
        ("mysql://u@h/x", "mysql"),  # another scheme is named as it is, not taken for SQLite
    ],
)
def test_the_store_column_names_the_backend(db: str, kind: str) -> None:
    assert store_kind(db) == kind


def test_each_route_gets_its_share_of_the_ceiling_with_as_many_workers() -> None:
    measures = [
        Measure(CEILING, "-", "ceiling", 1, 1000.0, 2.0, 5.0, 0),
        Measure("ragspine", "sqlite", "faq hit", 1, 600.0, 3.0, 6.0, 0),
        Measure(CEILING, "-", "ceiling", 2, 1600.0, 2.0, 5.0, 0),
        Measure("ragspine", "sqlite", "faq hit", 2, 1200.0, 3.0, 6.0, 0),
        # the same route on the other backend, measured beside it: its own share and gain
        Measure("ragspine", "postgresql", "faq hit", 1, 500.0, 4.0, 8.0, 0),
        Measure("ragspine", "postgresql", "faq hit", 2, 800.0, 4.0, 8.0, 0),
    ]
    lines = {str(r["label"]): str(r["value"]) for r in rows(measures)}
    assert lines["ragspine [sqlite] faq hit, 1 worker(s), 8 conns"].endswith("0.60 of the ceiling")
    assert lines["ragspine [sqlite] faq hit, 2 worker(s), 8 conns"].endswith("0.75 of the ceiling")
    assert lines["ragspine [sqlite] faq hit: 2 workers / 1"] == "2.00x"
    assert lines["ragspine [postgresql] faq hit, 2 worker(s), 8 conns"].endswith(
        "0.50 of the ceiling"
    )
    assert lines["ragspine [postgresql] faq hit: 2 workers / 1"] == "1.60x"
    assert lines[f"{CEILING} [-] ceiling: 2 workers / 1"] == "1.60x"
    assert "| ragspine | sqlite | faq hit | 2 | 1200 | 3.0 | 6.0 | 0.75 |" in markdown(measures)
