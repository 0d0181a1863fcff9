"""A worker's generation listener on a real PostgreSQL (``storage.generation_listener``): killed,
its requests read the generations themselves and see every write; back, it has missed nothing
that was written while it was away."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from ragspine.service.api.app import create_app
from ragspine.service.keys_pg import PgKeys
from ragspine.service.settings import ServiceSettings
from ragspine.storage.generation_listener import APPLICATION, Listening, connect
from ragspine.store_location import PgLocation
from tests.pg_stores import copy_store
from tests.service.conftest import faq_items

BOUND = 10.0  # seconds a change of state may take on a loaded machine: generous, not a claim
BODY = {"question": "退货政策是什么?"}  # a FAQ hit


@pytest.fixture
def deployed(
    pg_url: str, demo_db_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, str]:
    """The demo's facts, the tests' FAQ and an INTERNAL key in one fresh database."""
    from ragspine.storage.fact_store import FactStore

    monkeypatch.setenv("RAGSPINE_INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.delenv("RAGSPINE_PG_LISTEN", raising=False)
    copy_store(FactStore, demo_db_file, pg_url)
    faq_items(pg_url)
    with PgKeys(pg_url) as keys:
        key = keys.new_key("reader", "INTERNAL")
    return pg_url, key


class Gate:
    """The listener's way to the server, opened and shut by the test (a seam, not a mock):
    shut, every (re)connect is refused as a server out of reach would refuse it."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.open.set()

    def connect(self, location: PgLocation) -> Any:
        if not self.open.is_set():
            raise psycopg.OperationalError("the test shut the listener's way to the server")
        return connect(location)


def _until(check: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.01)
    raise AssertionError(f"not within {BOUND:g} s: {what}")


def _ask(client: TestClient, key: str) -> tuple[int, str]:
    """The status, and how the request's generations were pinned (its trace's code)."""
    got = client.post("/v1/ask", json=BODY, headers={"X-API-Key": key})
    codes = got.json().get("trace", {}).get("codes", {}) if got.status_code == 200 else {}
    return got.status_code, codes.get("generations", "-")


def _kill_listener(url: str) -> int:
    """``pg_terminate_backend`` on the listening connections to this database."""
    with psycopg.connect(url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE application_name = %s AND datname = current_database()",
            (APPLICATION,),
        ).fetchall()
    return len(rows)


def test_a_killed_listener_falls_back_to_a_read_per_request_then_misses_nothing(
    deployed: tuple[str, str],
) -> None:
    url, key = deployed
    where, gate = PgLocation(url), Gate()
    app = create_app(
        ServiceSettings(db=where, corpus=None, faq=where),
        listen=lambda stores: Listening.of(stores, connect=gate.connect),
    )
    with TestClient(app) as client:
        listening: Listening = client.app.state.listening  # type: ignore[attr-defined]
        assert _ask(client, key) == (200, "listened")

        gate.open.clear()
        assert _kill_listener(url) == 1
        _until(lambda: listening.current() is None, "the listener saw its connection end")
        assert _ask(client, key) == (200, "queried")
        with PgKeys(url) as keys:  # announced to nobody: no one listens
            keys.set_disabled("reader", True)
        assert _ask(client, key)[0] == 401  # the request's own read saw it

        with PgKeys(url) as keys:  # written while nobody listens and no request reads
            keys.set_disabled("reader", False)
        gate.open.set()
        _until(lambda: listening.current() is not None, "the listener reconnected")
        assert _ask(client, key) == (200, "listened")  # its read after LISTEN has the write


def test_a_service_whose_listener_cannot_connect_starts_and_reads_per_request(
    deployed: tuple[str, str],
) -> None:
    url, key = deployed
    where, gate = PgLocation(url), Gate()
    gate.open.clear()
    app = create_app(
        ServiceSettings(db=where, corpus=None, faq=where),
        listen=lambda stores: Listening.of(stores, connect=gate.connect),
    )
    with TestClient(app) as client:
        assert _ask(client, key) == (200, "queried")
        gate.open.set()
        _until(lambda: _ask(client, key) == (200, "listened"), "listening once it can connect")
