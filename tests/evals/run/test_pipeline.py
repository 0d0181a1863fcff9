"""finish_run: a run folder's summary, report and JUnit file, from what is on disk alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine.evals.run.finish import finish_run
from ragspine.evals.run.records import RecordError
from ragspine.evals.run.runner import RunOptions, run_eval

GOLDEN = Path(__file__).parents[3] / "golden"


def test_finish_run_writes_the_three_files_from_disk(
    tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    out = tmp_path / "run"
    planned: list[int] = []
    opts = RunOptions(
        golden=GOLDEN, out=out, db=demo_db, corpus=demo_corpus, filter="suite:regressions"
    )
    run_eval(opts, on_start=planned.append)
    summary = finish_run(out)
    assert planned == [summary.cases] and summary.cases > 0
    on_disk = json.loads((out / "summary.json").read_text("utf-8"))
    assert on_disk["cases"] == summary.cases
    assert (out / "report.md").read_text("utf-8").startswith("# Eval run ")
    assert (out / "junit.xml").read_text("utf-8").count("<testcase ") == summary.cases
    first = (out / "summary.json").read_bytes()
    finish_run(out)  # again: the same files, byte for byte
    assert (out / "summary.json").read_bytes() == first


def test_resume_hears_only_what_is_left(tmp_path: Path, demo_db: Path, demo_corpus: Path) -> None:
    out = tmp_path / "run"
    opts = RunOptions(
        golden=GOLDEN, out=out, db=demo_db, corpus=demo_corpus, filter="suite:regressions"
    )
    run_eval(opts)
    lines = (out / "results.jsonl").read_text("utf-8").splitlines(keepends=True)
    (out / "results.jsonl").write_text("".join(lines[:-2]), "utf-8")  # two results lost
    planned: list[int] = []
    run_eval(opts, resume=True, on_start=planned.append)
    assert planned == [2]
    assert finish_run(out).cases == len(lines)


def test_finish_run_needs_a_run_folder(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"is .* a run folder"):
        finish_run(tmp_path)
