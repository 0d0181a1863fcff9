"""Two `ragspine serve` replicas on one PostgreSQL database, each with its own index folder:
they answer alike, a passage ingested by a third process is found through both, a key disabled
once is refused by both, and a RESTRICTED passage stays hidden from an INTERNAL key on both (one
added as RESTRICTED, and one the replicas had answered with and that was raised to RESTRICTED).
Each replica follows the store's generations by its listener (LISTEN/NOTIFY), no read per
request."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ragspine.service.settings import ServiceSettings
from ragspine.store_location import PgLocation
from tests.cli import invoke
from tests.service.conftest import RAGSPINE, ROOT, free_port

PATIENCE = 90.0  # seconds a replica may take to see a change: generous, never a timed claim


def test_a_database_url_reaches_the_workers_whole() -> None:
    """Settings travel to `serve`'s workers through the environment: a URL must come back a
    database (with its password), not a path with its ``//`` folded."""
    url = "postgresql://app:s3cret@db.internal:5432/rag"
    env = ServiceSettings(db=PgLocation(url), corpus=PgLocation(url), faq=None).to_env()
    back = ServiceSettings.from_env(env)
    assert back.db == PgLocation(url) and back.corpus == PgLocation(url) and back.faq is None


def _serve(url: str, port: int, index: Path, log: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [RAGSPINE, "serve", "--port", str(port), "--db", url],
        cwd=ROOT, stdout=log.open("a"), stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "RAGSPINE_INDEX_DIR": str(index)},
    )  # fmt: skip


def _until(check: Callable[[], Any], what: str) -> Any:
    """Poll ``check`` until it returns something true, for PATIENCE seconds at most."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"not within {PATIENCE:g} s: {what}")


@pytest.fixture
def replicas(
    pg_url: str, demo_db_file: Path, demo_corpus_file: Path, tmp_path: Path
) -> Iterator[tuple[list[str], dict[str, str]]]:
    """The demo's stores (the SQLite files) migrated into a fresh database, a key of each
    clearance, two replicas."""
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(demo_db_file, home / "facts.db")
    shutil.copy(demo_corpus_file, home / "chunks.db")
    moved = invoke("store", "migrate", "--from", str(home), "--to", pg_url)
    assert moved.returncode == 0, moved.stderr
    keys = {}
    for name, level in (("reader", "INTERNAL"), ("boss", "RESTRICTED")):
        made = invoke("keys", "new", name, "--clearance", level, "--db", pg_url)
        assert made.returncode == 0, made.stderr
        keys[name] = made.stdout.strip()
    procs, urls = [], []
    try:
        for i in (1, 2):
            port = free_port()
            procs.append(_serve(pg_url, port, tmp_path / f"index{i}", tmp_path / f"serve{i}.log"))
            urls.append(f"http://127.0.0.1:{port}")
        for url, proc in zip(urls, procs, strict=True):
            _until(lambda u=url, p=proc: _healthy(u, p), f"{url} started")
        yield urls, keys
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)


def _healthy(url: str, proc: subprocess.Popen[str]) -> bool:
    assert proc.poll() is None, "ragspine serve exited"
    try:
        return httpx.get(f"{url}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def _ask(url: str, key: str, question: str) -> httpx.Response:
    return httpx.post(
        f"{url}/v1/ask", json={"question": question, "reference_date": "2025-06-30"},
        headers={"X-API-Key": key}, timeout=60,
    )  # fmt: skip


def _answer(url: str, key: str, question: str) -> dict[str, Any]:
    got = _ask(url, key, question)
    assert got.status_code == 200, got.text
    body: dict[str, Any] = got.json()
    return {k: body[k] for k in ("answer", "route", "sources", "clarification")}


def _cites(url: str, key: str, question: str, doc: str) -> bool:
    return any(s["doc"] == doc for s in _answer(url, key, question)["sources"])


def _ingest(url: str, folder: Path, name: str, text: str, level: str) -> None:
    """A third process (not either replica) adds a document to the shared stores."""
    path = folder / name
    path.write_text(text, "utf-8")
    added = invoke(
        "ingest", str(path), "--db", url, "--sensitivity", level,
        env={"RAGSPINE_INDEX_DIR": str(folder / "ingest-index")},
    )  # fmt: skip
    assert added.returncode == 0, added.stderr


QUESTIONS = [
    "2024年ACME集团营收是多少？",  # a figure from the fact table
    "2023年中国内地线上营收同比增长多少？",  # a derived figure
    "ACME的退货政策是什么？",  # a passage from the corpus
    "华东区2024年营收是多少？",  # an entity the table lacks: declined alike
]


@pytest.mark.slow
def test_two_replicas_on_one_database_agree_and_follow_each_change(
    replicas: tuple[list[str], dict[str, str]],
    pg_url: str,
    tmp_path: Path,
    printed: Callable[[str], None],
) -> None:
    (one, two), keys = replicas
    reader, boss = keys["reader"], keys["boss"]
    for question in QUESTIONS:
        assert _answer(one, reader, question) == _answer(two, reader, question), question

    question = "What is the Quillfeather programme?"
    assert not _cites(two, reader, question, "quill_note.md")
    started = time.monotonic()
    note = "# Quillfeather programme\n\nThe Quillfeather programme trains store managers.\n"
    _ingest(pg_url, tmp_path, "quill_note.md", note, "INTERNAL")
    ingested = time.monotonic()
    for url in (two, one):
        _until(lambda u=url: _cites(u, reader, question, "quill_note.md"), f"{url} finds it")
    printed(
        f"a passage ingested by a third process is found through both replicas "
        f"{time.monotonic() - ingested:.2f} s after the ingest ended "
        f"({ingested - started:.1f} s of ingest)"
    )
    assert _answer(one, reader, question) == _answer(two, reader, question)
    for url in (one, two):  # found through the listener's generations, not a read per request
        assert _ask(url, reader, question).json()["trace"]["codes"]["generations"] == "listened"

    # the same file raised to RESTRICTED: the passage both replicas held for the reader's
    # answers (held under the corpus's generation) is gone from those answers on both
    _ingest(pg_url, tmp_path, "quill_note.md", note, "RESTRICTED")
    for url in (one, two):
        _until(lambda u=url: not _cites(u, reader, question, "quill_note.md"), f"{url} hides it")
        assert "store managers" not in _answer(url, reader, question)["answer"]
        assert _cites(url, boss, question, "quill_note.md")

    secret = "What is the Nightjar acquisition?"
    minutes = "# Nightjar acquisition\n\nThe Nightjar acquisition is approved by the board.\n"
    _ingest(pg_url, tmp_path, "nightjar.md", minutes, "RESTRICTED")
    for url in (one, two):  # both replicas hold it: the RESTRICTED key finds it
        _until(lambda u=url: _cites(u, boss, secret, "nightjar.md"), f"{url} finds it")
        hidden = _answer(url, reader, secret)
        assert "nightjar.md" not in str(hidden["sources"]) and "approved" not in hidden["answer"]

    off = invoke("keys", "disable", "reader", "--db", pg_url)
    assert off.returncode == 0, off.stderr
    for url in (one, two):  # refused by both once the notification is in, no restart
        _until(lambda u=url: _ask(u, reader, QUESTIONS[0]).status_code == 401, f"{url} refuses")
        assert _ask(url, boss, QUESTIONS[0]).status_code == 200
