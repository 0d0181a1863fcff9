"""An ask is answered below FastAPI's routing (``short_path``), and only when the route would
answer it the same way: the same request sent so that it goes to the route (a ``+json`` media
type, which FastAPI reads as JSON and the short path leaves to it) gets the same status and the
same body, for hits, misses and every way a key or a body is refused."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import httpx
import pytest

from ragspine.engine import Engine
from ragspine.faq.faq_cache import FaqCache
from ragspine.llm.mock import MockProvider
from ragspine.service.api.app import create_app
from ragspine.service.api.short_path import ShortPath
from ragspine.service.keys import load_keys, new_key
from ragspine.service.settings import ServiceSettings
from ragspine.storage.fact_store import FactStore
from tests.pg_stores import Place
from tests.service.conftest import Service, faq_items
from tests.service.test_faq_short_circuit import (
    CONTENT_TYPES,
    WatchedFaq,
    WatchedKeys,
    serving,
)

HIT = "退货政策是什么?"
ROUTE_ONLY = "application/vnd.ragspine+json"  # JSON to FastAPI; not the short path's


def _both(
    service: Service, body: Any, headers: dict[str, str]
) -> tuple[httpx.Response, httpx.Response]:
    raw = body if isinstance(body, bytes) else httpx.Request("POST", "/", json=body).content
    short, routed = (
        httpx.post(
            f"{service.url}/v1/ask", content=raw, headers={**headers, "content-type": kind},
            timeout=30,
        )
        for kind in ("application/json", ROUTE_ONLY)
    )  # fmt: skip
    return short, routed


def _same(short: httpx.Response, routed: httpx.Response) -> None:
    assert short.status_code == routed.status_code
    assert short.headers["content-type"] == routed.headers["content-type"]
    one, other = short.json(), routed.json()
    for body, response in ((one, short), (other, routed)):
        assert body.pop("request_id") == response.headers["x-request-id"]
        if "trace" in body:
            body["trace"].pop("timings_ms")
    assert one == other


@pytest.mark.parametrize(
    ("body", "auth"),
    [
        ({"question": HIT}, "bearer"),  # a hit
        ({"question": HIT, "reference_date": "2025-06-30"}, "x-api-key"),  # a hit, dated
        ({"question": "换货政策是什么?"}, "bearer"),  # a disabled item: a miss, the agent answers
        ({"question": "青松项目的保密安排是什么?"}, "bearer"),  # RESTRICTED: never from the cache
        ({"question": HIT, "extra": 1}, "bearer"),  # an unknown field: 422
        ({"question": HIT, "reference_date": 20250630}, "bearer"),  # a date as a number: 422
        ({"question": HIT, "rerank": "yes"}, "bearer"),  # not a boolean: 422
        ({"question": " \u0000 "}, "bearer"),  # a question the engine refuses: 422
        (b'{"question": "' + HIT.encode() + b'"', "bearer"),  # not JSON: 422
        ({"question": HIT}, "none"),  # no key: 401
        ({"question": HIT}, "unknown"),  # an unknown key: 401
        ({"question": HIT}, "basic"),  # another scheme, no X-API-Key: 401
        ({"question": HIT}, "wrong bearer, good x-api-key"),  # the bearer key decides: 401
        ({"question": HIT}, "lower-case scheme"),  # `bearer KEY`, as HTTPBearer reads it: 200
    ],
)
def test_the_short_path_answers_as_the_route_does(service: Service, body: Any, auth: str) -> None:
    key = service.keys["INTERNAL"]
    headers = {
        "bearer": {"Authorization": f"Bearer {key}"},
        "x-api-key": {"X-API-Key": key},
        "none": {},
        "unknown": {"Authorization": "Bearer rsk_nobody"},
        "basic": {"Authorization": f"Basic {key}"},
        "wrong bearer, good x-api-key": {"Authorization": "Bearer rsk_nobody", "X-API-Key": key},
        "lower-case scheme": {"Authorization": f"bearer {key}"},
    }[auth]
    _same(*_both(service, body, headers))


def test_a_hit_above_the_callers_clearance_is_refused_as_the_route_refuses_it(
    service: Service,
) -> None:
    headers = {"Authorization": f"Bearer {service.keys['PUBLIC']}"}
    short, routed = _both(service, {"question": "员工手册在哪里下载?"}, headers)  # INTERNAL item
    _same(short, routed)
    assert short.json()["route"] != "faq"


def test_a_hit_is_logged_with_its_caller_route_and_verdict(service: Service) -> None:
    r = service.ask({"question": HIT})
    assert r.status_code == 200 and r.json()["route"] == "faq"
    rid = r.headers["x-request-id"]
    deadline = time.monotonic() + 10  # the line is written once the answer has gone out
    while rid not in service.log.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    line = next(x for x in service.log.read_text().splitlines() if rid in x)
    assert "status=200 caller=internal route=faq faq=hit" in line
    assert HIT not in line  # codes, never the question


class Downstream:
    """The app behind the short path: records each request it is handed, with its body."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        self.bodies.append(body)
        await send({"type": "http.response.start", "status": 418, "headers": []})
        await send({"type": "http.response.body", "body": b""})


def _through(app: Any, state: Any, body: bytes, headers: list[tuple[bytes, bytes]]) -> int:
    scope = {"type": "http", "method": "POST", "path": "/v1/ask", "headers": headers,
             "app": SimpleNamespace(state=state), "state": {"request_id": "r"}}  # fmt: skip
    pieces = [body[:5], body[5:]]  # sent in two pieces: the app must get both
    sent: list[Any] = []

    async def receive() -> Any:
        return {"type": "http.request", "body": pieces.pop(0), "more_body": bool(pieces)}

    async def send(message: Any) -> None:
        sent.append(message)

    asyncio.run(ShortPath(app)(scope, receive, send))
    return int(sent[0]["status"])


def test_an_ask_never_reaches_the_app_and_the_rest_reach_it_whole(
    tmp_path: Path, place: Place, demo_db: Path
) -> None:
    faq_items(place("faq.db"))
    key = new_key(tmp_path / "keys.yaml", "staff", "INTERNAL")
    with FaqCache(place("faq.db")) as cache:
        engine = Engine(FactStore(demo_db, create=False), MockProvider(), faq=cache)
        state = SimpleNamespace(
            engine=engine, keys=load_keys(tmp_path / "keys.yaml"), settings=ServiceSettings(),
            engine_limiter=None,  # anyio's default pool
        )  # fmt: skip
        app = Downstream()
        good = [(b"content-type", b"application/json"), (b"x-api-key", key.encode())]
        hit = json.dumps({"question": HIT}).encode()
        miss = json.dumps({"question": "中国内地FY2024的REVENUE是多少"}).encode()
        for body in (hit, miss):  # a FAQ hit; a miss, which the engine answers
            assert _through(app, state, body, good) == 200 and app.bodies == []
        for body, headers in (
            (hit, good[:1]),  # no key: the route's 401
            (hit, [(b"content-type", b"text/plain"), good[1]]),  # not JSON to the route: its 422
        ):
            assert _through(app, state, body, headers) == 418
            assert app.bodies[-1] == body  # handed on whole


def test_the_service_answers_hits_on_the_short_path_inside_the_limit_and_the_log() -> None:
    layers = [m.cls.__name__ for m in create_app(ServiceSettings()).user_middleware]  # type: ignore[attr-defined]
    # outermost first; the generations pinned around ShortPath, so it reads keys and FAQ held
    assert layers == ["_RequestLog", "_BodyLimit", "PinGenerations", "ShortPath"]


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
def test_a_miss_is_looked_up_once_and_its_key_checked_once(
    tmp_path: Path, place: Place, demo_db: Path, content_type: str
) -> None:
    """The short path answers a miss itself: the route's steps (the key check, the FAQ lookup)
    are never taken a second time for one request, whichever way it goes."""
    seen: list[tuple[str, bool]] = []
    faq_items(place("faq.db"))
    cache = WatchedFaq(place("faq.db"))
    cache.seen = seen
    engine = Engine(FactStore(demo_db, create=False), MockProvider(), faq=cache)
    key = new_key(tmp_path / "keys.yaml", "staff", "INTERNAL")
    keys = WatchedKeys(load_keys(tmp_path / "keys.yaml"), seen)
    with serving(create_app(ServiceSettings(), engine=engine, keys=keys)) as url:
        r = httpx.post(
            f"{url}/v1/ask",
            content=json.dumps({"question": "中国内地FY2024的REVENUE是多少"}),
            headers={"X-API-Key": key, "Content-Type": content_type},
        )
    cache.close()
    assert r.status_code == 200 and r.json()["route"] == "structured"
    assert [what for what, _ in seen] == ["keys", "faq"]


def test_the_record_is_serialised_as_the_routes_response_model_serialises_it(
    demo_db: Path,
) -> None:
    """The short path writes the record once (``model_dump_json``), byte for byte what FastAPI
    writes for the route's ``response_model`` (validated, then dumped by its alias)."""
    from fastapi.routing import APIRoute, serialize_response

    from ragspine.service.api.routes import router
    from ragspine.service.api.short_path import _record

    route = next(r for r in router.routes if isinstance(r, APIRoute) and r.path == "/v1/ask")
    engine = Engine(FactStore(demo_db, create=False), MockProvider())
    for question in (
        "中国内地FY2024的REVENUE是多少",  # structured: a figure, its tool results
        '中国内地FY2024的REVENUE是多少?请用英文回答 "quoted" \\ ✓',  # escapes and non-ASCII
        "为什么中国内地营收下降?",  # narrative (no corpus here: its degraded answer)
    ):
        result = engine.ask(question)
        routed = anyio.run(
            lambda r=result: serialize_response(
                field=route.response_field, response_content=r.to_record(), dump_json=True
            )
        )
        assert _record(result) == routed
