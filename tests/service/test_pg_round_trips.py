"""The statements one request costs on PostgreSQL, counted by the server (pg_stat_statements), so
they cannot creep back: on a machine whose cores the workers share with the database, every
round trip is paid twice. What does not change between writes (keys, FAQ items, fact lookups,
the corpus's generation) is held in memory and revalidated by one query per request; and a key
disabled through one replica is refused by another at its very next request."""

from __future__ import annotations

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


def _statements(admin: Any) -> int:
    (n,) = admin.execute(
        f"SELECT COALESCE(SUM(calls), 0) FROM {STATS} WHERE dbid = (SELECT oid FROM pg_database"
        f" WHERE datname = current_database()) AND query NOT LIKE '%{STATS}%'"
    ).fetchone()
    return int(n)


ROUTES = [
    ("退货政策是什么?", "faq", 1),  # a FAQ hit: the request's one revalidating read, nothing more
    ("中国内地FY2024的REVENUE是多少", "structured", 1),  # that read: the facts are held too
    ("为什么中国内地营收下降?", "composite", 2),  # that read and the passages' text
]


@pytest.mark.parametrize(("question", "route", "most"), ROUTES)
def test_statements_per_request_on_each_route(
    deployed: tuple[str, str], question: str, route: str, most: int
) -> None:
    import psycopg

    url, key = deployed
    with TestClient(_app(url)) as client, psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE EXTENSION IF NOT EXISTS {STATS}")
        for _ in range(2):  # the first answers fill what is held in memory
            assert client.post("/v1/ask", json={"question": question}, headers={"X-API-Key": key})
        admin.execute(f"SELECT {STATS}_reset()")
        got = client.post("/v1/ask", json={"question": question}, headers={"X-API-Key": key})
        assert got.status_code == 200 and got.json()["route"] == route, got.text
        assert _statements(admin) == most


def test_a_key_disabled_through_one_replica_is_refused_by_the_next_request_to_another(
    deployed: tuple[str, str],
) -> None:
    url, key = deployed
    body, headers = {"question": "退货政策是什么?"}, {"X-API-Key": key}
    with TestClient(_app(url)) as one, TestClient(_app(url)) as two:
        for replica in (one, two):  # both hold the key in memory now
            assert replica.post("/v1/ask", json=body, headers=headers).status_code == 200
        with PgKeys(url) as keys:  # what `ragspine keys disable --db URL` does, on either host
            keys.set_disabled("reader", True)
        for replica in (two, one):
            assert replica.post("/v1/ask", json=body, headers=headers).status_code == 401
        with PgKeys(url) as keys:
            keys.set_disabled("reader", False)
        assert two.post("/v1/ask", json=body, headers=headers).status_code == 200
