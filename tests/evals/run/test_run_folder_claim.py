"""A run folder has one writer: a second `eval run --out SAME`, while the first runs or after it,
is one `error:` line (two runs once appended 1,400 lines for 700 trials and the gate passed); a
result line stated twice is an error naming the line, never counted twice."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ragspine.evals.run.folder import load_run
from ragspine.evals.run.records import RecordError
from tests.cli import invoke

ROOT = Path(__file__).parents[3]
RAGSPINE = str(Path(sys.executable).parent / "ragspine")
ONE_CASE = ["--golden", str(ROOT / "golden"), "--filter", "id:st-cn-revenue-fy2024"]


@pytest.fixture
def stores(demo_db: Path, demo_corpus: Path) -> list[str]:
    return ["--db", str(demo_db), "--corpus", str(demo_corpus)]


@pytest.mark.parametrize(
    "second",
    [
        [],  # a second new run on the folder
        ["--resume"],  # finishing it while it is still being written
    ],
)
def test_a_second_run_on_a_folder_being_written_is_one_error_line(
    tmp_path: Path, stores: list[str], second: list[str]
) -> None:
    out, started = tmp_path / "run", tmp_path / "started.log"
    first = subprocess.Popen(
        [RAGSPINE, "eval", "run", "--out", str(out), *ONE_CASE, *stores,
         "--provider", "python:tests.fakes.providers:StuckMockProvider"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT),
                       "RAGSPINE_TEST_STARTED_LOG": str(started)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not started.exists():  # the first run is answering its case
            assert time.monotonic() < deadline and first.poll() is None, "the run never started"
            time.sleep(0.02)
        args = [str(out)] if second else ["--out", str(out), *ONE_CASE, *stores]
        ran = invoke("eval", "run", *second, *args, cwd=ROOT)
    finally:
        first.kill()
        first.communicate()
    assert ran.returncode == 1
    assert ran.stderr.startswith("error: ") and len(ran.stderr.splitlines()) == 1, ran.stderr
    assert "another run is writing it" in ran.stderr
    assert not (out / "results.jsonl").exists() or not (out / "results.jsonl").read_text()


def test_a_second_run_on_a_finished_folder_is_one_error_line(
    tmp_path: Path, stores: list[str]
) -> None:
    out = tmp_path / "runs" / "run"
    assert invoke("eval", "run", "--out", str(out), *ONE_CASE, *stores).returncode == 0
    for folder in (out, out.parent):  # it holds answers: made readable by its owner only
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    again = invoke("eval", "run", "--out", str(out), *ONE_CASE, *stores)
    assert again.returncode == 1 and len(again.stderr.splitlines()) == 1
    assert again.stderr.startswith("error: ") and "already holds a run" in again.stderr


def test_a_result_line_stated_twice_is_an_error_naming_the_line(
    tmp_path: Path, stores: list[str]
) -> None:
    out = tmp_path / "run"
    assert invoke("eval", "run", "--out", str(out), *ONE_CASE, *stores).returncode == 0
    results = out / "results.jsonl"
    line = results.read_text("utf-8")
    results.write_text(line + line, "utf-8")  # what two writers on one folder leave
    with pytest.raises(RecordError, match=r"results\.jsonl:2: .*st-cn-revenue-fy2024.*line 1"):
        load_run(out)
    bless = invoke("eval", "bless", str(out), "--baseline", str(tmp_path / "base"), "--force")
    assert bless.returncode == 1 and bless.stderr.startswith("error: ") and ":2: " in bless.stderr
    assert not (tmp_path / "base").exists()
