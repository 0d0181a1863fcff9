"""One worker per inbox: a second `ragspine worker` on it is one `error:` line, never a
FileNotFoundError from a move; two racing never lose or double-store a file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ragspine.storage.fact_store import FactStore
from tests.ingestion.test_ingest_command import _book
from tests.pg_stores import Place

RAGSPINE = str(Path(sys.executable).parent / "ragspine")


def _command(place: Place, inbox: Path, *flags: str) -> list[str]:
    return [RAGSPINE, "worker", "--inbox", str(inbox), "--settle", "0",
            "--db", str(place("facts.db")), "--corpus", str(place("chunks.db")),
            *flags]  # fmt: skip


def test_a_second_worker_on_an_inbox_is_one_error_line(tmp_path: Path, place: Place) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    first = subprocess.Popen(
        _command(place, inbox, "--interval", "0.2"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert first.stderr is not None
        assert "watching" in first.stderr.readline()  # it holds the inbox
        second = subprocess.run(
            _command(place, inbox, "--once"), capture_output=True, text=True, timeout=60
        )
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=30)
    assert second.returncode == 1
    assert second.stderr.startswith("error: ") and len(second.stderr.splitlines()) == 1
    assert "another worker is running on this inbox" in second.stderr


def test_two_workers_racing_on_one_inbox_store_every_file_once(
    tmp_path: Path, place: Place
) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for n in range(6):
        (inbox / f"note{n}.md").write_text(f"# 说明{n}\n\n门店{n}的营业时间调整。\n", "utf-8")
    _book(inbox / "ACME_HK_2024.xlsx", 455)
    racers = [
        subprocess.Popen(
            _command(place, inbox, "--once"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120) for p in racers]
    for (_, stderr), proc in zip(outs, racers, strict=True):
        assert "Traceback" not in stderr, stderr
        assert proc.returncode == 0 or "another worker is running" in stderr, stderr
    assert sorted(os.listdir(inbox / "done")) == ["ACME_HK_2024.xlsx"] + [
        f"note{n}.md" for n in range(6)
    ]
    assert sorted(os.listdir(inbox)) == ["done"]
    with FactStore(place("facts.db")) as facts:
        assert facts.count() == 4  # the workbook's facts once
    done = sum(int(out.split(" ingested")[0].split()[-1]) for out, _ in outs if "ingested" in out)
    assert done == 7  # each file ingested by exactly one of them


def test_a_worker_killed_holding_the_inbox_leaves_it_free(tmp_path: Path, place: Place) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    first = subprocess.Popen(
        _command(place, inbox, "--interval", "0.2"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert first.stderr is not None and "watching" in first.stderr.readline()
    first.kill()
    first.communicate(timeout=30)
    time.sleep(0.1)
    again = subprocess.run(
        _command(place, inbox, "--once"), capture_output=True, text=True, timeout=60
    )
    assert again.returncode == 0, again.stderr
