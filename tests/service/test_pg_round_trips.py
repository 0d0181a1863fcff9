"""The statements one request costs on PostgreSQL, counted by the server (pg_stat_statements), so
they cannot creep back: on a machine whose cores the workers share with the database, every
round trip is paid twice. What does not change between writes (keys, FAQ items, fact lookups,
the corpus's generation, the passages a search returned) is held in memory; the generations
that say it is current come from the worker's listener (LISTEN/NOTIFY: no statement) or, with
listening off or down, from one query per request. A key disabled through one replica is
refused by another: at its very next request when queried, within the notification's lag when
listened."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from benchmarks.pg_server import PgServer
from ragspine.service.api.app import create_app
from ragspine.service.keys_pg import PgKeys
from ragspine.service.settings import ServiceSettings
from ragspine.store_location import PgLocation
from tests.pg import start_server
from tests.pg_stores import copy_store
from tests.service.conftest import faq_items

STATS = "pg_stat_statements"
BOUND = 10.0  # seconds a notification may take on a loaded machine: generous, not a claim


@pytest.fixture(scope="module")
def counted_server() -> Iterator[PgServer]:
    """A server of its own that counts every statement (the suite's shared one does not)."""
    try:
        server = start_server([f"shared_preload_libraries={STATS}"])
    except FileNotFoundError as absent:
        pytest.skip(str(absent))
    except RuntimeError as failed:  # the contrib library is not installed
        pytest.skip(f"PostgreSQL without {STATS}: {str(failed)[:200]}")
    yield server
    server.stop()


@pytest.fixture
def deployed(
    counted_server: PgServer,
    demo_db_file: Path,
    demo_corpus_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[str, str]:
    """The demo's stores, the tests' FAQ and an INTERNAL key in one fresh database."""
    from ragspine.retrieval.chunking.chunk_store import ChunkStore
    from ragspine.storage.fact_store import FactStore

    monkeypatch.setenv("RAGSPINE_INDEX_DIR", str(tmp_path / "index"))
    url = counted_server.database()
    copy_store(FactStore, demo_db_file, url)
    copy_store(ChunkStore, demo_corpus_file, url)
    faq_items(url)
    with PgKeys(url) as keys:
        key = keys.new_key("reader", "INTERNAL")
    return url, key


def _app(url: str) -> Any:
    where = PgLocation(url)
    return create_app(ServiceSettings(db=where, corpus=where, faq=where))


def _listener_reads(client: TestClient) -> int:
    """The statements the app's listener made on its own connection (none per request)."""
    listening = client.app.state.listening  # type: ignore[attr-defined]
    return sum(listener.reads for listener in listening.listeners) if listening else 0


def _statements(admin: Any) -> int:
    (n,) = admin.execute(
        f"SELECT COALESCE(SUM(calls), 0) FROM {STATS} WHERE dbid = (SELECT oid FROM pg_database"
        f" WHERE datname = current_database()) AND query NOT LIKE '%{STATS}%'"
    ).fetchone()
    return int(n)


ROUTES = [
    ("退货政策是什么?", "faq", 0, 1),  # a FAQ hit: held keys and items; queried: that read
    ("中国内地FY2024的REVENUE是多少", "structured", 0, 1),  # the facts are held too
    ("为什么中国内地营收下降?", "composite", 0, 1),  # the passages are held too
]
WAYS = [
    ("on", "listened"),  # the default: the worker's listener holds the generations
    ("off", "queried"),  # RAGSPINE_PG_LISTEN=off (or the listener down): one read per request
]


@pytest.mark.parametrize(("listen", "way"), WAYS)
@pytest.mark.parametrize(("question", "route", "listened", "queried"), ROUTES)
def test_statements_per_request_on_each_route(
    deployed: tuple[str, str],
    monkeypatch: pytest.MonkeyPatch,
    question: str,
    route: str,
    listened: int,
    queried: int,
    listen: str,
    way: str,
) -> None:
    import psycopg

    monkeypatch.setenv("RAGSPINE_PG_LISTEN", listen)
    url, key = deployed
    with TestClient(_app(url)) as client, psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE EXTENSION IF NOT EXISTS {STATS}")
        for _ in range(2):  # the first answers fill what is held in memory
            assert client.post("/v1/ask", json={"question": question}, headers={"X-API-Key": key})
        admin.execute(f"SELECT {STATS}_reset()")
        before = _listener_reads(client)
        got = client.post("/v1/ask", json={"question": question}, headers={"X-API-Key": key})
        assert got.status_code == 200 and got.json()["route"] == route, got.text
        assert got.json()["trace"]["codes"]["generations"] == way
        own = _listener_reads(client) - before  # a periodic check landing here is not ours
        assert _statements(admin) - own == (listened if way == "listened" else queried)


def test_a_write_through_another_connection_reaches_the_listener_not_a_query(
    deployed: tuple[str, str],
) -> None:
    """A key disabled elsewhere is refused within a bound, and the requests meanwhile cost
    nothing but the one reload of the keys that the change itself calls for."""
    import psycopg

    url, key = deployed
    body, headers = {"question": "退货政策是什么?"}, {"X-API-Key": key}
    with TestClient(_app(url)) as client, psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE EXTENSION IF NOT EXISTS {STATS}")
        assert client.post("/v1/ask", json=body, headers=headers).status_code == 200
        with PgKeys(url) as keys:  # another connection, as another host's `keys disable`
            keys.set_disabled("reader", True)
        admin.execute(f"SELECT {STATS}_reset()")
        before = _listener_reads(client)
        deadline, status = time.monotonic() + BOUND, 200
        while status == 200 and time.monotonic() < deadline:
            status = client.post("/v1/ask", json=body, headers=headers).status_code
        assert status == 401, f"still accepted {BOUND:g} s after it was disabled"
        own = _listener_reads(client) - before
        assert _statements(admin) - own == 1  # the keys read again, once; no generation read


def test_a_key_disabled_through_one_replica_is_refused_by_the_next_requests_to_another(
    deployed: tuple[str, str],
) -> None:
    url, key = deployed
    body, headers = {"question": "退货政策是什么?"}, {"X-API-Key": key}

    def answered_within_bound(replica: TestClient, status: int) -> None:
        deadline, got = time.monotonic() + BOUND, -1
        while got != status and time.monotonic() < deadline:
            got = replica.post("/v1/ask", json=body, headers=headers).status_code
        assert got == status

    with TestClient(_app(url)) as one, TestClient(_app(url)) as two:
        for replica in (one, two):  # both hold the key in memory now
            assert replica.post("/v1/ask", json=body, headers=headers).status_code == 200
        with PgKeys(url) as keys:  # what `ragspine keys disable --db URL` does, on either host
            keys.set_disabled("reader", True)
        for replica in (two, one):
            answered_within_bound(replica, 401)
        with PgKeys(url) as keys:
            keys.set_disabled("reader", False)
        answered_within_bound(two, 200)
