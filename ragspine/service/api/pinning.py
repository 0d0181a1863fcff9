"""One read of the stores' generations per question, where the stores are across the network.

A question on PostgreSQL consults the keys, the FAQ and the corpus's index, each held in memory
and current while its store's generation has not moved (``storage.generations``). This ASGI
middleware reads every generation in ONE query at the start of ``POST /v1/ask``, on a thread,
reloads whatever moved in the same hand-off, and pins them for the request: the key check and
the FAQ lookup then answer from memory on the event loop, and the request costs one round trip
before the engine's own reads. A write committed before the request arrived (a key disabled on
another replica) is in what it reads.
"""

from __future__ import annotations

import logging
from typing import Any

import anyio

from ragspine.storage.generations import Counter, pinned, read_all

ASK = "/v1/ask"
logger = logging.getLogger("ragspine.service")


class PinGenerations:
    """ASGI middleware (see the module); ``app.state.counters`` says what to read (none on a
    SQLite deployment: nothing is then read or pinned)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != ASK:
            await self.app(scope, receive, send)
            return
        state = scope["app"].state
        counters: list[Counter] = getattr(state, "counters", None) or []
        if not counters:
            await self.app(scope, receive, send)
            return
        try:
            pin = await anyio.to_thread.run_sync(_read, counters, state.held)
        except Exception as exc:  # the app's own reads then fail (or not) and say so its way
            logger.warning("store generations not read: %s", type(exc).__name__)
            await self.app(scope, receive, send)
            return
        with pinned(pin):
            await self.app(scope, receive, send)


def _read(counters: list[Counter], held: list[Any]) -> dict[tuple[str, str], int]:
    """The generations, and each held copy (``refresh()``) brought up to them."""
    pin = read_all(counters)
    with pinned(pin):
        for store in held:
            store.refresh()
    return pin
