"""`ragspine worker --inbox DIR`: every file in its own transaction, moved to done/ or failed/,
and a killed worker resumes without duplicates."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ragspine.storage.fact_store import FactStore
from tests.cli import invoke
from tests.ingestion.test_ingest_command import _book
from tests.pg_stores import Place

RAGSPINE = str(Path(sys.executable).parent / "ragspine")
ROOT = Path(__file__).parents[2]


def _worker(place: Place, inbox: Path):  # type: ignore[no-untyped-def]
    return invoke(
        "worker", "--inbox", str(inbox), "--once", "--settle", "0",
        "--db", str(place("facts.db")), "--corpus", str(place("chunks.db")),
    )  # fmt: skip


def _count(place: Place) -> int:
    with FactStore(place("facts.db")) as store:
        return store.count()


def test_the_worker_moves_each_file_to_done_or_failed(tmp_path: Path, place: Place) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    _book(inbox / "ACME_HK_2024.xlsx", 455)
    (inbox / "notes.md").write_text("# 说明\n\n香港门店的营业时间调整。\n", "utf-8")
    (inbox / "broken.pptx").write_bytes(b"not a deck")
    (inbox / "ignored.doc").write_text("x")
    out = _worker(place, inbox)
    assert out.returncode == 0, out.stderr
    assert "2 ingested, 1 failed" in out.stdout
    assert sorted(p.name for p in (inbox / "done").iterdir()) == ["ACME_HK_2024.xlsx", "notes.md"]
    assert sorted(p.name for p in (inbox / "failed").iterdir()) == [
        "broken.pptx",
        "broken.pptx.error.txt",
    ]
    why = (inbox / "failed" / "broken.pptx.error.txt").read_text("utf-8")
    assert "not a readable PPTX deck" in why and len(why.splitlines()) == 1
    assert "failed  broken.pptx: " in out.stderr
    assert (inbox / "ignored.doc").exists()  # not ours to move
    assert _count(place) == 4
    again = _worker(place, inbox)
    assert "0 ingested, 0 failed" in again.stdout and _count(place) == 4


def test_a_file_ingested_but_not_moved_when_killed_is_not_ingested_twice(
    tmp_path: Path, place: Place
) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    book = _book(inbox / "ACME_HK_2024.xlsx", 455)
    # the state a kill between commit and move leaves: in the stores, still in the inbox
    ingest = invoke(
        "ingest", str(book), "--db", str(place("facts.db")),
        "--corpus", str(place("chunks.db")),
    )  # fmt: skip
    assert ingest.returncode == 0
    out = _worker(place, inbox)
    assert "unchanged  ACME_HK_2024.xlsx" in out.stdout and (inbox / "done" / book.name).exists()
    assert _count(place) == 4


def test_an_index_left_behind_is_caught_up_by_the_next_round(tmp_path: Path, place: Place) -> None:
    from ragspine.ingestion.pipeline import ingest_file
    from ragspine.profile import load_profile
    from ragspine.retrieval.chunking.chunk_store import ChunkStore
    from ragspine.retrieval.index import CorpusIndex, index_dir_for

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    assert _worker(place, inbox).returncode == 0  # an empty corpus, indexed
    notes = tmp_path / "notes.md"
    notes.write_text("# 说明\n\n香港门店的营业时间调整。\n", "utf-8")
    corpus = place("chunks.db")
    # what a worker stopped between storing a file and indexing it leaves behind
    with ChunkStore(corpus) as chunks:
        ingest_file(notes, chunks=chunks, facts=None, profile=load_profile(None))
        generation, store_id = chunks.generation, chunks.store_id
    assert not CorpusIndex.load(index_dir_for(corpus)).is_current(generation, store_id)
    out = _worker(place, inbox)  # nothing new in the inbox
    assert out.returncode == 0, out.stderr
    assert CorpusIndex.load(index_dir_for(corpus)).is_current(generation, store_id)


def test_a_running_worker_picks_up_a_file_and_stops_on_interrupt(
    tmp_path: Path, place: Place
) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    proc = subprocess.Popen(
        [RAGSPINE, "worker", "--inbox", str(inbox), "--interval", "0.2", "--settle", "0.2",
         "--db", str(place("facts.db")), "--corpus", str(place("chunks.db"))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        time.sleep(1.0)
        _book(inbox / "ACME_HK_2024.xlsx", 455)
        deadline = time.monotonic() + 30
        while not (inbox / "done" / "ACME_HK_2024.xlsx").exists():
            assert time.monotonic() < deadline, "the worker never picked the file up"
            time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 0, stderr
    assert (
        "added  ACME_HK_2024.xlsx (0 chunks, 4 facts, 0 values not mapped, 0 conflicts)" in stdout
    )
    assert "watching" in stderr and "stopped" in stderr and "Traceback" not in stderr
    assert _count(place) == 4
    assert os.listdir(inbox) == ["done"]


@pytest.fixture(scope="module")
def report_pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 20 pages of the real 金宇 annual report: a file that takes seconds to read."""
    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(next((ROOT / "examples" / "jinyu" / "report").glob("*.pdf")))
    writer = PdfWriter()
    for page in reader.pages[:20]:
        writer.add_page(page)
    path = tmp_path_factory.mktemp("report") / "jinyu-20-pages.pdf"
    with path.open("wb") as fh:
        writer.write(fh)
    return path


@pytest.mark.slow
@pytest.mark.parametrize(
    "signum",
    [
        signal.SIGINT,  # Ctrl-C at a terminal
        signal.SIGTERM,  # a service manager (systemd, docker stop) stopping it
    ],
)
def test_a_stop_asked_for_mid_file_finishes_that_file_first(
    tmp_path: Path, report_pages: Path, signum: signal.Signals, place: Place
) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    proc = subprocess.Popen(
        [RAGSPINE, "worker", "--inbox", str(inbox), "--interval", "0.2", "--settle", "0.2",
         "--profile", str(ROOT / "examples" / "jinyu" / "profile.yaml"),
         "--db", str(place("facts.db")), "--corpus", str(place("chunks.db"))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    errors: list[str] = []
    reading = threading.Event()

    def read_stderr() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            errors.append(line)
            if f"reading {report_pages.name}: page 1/" in line:
                reading.set()

    reader = threading.Thread(target=read_stderr)
    reader.start()
    try:
        shutil.copy(report_pages, inbox / report_pages.name)
        assert reading.wait(60), "".join(errors)
        proc.send_signal(signum)  # while the pages are being read
        proc.wait(timeout=120)
    finally:
        proc.kill()
        reader.join()
    assert proc.stdout is not None
    stdout = proc.stdout.read()
    log = "".join(errors)
    assert proc.returncode == 0, log
    assert "stopping after the file under way" in log and "stopped" in log
    assert "Traceback" not in log
    assert f"added  {report_pages.name}" in stdout  # finished, not dropped
    assert os.listdir(inbox) == ["done"] and (inbox / "done" / report_pages.name).exists()
