"""The service bench's load generator, run in its own process so its work is not the server's:
``python -m benchmarks.service_load URL --body JSON [--header K:V] [--connections 8]``.

Each connection is opened once and kept alive (HTTP/1.1), sends one request, reads the whole
response (``content-length`` framed, as uvicorn sends it), and sends the next: a closed loop, like
wrk's. One asyncio loop over raw sockets, so the client costs a few tens of microseconds a request
and is not what is measured. Prints one JSON line: requests, seconds, errors (a non-200 answer
or a lost connection) and latencies (ms).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from urllib.parse import urlsplit


def _request(url: str, body: bytes, headers: Sequence[str]) -> bytes:
    parts = urlsplit(url)
    lines = [
        f"POST {parts.path or '/'} HTTP/1.1",
        f"host: {parts.netloc}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        *headers,
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def _one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, raw: bytes) -> int:
    """Send one request and read its response; the status code."""
    writer.write(raw)
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length:
        await reader.readexactly(length)
    return status


async def _connection(
    host: str, port: int, raw: bytes, warm: float, until: float, out: list[float], errors: list[int]
) -> None:
    """One client: a kept-alive connection, opened again (and counted as an error, status 0)
    only if the server closes it or it fails."""
    clock = time.perf_counter
    while clock() < until:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            errors.append(0)
            await asyncio.sleep(0.05)
            continue
        try:
            while True:
                started = clock()
                if started >= until:
                    return
                status = await _one(reader, writer, raw)
                if started >= warm:  # requests begun during the warm-up are not counted
                    out.append((clock() - started) * 1000)
                    if status != 200:
                        errors.append(status)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            errors.append(0)
        finally:
            writer.close()


async def load(
    url: str, body: bytes, headers: Sequence[str], connections: int, warmup: float, seconds: float
) -> dict[str, object]:
    """Closed-loop load for ``seconds`` after ``warmup``; the latencies of the measured part."""
    parts = urlsplit(url)
    raw = _request(url, body, headers)
    start = time.perf_counter()
    warm, until = start + warmup, start + warmup + seconds
    latencies: list[float] = []
    errors: list[int] = []
    await asyncio.gather(
        *(
            _connection(parts.hostname or "127.0.0.1", parts.port or 80, raw, warm, until,
                        latencies, errors)
            for _ in range(connections)
        )
    )  # fmt: skip
    wall = max(time.perf_counter() - warm, 1e-9)  # the last requests end after `until`
    return {"requests": len(latencies), "seconds": wall, "errors": len(errors), "ms": latencies}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.service_load", description=__doc__)
    parser.add_argument("url")
    parser.add_argument("--body", required=True, help="the JSON body of every request")
    parser.add_argument("--header", action="append", default=[], help="NAME: VALUE (repeatable)")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds not counted")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds measured")
    args = parser.parse_args(argv)
    result = asyncio.run(
        load(args.url, args.body.encode(), args.header, args.connections, args.warmup,
             args.seconds)
    )  # fmt: skip
    json.dump(result, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
