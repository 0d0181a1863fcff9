"""The service bench's ceiling: a bare FastAPI endpoint on the same uvicorn, h11 protocol and
worker count as `ragspine serve`, nothing behind it. ``python -m benchmarks.service_ceiling
--port P --workers N``.

It reads the same JSON body into a model and answers a small JSON object, so what separates
`ragspine serve` from it is the service's own work (keys, limits, logging, the answer), not
HTTP. Its connections get TCP_NODELAY as the service's do (uvicorn's ``--workers N`` listener
leaves Nagle on): a ceiling slowed by delayed ACKs would flatter every ratio to it.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel
from uvicorn.protocols.http.h11_impl import H11Protocol

app = FastAPI(docs_url=None, openapi_url=None, redoc_url=None)


class Question(BaseModel):
    question: str


@app.post("/v1/ask")
async def ask(body: Question) -> dict[str, Any]:
    return {"answer": "ok", "route": "ceiling", "chars": len(body.question)}


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


class NoDelayH11(H11Protocol):
    """uvicorn's h11 protocol, TCP_NODELAY on every connection (as `ragspine serve` has it;
    set here, not imported, so the ceiling runs nothing of ragspine's)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)


def main(argv: Sequence[str] | None = None) -> int:
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m benchmarks.service_ceiling")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    uvicorn.run(
        "benchmarks.service_ceiling:app",
        host="127.0.0.1",
        port=args.port,
        workers=args.workers,
        http=NoDelayH11,
        access_log=False,
        log_level="info",  # "Application startup complete" per worker: the bench waits for it
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
