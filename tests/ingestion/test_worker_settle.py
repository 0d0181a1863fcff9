"""`ragspine worker --settle`: a file is read only once its size and time have stood still, so a
copy that pauses is not ingested half-written; a file it never reads is said once, not every look.

The worker runs as a real process; the test waits on what it says, never on the clock."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ragspine.ingestion.inbox import InboxScan
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from tests.cli import invoke
from tests.pg_stores import Place

RAGSPINE = str(Path(sys.executable).parent / "ragspine")
WAIT = 60.0  # seconds before a line that never comes fails the test (never a timing check)


@dataclass
class Running:
    """A worker process and the lines it has said, stdout and stderr as they come."""

    proc: subprocess.Popen[str]
    lines: queue.Queue[str]
    readers: list[threading.Thread]
    said: list[str]

    def until(self, text: str) -> str:
        """The first line holding ``text``, waiting for it."""
        for line in self.said:
            if text in line:
                return line
        while True:
            try:
                line = self.lines.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"the worker never said {text!r}: {self.said}") from None
            self.said.append(line)
            if text in line:
                return line

    def stop(self) -> list[str]:
        """Ctrl-C, then every line it said."""
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=WAIT)
        for reader in self.readers:  # each ends with its stream
            reader.join(timeout=WAIT)
        while not self.lines.empty():
            self.said.append(self.lines.get())
        return self.said


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[tuple[Path, list[Running]]]:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    started: list[Running] = []
    yield inbox, started
    for run in started:
        run.proc.kill()


def _start(place: Place, inbox: Path, started: list[Running], *flags: str) -> Running:
    proc = subprocess.Popen(
        [RAGSPINE, "worker", "--inbox", str(inbox), "--interval", "0.1", *flags,
         "--db", str(place("facts.db")), "--corpus", str(place("chunks.db"))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    readers = [
        threading.Thread(target=lambda s=stream: [lines.put(x) for x in s], daemon=True)
        for stream in (proc.stdout, proc.stderr)
    ]
    for reader in readers:
        reader.start()
    run = Running(proc, lines, readers, [])
    started.append(run)
    run.until("watching")
    return run


def test_a_copy_that_pauses_is_ingested_whole(
    tmp_path: Path, worker: tuple[Path, list[Running]], place: Place
) -> None:
    inbox, started = worker
    run = _start(place, inbox, started, "--settle", "0.5")
    # the first part alone is no document (its front matter never ends): read half-written,
    # it would fail
    with (inbox / "notes.md").open("w", encoding="utf-8") as fh:
        fh.write("---\ntitle: 说明\n")
        fh.flush()
        waiting = run.until("waiting  notes.md")  # seen mid-copy, and left to settle
        fh.write("---\n# 说明\n\n仓库的盘点在周五进行,海豚计划随后启动。\n")
    assert "still changing: ingested once unchanged for 0.5 s" in waiting
    run.until("added  notes.md")
    said = run.stop()
    assert not (inbox / "failed").exists(), said
    assert [p.name for p in (inbox / "done").iterdir()] == ["notes.md"]
    with ChunkStore(place("chunks.db")) as chunks:
        assert any("海豚计划" in c.text for c in chunks.iter_chunks())  # the second part too
    assert sum("notes.md" in line for line in said) == 2  # waiting once, added once


def test_a_file_it_never_reads_is_said_once(
    tmp_path: Path, worker: tuple[Path, list[Running]], place: Place
) -> None:
    inbox, started = worker
    run = _start(place, inbox, started, "--settle", "0")
    (inbox / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (inbox / "scans").mkdir()
    run.until("skipped  photo.png")
    for name in ("a.md", "b.md"):  # each picked up at a later look, with the png still there
        (inbox / name).write_text(f"# {name}\n\n门店营业时间调整。\n", "utf-8")
        run.until(f"added  {name}")
    said = run.stop()
    png = [line for line in said if "photo.png" in line]
    assert png == [
        "  skipped  photo.png: .png is not a type ingest reads (it reads .md, .markdown, .txt, "
        ".pdf, .xlsx, .xlsm, .pptx, .docx); left in place\n"
    ]
    assert [line for line in said if "scans" in line] == [
        "  skipped  scans: a folder: the worker takes only the files at the inbox's top level\n"
    ]
    assert (inbox / "photo.png").exists()


def test_once_leaves_a_file_still_changing_for_the_next_run(tmp_path: Path, place: Place) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    notes = inbox / "notes.md"
    notes.write_text("# 说明\n\n门店营业时间调整。\n", "utf-8")
    stores = ["--db", str(place("facts.db")), "--corpus", str(place("chunks.db"))]
    proc = subprocess.Popen(
        [RAGSPINE, "worker", "--inbox", str(inbox), "--once", "--settle", "2", *stores],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()  # it has looked once, and waits before the second look
        with notes.open("a", encoding="utf-8") as fh:
            fh.write("盘点在周五进行。\n")  # the copy goes on meanwhile
        stdout, stderr = proc.communicate(timeout=WAIT)
    finally:
        proc.kill()
    assert first == (
        "looking again in 2 s (--settle): a file still changing then is left for the next run\n"
    )
    assert proc.returncode == 0, stderr
    assert stdout == f"0 ingested, 0 failed, 1 waiting; inbox {inbox}\n"
    assert "waiting  notes.md: still changing" in stderr
    assert notes.exists()
    # the variable sets it as the flag does: the next run takes the file that stood still
    out = invoke("worker", "--inbox", str(inbox), "--once", *stores,
                 env={"RAGSPINE_SETTLE": "0.2"})  # fmt: skip
    assert out.stderr.startswith("looking again in 0.2 s (--settle)")
    assert out.stdout.endswith(f"1 ingested, 0 failed; inbox {inbox}\n")


def test_a_change_seen_between_two_looks_restarts_the_wait(tmp_path: Path) -> None:
    """Stood still since: the first look that saw the file as it is (a clock passed through the
    seam)."""
    now = [1_000_000.0]
    scan = InboxScan(settle=5.0, clock=lambda: now[0])
    old = tmp_path / "old.md"
    old.write_text("x", "utf-8")
    os.utime(old, (now[0] - 60, now[0] - 60))  # written a minute ago, first seen now
    look = scan.look(tmp_path)  # a time alone cannot say a copy paused: it waits
    assert look.waiting == [old] and [n.kind for n in look.notices] == ["waiting"]
    now[0] += 5
    assert scan.look(tmp_path).ready == [old]
    old.write_text("xy", "utf-8")
    os.utime(old, (now[0] - 30, now[0] - 30))  # changed, with an old time (a copy keeping it)
    look = scan.look(tmp_path)
    assert look.ready == [] and look.waiting == [old]
    assert [n.kind for n in look.notices] == ["waiting"]
    now[0] += 4.9
    assert scan.look(tmp_path).notices == []  # said once
    now[0] += 0.1
    assert scan.look(tmp_path).ready == [old]
