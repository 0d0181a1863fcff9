"""The stores' generations pinned for each question, where the stores are across the network.

A question on PostgreSQL consults the keys, the FAQ and the corpus's index, each held in memory
and current while its store's generation has not moved (``storage.generations``). This ASGI
middleware pins every generation for ``POST /v1/ask``, so the key check and the FAQ lookup
answer from memory on the event loop:

- ``listened``: from the worker's listener (``storage.generation_listener``), no round trip;
  the held copies are brought up to it on a thread only when it moved;
- ``queried``: while the listener is not connected (or listening is off), read in ONE query at
  the request's start, on a thread, the held copies reloaded in the same hand-off. A write
  committed before the request arrived (a key disabled on another replica) is then in it.

Which way a request went is in its scope's state (``generations``), for its trace and log.
"""

from __future__ import annotations

import logging
from typing import Any

import anyio

from ragspine.storage.generation_listener import Listening
from ragspine.storage.generations import Counter, Pin, pinned, read_all

ASK = "/v1/ask"


def is_ask(scope: Any) -> bool:
    """Whether an ASGI scope is a POST to the ask route: what the service's middlewares handle."""
    return bool(scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == ASK)


LISTENED, QUERIED = "listened", "queried"  # the trace's code ``generations``
logger = logging.getLogger("ragspine.service")


class PinGenerations:
    """ASGI middleware (see the module); ``app.state.counters`` says what to read (none on a
    SQLite deployment: nothing is then read or pinned), ``app.state.listening`` (if any) holds
    them, ``app.state.refreshed`` is the pin the held copies were last brought up to."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if not is_ask(scope):
            await self.app(scope, receive, send)
            return
        state = scope["app"].state
        counters: list[Counter] = getattr(state, "counters", None) or []
        if not counters:
            await self.app(scope, receive, send)
            return
        listening: Listening | None = getattr(state, "listening", None)
        pin = listening.current() if listening is not None else None
        way = LISTENED
        try:
            if pin is None:
                way, state.refreshed = QUERIED, None
                pin = await anyio.to_thread.run_sync(_read, counters, state.held)
            elif getattr(state, "refreshed", None) is not pin:  # moved: held copies follow
                await anyio.to_thread.run_sync(_refresh, pin, state.held)
                state.refreshed = pin
        except Exception as exc:  # the app's own reads then fail (or not) and say so its way
            logger.warning("store generations not read: %s", type(exc).__name__)
            await self.app(scope, receive, send)
            return
        scope.setdefault("state", {})["generations"] = way
        with pinned(pin):
            await self.app(scope, receive, send)


def _read(counters: list[Counter], held: list[Any]) -> Pin:
    """The generations, and each held copy (``refresh()``) brought up to them."""
    pin = read_all(counters)
    _refresh(pin, held)
    return pin


def _refresh(pin: Pin, held: list[Any]) -> None:
    with pinned(pin):
        for store in held:
            store.refresh()
