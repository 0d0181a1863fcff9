"""A FAQ hit never reaches the provider, the fact store or the retriever: the app is served by
uvicorn on 127.0.0.1 with an Engine whose parts fail on any use (passed in through its seams),
and the cache's hits still answer while its misses reach those parts."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from ragspine.engine import Engine
from ragspine.faq.faq_cache import FaqCache, Lookup
from ragspine.service.api.app import create_app
from ragspine.service.keys import Caller, KeyRing, load_keys, new_key
from ragspine.service.settings import ServiceSettings
from ragspine.store_location import parse_location
from tests.fakes.providers import ExplodingProvider
from tests.pg_stores import Place
from tests.service.conftest import faq_items, free_port


class Untouchable:
    """A fact store or retriever that records any use."""

    def __init__(self, log: list[str], name: str) -> None:
        self._log, self._name = log, name

    def __getattr__(self, attr: str) -> Any:
        self._log.append(f"{self._name}.{attr}")
        raise AssertionError(f"{self._name}.{attr} used on a FAQ hit")


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """The app served by uvicorn on 127.0.0.1 in a thread; yields its URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def served(tmp_path: Path, place: Place) -> Iterator[tuple[str, str, list[str]]]:
    used: list[str] = []
    faq_items(place("faq.db"))
    cache = FaqCache(place("faq.db"))
    engine = Engine(
        Untouchable(used, "store"),  # type: ignore[arg-type]
        ExplodingProvider(),
        retriever=Untouchable(used, "retriever"),  # type: ignore[arg-type]
        faq=cache,  # the engine's own FAQ route
    )
    key = new_key(tmp_path / "keys.yaml", "staff", "INTERNAL")
    app = create_app(ServiceSettings(), engine=engine, keys=load_keys(tmp_path / "keys.yaml"))
    with serving(app) as url:
        yield url, key, used
    cache.close()


def test_a_hit_touches_neither_the_provider_nor_the_stores(
    served: tuple[str, str, list[str]],
) -> None:
    url, key, used = served
    r = httpx.post(
        f"{url}/v1/ask",
        json={"question": "退货政策是什么?", "reference_date": "2025-06-30"},
        headers={"X-API-Key": key},
    )
    assert r.status_code == 200 and r.json()["route"] == "faq"
    assert used == []
    miss = httpx.post(
        f"{url}/v1/ask",
        json={"question": "换货政策是什么?", "reference_date": "2025-06-30"},  # disabled item
        headers={"X-API-Key": key},
    )
    assert miss.status_code == 500  # the miss reached the parts that fail on use
    assert miss.headers["content-type"] == "application/problem+json"
    assert "Traceback" not in miss.text and used  # and a crash is still a problem, no trace


class SlowProvider:
    """A model that answers only when the test lets it: far past the service's timeout."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def create_message(self, **_: object) -> Any:
        self.release.wait(60)
        raise AssertionError("the answer was not abandoned")


@pytest.mark.parametrize("content_type", ["application/json", "application/problem+json"])
def test_a_slow_answer_is_a_504_in_time_and_blocks_nothing(
    tmp_path: Path, demo_db: Path, content_type: str
) -> None:
    """On the short path (``application/json``) as on the route (another JSON media type)."""
    from ragspine.storage.fact_store import FactStore

    key = new_key(tmp_path / "keys.yaml", "staff", "INTERNAL")
    slow = SlowProvider()
    engine = Engine(FactStore(demo_db, create=False), slow)
    app = create_app(
        ServiceSettings(timeout=0.5), engine=engine, keys=load_keys(tmp_path / "keys.yaml")
    )
    # The model never answers while the requests are made: a 504 or a /readyz that waited
    # for it would take the model's 60 s; the bounds below only tell "did not wait" apart.
    with serving(app) as url:
        try:
            started = time.monotonic()
            r = httpx.post(
                f"{url}/v1/ask", content=json.dumps({"question": "中国内地FY2024的REVENUE是多少"}),
                headers={"X-API-Key": key, "Content-Type": content_type}, timeout=30,
            )  # fmt: skip
            assert r.status_code == 504 and time.monotonic() - started < 20
            assert r.headers["content-type"] == "application/problem+json"
            problem = r.json()
            assert problem.pop("request_id") == r.headers["x-request-id"]
            assert problem == {
                "type": "about:blank", "title": "Timeout", "status": 504,
                "detail": "no answer within 0.5 s",
            }  # fmt: skip
            ready = time.monotonic()
            assert httpx.get(f"{url}/readyz", timeout=30).status_code == 200
            assert time.monotonic() - ready < 20  # not queued behind the slow answer
        finally:
            slow.release.set()


def _on_the_loop() -> bool:
    """Whether the caller runs on the thread of a running event loop (not a worker thread)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class WatchedKeys(KeyRing):
    """The keys, noting where each check runs."""

    def __init__(self, ring: KeyRing, seen: list[tuple[str, bool]]) -> None:
        super().__init__(ring.entries)
        self.seen = seen

    def caller(self, key: str | None) -> Caller | None:
        self.seen.append(("keys", _on_the_loop()))
        return super().caller(key)


class WatchedFaq(FaqCache):
    """The FAQ cache, noting where each lookup runs."""

    seen: list[tuple[str, bool]]

    def lookup(self, question: str, **kw: Any) -> Lookup:
        self.seen.append(("faq", _on_the_loop()))
        return super().lookup(question, **kw)


CONTENT_TYPES = [
    "application/json",  # the short path below the routing (short_path)
    "application/problem+json",  # not the short path's: the route's own FAQ step
]


def _where_looked_up(
    tmp_path: Path, db: str, faq: Path | str, content_type: str
) -> list[tuple[str, bool]]:
    """A hit asked of a service whose facts are at ``db`` and whose FAQ is at ``faq``: where
    the key check and the FAQ lookup ran (on the event loop or not), in order."""
    seen: list[tuple[str, bool]] = []
    faq_items(faq)
    cache = WatchedFaq(faq)
    cache.seen = seen
    engine = Engine(
        Untouchable([], "store"),  # type: ignore[arg-type]
        ExplodingProvider(),
        faq=cache,
    )
    key = new_key(tmp_path / "keys.yaml", "staff", "INTERNAL")
    keys = WatchedKeys(load_keys(tmp_path / "keys.yaml"), seen)
    settings = ServiceSettings(db=parse_location(db), faq=parse_location(faq))
    with serving(create_app(settings, engine=engine, keys=keys)) as url:
        r = httpx.post(
            f"{url}/v1/ask",
            content=json.dumps({"question": "退货政策是什么?", "reference_date": "2025-06-30"}),
            headers={"X-API-Key": key, "Content-Type": content_type},
        )
    cache.close()
    assert r.status_code == 200 and r.json()["route"] == "faq"
    return seen


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
def test_where_a_hit_is_looked_up(tmp_path: Path, place: Place, content_type: str) -> None:
    """The key check and the FAQ lookup cost less than handing a request to a thread and back,
    so both run on the loop. On SQLite files a hit needs no thread at all (and is never queued
    for one); on PostgreSQL the request's one read of generations (``pinning``, on a thread)
    brings the held FAQ current, and both then answer from memory, never from a socket."""
    seen = _where_looked_up(tmp_path, str(place("facts.db")), place("faq.db"), content_type)
    assert seen == [("keys", True), ("faq", True)]


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
def test_a_lookup_on_a_database_not_pinned_runs_on_a_thread(
    tmp_path: Path, content_type: str
) -> None:
    """Where the stores are across the network but the request's generations were not pinned
    (no counter to read: here a FAQ file stands in beside a database never connected to), a
    lookup may wait on a socket, so never on the loop."""
    db = "postgresql://ragspine@127.0.0.1:9/ragspine"
    seen = _where_looked_up(tmp_path, db, tmp_path / "faq.db", content_type)
    assert seen == [("keys", False), ("faq", False)]
