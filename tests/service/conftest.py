"""A real `ragspine serve` process on 127.0.0.1 for the HTTP tests, on the demo stores, with keys
of each clearance and a FAQ cache holding one item per exclusion."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import httpx
import pytest

from ragspine.faq.faq_cache import FaqCache, FaqItem, normalise, slots_of
from ragspine.profile import default_profile
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.service.keys import new_key
from ragspine.service.keys_pg import PgKeys
from ragspine.storage.fact_store import FactStore
from ragspine.store_location import is_postgres
from tests.pg import database_beside
from tests.pg_stores import copy_store

ROOT = Path(__file__).parents[2]
RAGSPINE = str(Path(sys.executable).parent / "ragspine")
POLICY = "ACME_Policies.md"
TODAY = date(2025, 6, 30)


@dataclass(frozen=True)
class Service:
    url: str
    keys: dict[str, str]  # clearance → key
    log: Path
    pid: int = 0  # the `ragspine serve` process (with --workers N, the master)
    keys_at: tuple[str, ...] = ()  # the flags naming its keys to `ragspine keys`

    def ask(
        self, body: object, *, clearance: str | None = "INTERNAL", **kw: object
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.keys[clearance]}"} if clearance else {}
        return httpx.post(f"{self.url}/v1/ask", json=body, headers=headers, timeout=30, **kw)  # type: ignore[arg-type]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def faq_items(path: Path | str) -> dict[str, int]:
    """The FAQ cache the tests serve: one item to hit, one per way an item is refused. ``path``:
    a file, or a database's URL."""
    profile = default_profile()
    ids: dict[str, int] = {}
    with FaqCache(path) as cache:
        cache.init_schema()

        def add(name: str, question: str, **extra: object) -> None:
            item = FaqItem(
                questions=[question],
                answer=f"{name}: 购买后七天内可凭小票退货。",
                sources=[{"doc": POLICY, "locator": f"section=1,para={len(ids) + 1}"}],  # type: ignore[list-item]
                **extra,  # type: ignore[arg-type]
            )
            ids[name] = cache.add(item, profile, today=TODAY)

        add("hit", "退货政策是什么?")
        add("disabled", "换货政策是什么?", enabled=False)
        add("expired", "旧的会员政策是什么?", valid_until=date(2024, 12, 31))
        add("future", "新的会员政策是什么?", valid_from=date(2099, 1, 1))
        add("restricted", "青松项目的保密安排是什么?", sensitivity="RESTRICTED")
        add("internal", "员工手册在哪里下载?", sensitivity="INTERNAL")
        # Items stored under an older reading of the questions: the lookup must still refuse
        # them, by the same parser and gateway the agent uses.
        conn = cache.connection  # under the cache's own checks, as an older version wrote
        with conn:
            for name, question in (
                ("structured", "香港FY2024的收入是多少"),
                ("competitor", "竞安的退货政策是什么?"),
                ("realtime", "今天的退货政策是什么?"),
            ):
                (item,) = conn.execute(
                    "INSERT INTO faq_item (answer, sources) VALUES (?, ?) RETURNING id",
                    (f"{name}: 9999 百万美元", json.dumps([{"doc": POLICY, "locator": "x"}])),
                ).fetchone()
                slots = slots_of(question, profile, TODAY)
                conn.execute(
                    "INSERT INTO faq_variant (item_id, question, normalised, slots) "
                    "VALUES (?,?,?,?)",
                    (item, question, normalise(question), slots),
                )
                ids[name] = int(item)
    return ids


@dataclass(frozen=True)
class Deployment:
    """Where a test's service keeps its stores, FAQ and API keys."""

    db: str
    corpus: str
    faq: str
    keys: tuple[str, ...]  # the flags naming its keys to `ragspine keys` and `serve`

    def new_key(self, name: str, clearance: str) -> str:
        if self.keys[0] == "--file":
            return new_key(Path(self.keys[1]), name, clearance)
        with PgKeys(self.keys[1]) as keys:
            keys.init_schema()
            return keys.new_key(name, clearance)


def deployment(tmp: Path, db: Path | str, corpus: Path | str) -> Deployment:
    """On SQLite the given stores, with faq.db and keys.yaml in ``tmp``. On PostgreSQL one
    database holds them all, as a deployment's does (a service reads its keys from its
    database): the given one when ``db`` and ``corpus`` are already one, else a new database
    beside them with a copy of both (the session's demo stores are shared, never written)."""
    if not is_postgres(str(db)):
        return Deployment(
            str(db), str(corpus), str(tmp / "faq.db"), ("--file", str(tmp / "keys.yaml"))
        )
    where = str(db)
    if str(corpus) != where:
        where = database_beside(where)
        copy_store(FactStore, db, where)
        copy_store(ChunkStore, corpus, where)
    return Deployment(where, where, where, ("--db", where))


def start(
    tmp: Path,
    db: Path | str,
    corpus: Path | str,
    *,
    provider: str = "mock",
    extra: tuple[str, ...] = (),
) -> tuple[subprocess.Popen[str], Service]:
    """``ragspine serve`` on ``db`` and ``corpus`` (as ``deployment`` lays them out), with a
    key of each clearance and the FAQ items of ``faq_items``."""
    dep = deployment(tmp, db, corpus)
    keys = {
        level: dep.new_key(level.lower(), level) for level in ("PUBLIC", "INTERNAL", "RESTRICTED")
    }
    faq_items(dep.faq)
    port = free_port()
    log = tmp / "service.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [RAGSPINE, "serve", "--port", str(port), "--db", dep.db, "--corpus", dep.corpus,
         "--keys", str(tmp / "keys.yaml"), "--faq", dep.faq, "--provider", provider, *extra],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
        if proc.poll() is not None:
            raise RuntimeError(f"ragspine serve exited: {log.read_text()}")
    else:
        proc.kill()
        raise RuntimeError(f"ragspine serve did not start: {log.read_text()}")
    return proc, Service(url, keys, log, proc.pid, dep.keys)


@contextmanager
def running(
    tmp: Path,
    db: Path | str,
    corpus: Path | str,
    *,
    provider: str = "mock",
    extra: tuple[str, ...] = (),
) -> Iterator[Service]:
    """``ragspine serve`` for the length of the block."""
    proc, svc = start(tmp, db, corpus, provider=provider, extra=extra)
    try:
        yield svc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="session")
def service(
    tmp_path_factory: pytest.TempPathFactory, demo_db: Path, demo_corpus: Path
) -> Iterator[Service]:
    """As `make serve` runs it: with the OpenAPI document and its page."""
    with running(
        tmp_path_factory.mktemp("service"), demo_db, demo_corpus, extra=("--docs",)
    ) as svc:
        yield svc


@pytest.fixture(scope="session")
def faq_ids(service: Service) -> dict[str, int]:
    """The ids the session's cache gave its items (the same order every time)."""
    names = [
        "hit",
        "disabled",
        "expired",
        "future",
        "restricted",
        "internal",
        "structured",
        "competitor",
        "realtime",
    ]
    return {n: i + 1 for i, n in enumerate(names)}


@pytest.fixture(scope="session")
def outage(
    tmp_path_factory: pytest.TempPathFactory, demo_db: Path, demo_corpus: Path
) -> Iterator[Service]:
    """The same service with a model that is down."""
    with running(
        tmp_path_factory.mktemp("outage"), demo_db, demo_corpus,
        provider="python:tests.fakes.providers:FailingProvider",
    ) as svc:  # fmt: skip
        yield svc
