"""The FastAPI app: one ``Engine`` (with its FAQ cache) opened at start-up and shared by every
request, the API keys (re-read when their file changes), a body-size limit, a request id on every
response and a one-line access log (codes and timings, never a question or an answer). The
OpenAPI document and its Swagger page are served only when asked for (``serve --docs``), the page
from the assets ``fastapi-offline`` ships (no CDN: it works offline)."""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastapi import FastAPI

from ragspine.engine import Engine
from ragspine.errors import ConfigError
from ragspine.retrieval.retriever import HybridRetriever
from ragspine.service.api import errors, spec
from ragspine.service.api.pinning import PinGenerations
from ragspine.service.api.routes import router
from ragspine.service.api.short_path import ShortPath
from ragspine.service.keys import KeyRing, LiveKeys
from ragspine.service.keys_pg import PgKeys, service_keys
from ragspine.service.settings import ServiceSettings
from ragspine.storage.generation_listener import LISTEN_ENV, Listening
from ragspine.storage.store import Store
from ragspine.store_location import PgLocation

logger = logging.getLogger("ragspine.service")
ENGINE_THREADS = 32  # answers in flight; abandoned ones count until their thread ends
LISTEN_WAIT = 5.0  # seconds a start waits for its generation listener (then: reads per request)
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[
    [Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]
]


def _listening(stores: Sequence[Store]) -> Listening | None:
    """A listener for the generations of the stores in PostgreSQL (``pinning``), unless
    RAGSPINE_PG_LISTEN is ``off`` (a pooler in transaction mode, say, which cannot LISTEN)."""
    if os.environ.get(LISTEN_ENV, "").strip().lower() == "off":
        return None
    return Listening.of(stores)


def create_app(
    settings: ServiceSettings,
    *,
    engine: Engine | None = None,
    keys: KeyRing | LiveKeys | PgKeys | None = None,
    listen: Callable[[Sequence[Store]], Listening | None] = _listening,
) -> FastAPI:
    """The app; ``engine`` (its FAQ cache with it) and ``keys`` are opened from ``settings``
    unless given; ``listen`` makes the listener of the stores' generations (``pinning``)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ring = keys if keys is not None else service_keys(settings.db, settings.keys)
        try:
            if not len(ring):
                raise ConfigError(
                    "no API keys: create one with `ragspine keys new NAME --clearance LEVEL`"
                )
            opened = engine or Engine.open(
                settings.db,
                settings.corpus,
                profile=settings.profile,
                provider=settings.provider,
                faq=settings.faq,
            )
        except BaseException:  # a start that fails leaves no pool of the keys' open
            if keys is None and isinstance(ring, PgKeys):
                ring.close()
            raise
        app.state.engine, app.state.keys = opened, ring
        app.state.settings = settings
        app.state.engine_limiter = anyio.CapacityLimiter(ENGINE_THREADS)
        # A key or FAQ lookup on a database across the network waits on a socket: on a thread
        # then, never on the event loop (a local file's lookup costs less than the hand-off).
        app.state.networked = any(
            isinstance(where, PgLocation) for where in (settings.db, settings.faq)
        )
        # What each question's one read of generations covers (``pinning``), and the copies
        # held in memory that it brings up to date: none where every store is a local file.
        # (By type alone: a part passed in may be a stand-in that any other use would trip.)
        corpus = opened.retriever.store if isinstance(opened.retriever, HybridRetriever) else None
        stores = [s for s in (ring, opened.faq, opened.store, corpus) if isinstance(s, Store)]
        app.state.counters = [s.counter for s in stores if s.counter is not None]
        app.state.held = [s for s in (ring, opened.faq) if isinstance(s, Store) and s.counter]
        app.state.listening = listening = listen(stores)
        if listening is not None:  # up before the first request, or that one reads them
            await anyio.to_thread.run_sync(listening.start, LISTEN_WAIT)
        try:
            yield
        finally:
            if listening is not None:
                await anyio.to_thread.run_sync(listening.stop)
            if engine is None:
                opened.close()
            if keys is None and isinstance(ring, PgKeys):
                ring.close()

    described: dict[str, Any] = {
        "title": "RAGSpine",
        "summary": "Answers about a company's numbers and documents, never an invented number.",
        "lifespan": lifespan,
        "redoc_url": None,
    }
    if settings.docs:
        from fastapi_offline import FastAPIOffline

        app = FastAPIOffline(static_url="/docs/assets", **described)
    else:
        app = FastAPI(docs_url=None, openapi_url=None, **described)
    errors.install(app)
    spec.install(app)
    app.include_router(router)
    app.add_middleware(ShortPath)  # inside the body limit and the log: bounded, logged
    app.add_middleware(PinGenerations)  # around ShortPath: keys and FAQ read from memory
    app.add_middleware(_BodyLimit, limit=settings.max_body, timeout=settings.body_timeout)
    app.add_middleware(_RequestLog)  # outermost: a 413 too gets its id and its log line
    return app


def app_from_env() -> FastAPI:
    """For ``uvicorn --factory`` (``ragspine serve --workers N``): settings from the environment;
    a worker of a master watches it, to end with it."""
    settings = ServiceSettings.from_env()
    if settings.master_pid is not None:
        from ragspine.service.supervise import die_with

        die_with(settings.master_pid)
    return create_app(settings)


class _BodyLimit:
    """413 for a body over the limit, declared or streamed; nothing past it is read. 408 for a
    body that stops arriving: a client that declares more than it sends (or trickles it) would
    otherwise hold a connection and a worker for as long as it likes."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float) -> None:
        self.app, self.limit, self.timeout = app, limit, timeout

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(send, self.limit)
            return
        seen, refused, complete = 0, False, False
        deadline = anyio.current_time() + self.timeout  # for the whole body, not per piece

        # A streamed body is counted as it arrives. Past the limit or the deadline the answer
        # goes out at once and the app is told the client left: FastAPI turns any error while
        # reading the body into its own 400, so raising through it would lose the 413. What
        # the app answers after that is dropped.
        async def counted() -> Message:
            nonlocal seen, refused, complete
            if refused:
                return {"type": "http.disconnect"}
            if complete:  # after the body only a disconnect comes: no deadline on waiting for it
                return await receive()  # type: ignore[no-any-return]
            message: Message | None = None
            with anyio.move_on_after(max(deadline - anyio.current_time(), 0)):
                message = await receive()
            if message is None:
                refused = True
                detail = f"the request body did not arrive within {self.timeout:g} s"
                await _problem(send, 408, "Request timeout", detail)
                return {"type": "http.disconnect"}
            seen += len(message.get("body", b""))
            complete = message["type"] != "http.request" or not message.get("more_body", False)
            if seen > self.limit:
                refused = True
                await _too_large(send, self.limit)
                return {"type": "http.disconnect"}
            return message

        async def sent(message: Message) -> None:
            if not refused:
                await send(message)

        await self.app(scope, counted, sent)


async def _too_large(send: Any, limit: int) -> None:
    await _problem(send, 413, "Payload too large", f"the request body is over {limit} bytes")


async def _problem(send: Any, status: int, title: str, detail: str) -> None:
    """A problem+json answer sent below FastAPI, where its exception handlers do not reach."""
    body = json.dumps(
        {"type": "about:blank", "title": title, "status": status, "detail": detail}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", errors.PROBLEM.encode()),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class _RequestLog:
    """A request id on every request and response, and one access-log line per request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = rid
        started = time.perf_counter()
        status = 500

        async def tagged(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", []).append((b"x-request-id", rid.encode()))
            await send(message)

        try:
            await self.app(scope, receive, tagged)
        finally:
            state = scope.get("state", {})
            logger.info(
                "%s %s %s status=%s caller=%s route=%s faq=%s ms=%.1f",
                rid,
                scope.get("method"),
                ascii(scope.get("path", ""))[1:-1][:200],  # no line breaks, no forged lines
                status,
                state.get("caller", "-"),
                state.get("route", "-"),
                state.get("faq", "-"),
                (time.perf_counter() - started) * 1000,
            )
