"""A real `ragspine serve` process on 127.0.0.1 for the HTTP tests, on the demo stores, with keys
of each clearance and a FAQ cache holding one item per exclusion."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
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
from ragspine.service.keys import new_key

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

    def ask(
        self, body: object, *, clearance: str | None = "INTERNAL", **kw: object
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.keys[clearance]}"} if clearance else {}
        return httpx.post(f"{self.url}/v1/ask", json=body, headers=headers, timeout=30, **kw)  # type: ignore[arg-type]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def faq_items(path: Path) -> dict[str, int]:
    """The FAQ cache the tests serve: one item to hit, one per way an item is refused."""
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
        conn = sqlite3.connect(path)
        for name, question in (
            ("structured", "香港FY2024的收入是多少"),
            ("competitor", "竞安的退货政策是什么?"),
            ("realtime", "今天的退货政策是什么?"),
        ):
            cur = conn.execute(
                "INSERT INTO faq_item (answer, sources) VALUES (?, ?)",
                (f"{name}: 9999 百万美元", json.dumps([{"doc": POLICY, "locator": "x"}])),
            )
            conn.execute(
                "INSERT INTO faq_variant (item_id, question, normalised, slots) VALUES (?,?,?,?)",
                (cur.lastrowid, question, normalise(question), slots_of(question, profile, TODAY)),
            )
            ids[name] = int(cur.lastrowid or 0)
        conn.commit()
        conn.close()
    return ids


def start(
    tmp: Path, db: Path, corpus: Path, *, provider: str = "mock", extra: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[str], Service]:
    keys_file = tmp / "keys.yaml"
    keys = {
        level: new_key(keys_file, level.lower(), level)
        for level in ("PUBLIC", "INTERNAL", "RESTRICTED")
    }
    faq = tmp / "faq.db"
    faq_items(faq)
    port = free_port()
    log = tmp / "service.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [RAGSPINE, "serve", "--port", str(port), "--db", str(db), "--corpus", str(corpus),
         "--keys", str(keys_file), "--faq", str(faq), "--provider", provider, *extra],
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
    return proc, Service(url, keys, log, proc.pid)


@contextmanager
def running(
    tmp: Path, db: Path, corpus: Path, *, provider: str = "mock", extra: tuple[str, ...] = ()
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
