"""`ragspine eval …` as a user runs it: in-process through click, and as real processes where
a process is the point (a run killed half-way, a progress bar on a terminal)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from ragspine.evals.run.records import read_results
from tests.cli import Ran, invoke
from tests.pg_stores import Place

ROOT = Path(__file__).parents[2]
RAGSPINE = str(Path(sys.executable).parent / "ragspine")


def run(*args: str) -> Ran:
    return invoke(*args, cwd=ROOT)


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory, places: Callable[[Path], Place]) -> list[str]:
    """The demo built by `ragspine fixtures`, on the suite's backend."""
    place = places(tmp_path_factory.mktemp("stores"))
    db, corpus = place("f.db"), place("c.db")
    assert run("fixtures", "--db", str(db), "--corpus", str(corpus)).returncode == 0
    return ["--db", str(db), "--corpus", str(corpus)]


def test_validate_the_committed_golden_set() -> None:
    out = run("eval", "validate")
    assert out.returncode == 0 and out.stdout.startswith("ok: ")
    assert int(out.stdout.split()[1]) >= 150


def test_validate_names_file_line_case_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "g" / "bad.yaml"
    bad.parent.mkdir()
    bad.write_text(
        "defaults: {reference_date: 2025-06-30}\ncases:\n  - id: x-1\n    question: q\n"
        "    expect: {route: sideways}\n",
        "utf-8",
    )
    out = run("eval", "validate", "--golden", str(bad.parent))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    (line,) = out.stderr.strip().splitlines()
    assert line.startswith(f"error: {bad}:5: case x-1: expect.route: Input should be")


def test_a_subset_gates_only_when_it_says_so(tmp_path: Path, stores: list[str]) -> None:
    out_dir = tmp_path / "run"
    ran = run("eval", "run", "--filter", "suite:regressions", "--out", str(out_dir), *stores)
    assert ran.returncode == 0, ran.stderr
    assert "pass_rate               1.000" in ran.stdout
    for name in ("run.json", "results.jsonl", "summary.json", "report.md", "report.html"):
        assert (out_dir / name).is_file(), name
    assert (out_dir / "junit.xml").is_file()
    gate = ["eval", "gate", "--current", str(out_dir), "--thresholds", "evals/thresholds.yaml"]
    refused = run(*gate)
    assert refused.returncode == 1
    assert "baseline case(s) missing from the current run" in refused.stderr
    assert "pass --allow-subset" in refused.stderr
    allowed = run(*gate, "--allow-subset")
    assert allowed.returncode == 0, allowed.stderr  # the cases not run are not regressions


def test_a_deliberate_regression_reads_in_one_screen_of_the_diff(
    tmp_path: Path, place: Place, stores: list[str]
) -> None:
    """Two causes at once: a fact gone from the store (香港 FY2023 revenue, so a status changes)
    and one stored value changed (香港 FY2024 revenue 455 → 456). (An alias dropped from the
    profile no longer makes a cause: the shipped metric phrases still name the metric.)"""
    from ragspine.storage.fact_store import FactStore
    from tests.pg_stores import copy_store

    db = place("f.db")
    copy_store(FactStore, stores[1], db)
    with FactStore(db, create=False) as store, store.connection as conn:
        conn.execute(
            "UPDATE fact_metric SET value = 456, value_text = '456' WHERE metric_code = 'REVENUE'"
            " AND entity = 'ACME_HK' AND period = '2024' AND channel = 'TOTAL'"
        )
        conn.execute(
            "DELETE FROM fact_metric WHERE metric_code = 'REVENUE' AND entity = 'ACME_HK'"
            " AND period = '2023' AND channel = 'TOTAL'"
        )
    broken = ROOT / "ragspine" / "profile" / "acme.yaml"
    out_dir = tmp_path / "run"
    ran = run(
        "eval", "run", "--profile", str(broken), "--out", str(out_dir),
        "--db", str(db), "--corpus", stores[3],
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    gate = run("eval", "gate", "--current", str(out_dir), "--thresholds", "evals/thresholds.yaml")
    assert gate.returncode == 1
    line = next(x for x in gate.stderr.splitlines() if "regressed: mu-hk-revenue-2023-2024:" in x)
    assert "statuses" in line and "answer_contains" in line
    assert run("eval", "diff", "evals/baseline", str(out_dir)).returncode == 0
    diff = (out_dir / "diff.md").read_text("utf-8")
    first_screen = "\n".join(diff.splitlines()[:60])
    causes = first_screen.split("### What broke, what was fixed", 1)[1].split("###", 1)[0]
    assert "`answer_contains`" in causes and "`statuses`" in causes  # the two causes, apart
    assert "### Regressed: `" in first_screen
    # the changed value, before and after, with the changed part marked
    assert "**455**" in diff and "**456**" in diff
    before = next(ln for ln in diff.splitlines() if "before:" in ln and "**455**" in ln)
    assert "香港" in before
    assert "should contain" in diff  # worded, not "actual [] → [...]"
    assert len(diff) < 65_536
    data = json.loads((out_dir / "diff.json").read_text("utf-8"))
    assert data["schema_version"] == 2 and data["regressed"][0]["answer_b"]
    junit = (out_dir / "junit.xml").read_text("utf-8")
    assert "the answer should contain" in junit and "answer: " in junit


@pytest.mark.slow
def test_a_killed_run_resumes_to_the_same_summary(tmp_path: Path, stores: list[str]) -> None:
    """The process killed is a serial run, so it dies half-way; the whole run and the resume
    ask 4 cases at a time (the slow mock sleeps on every call), which changes no result."""
    common = [
        "--provider",
        "python:tests.fakes.providers:SlowMockProvider",
        "--filter",
        "suite:structured",
        *stores,
    ]
    workers = ["--concurrency", "4"]
    whole = run("eval", "run", "--out", str(tmp_path / "whole"), *common, *workers)
    assert whole.returncode == 0, whole.stderr
    killed = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [RAGSPINE, "eval", "run", "--out", str(killed), *common],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    results = killed / "results.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (
        not results.exists() or len(results.read_text().splitlines()) < 20
    ):
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    done_before = len(read_results(killed))
    assert 20 <= done_before < len(read_results(tmp_path / "whole"))  # really half-way
    resumed = run("eval", "run", "--resume", str(killed), *common, *workers)
    assert resumed.returncode == 0, resumed.stderr

    def stable(folder: Path) -> dict[str, object]:
        summary = json.loads((folder / "summary.json").read_text("utf-8"))
        summary["metrics"].pop("latency_ms")
        summary.pop("run_id")
        return summary

    assert stable(killed) == stable(tmp_path / "whole")
    assert sorted(r.key for r in read_results(killed)) == sorted(
        r.key for r in read_results(tmp_path / "whole")
    )


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("script") is None, reason="needs util-linux `script` for a pty")
def test_a_terminal_gets_a_bar_with_counts_and_a_log_gets_lines(
    tmp_path: Path, stores: list[str]
) -> None:
    args = ["eval", "run", "--filter", "suite:regressions", *stores]
    piped = run(*args, "--out", str(tmp_path / "piped"))
    lines = [ln for ln in piped.stderr.splitlines() if ln.startswith("progress: ")]
    assert lines and lines[-1].startswith("progress: 25/25 · pass 25 · fail 0 · error 0 · ")
    command = " ".join(shlex.quote(a) for a in [RAGSPINE, *args, "--out", str(tmp_path / "tty")])
    tty = subprocess.run(
        ["script", "-qc", command, "/dev/null"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert tty.returncode == 0
    assert "pass 25 · fail 0 · error 0" in tty.stdout and "25/25" in tty.stdout
    assert "progress: " not in tty.stdout  # the bar, not log lines


def _interrupted_run(
    out: Path, provider: str, stores: list[str], *, watch: Path, lines: int, **env: str
) -> tuple[int, str]:
    """`eval run` with ``provider``, sent Ctrl-C once ``watch`` has ``lines`` lines; its exit
    status and stderr."""
    proc = subprocess.Popen(
        [RAGSPINE, "eval", "run", "--out", str(out), "--provider",
         f"python:tests.fakes.providers:{provider}", "--filter", "suite:structured", *stores],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (
        not watch.exists() or len(watch.read_text().splitlines()) < lines
    ):
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    return proc.returncode, stderr


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_and_prints_the_resume_command(
    tmp_path: Path, stores: list[str]
) -> None:
    out = tmp_path / "run"
    status, stderr = _interrupted_run(
        out, "SlowMockProvider", stores, watch=out / "results.jsonl", lines=5
    )
    assert status == 130
    assert f"resume with: ragspine eval run --resume {out}" in stderr
    assert "Traceback" not in stderr
    resumed = run("eval", "run", "--resume", str(out), "--concurrency", "4")  # the slow mock
    assert resumed.returncode == 0, resumed.stderr


@pytest.mark.slow
def test_an_unfinished_run_is_named_by_every_command_that_reads_it(
    tmp_path: Path, stores: list[str]
) -> None:
    """A run stopped with Ctrl-C: diff and compare describe what it has and say it is unfinished
    (a warning line, the top of the .md, the .json); gate, compare --gate and bless refuse it."""
    whole, part = tmp_path / "whole", tmp_path / "part"
    ran = run("eval", "run", "--filter", "suite:structured", "--out", str(whole), *stores)
    assert ran.returncode == 0, ran.stderr
    status, _ = _interrupted_run(
        part, "SlowMockProvider", stores, watch=part / "results.jsonl", lines=5
    )
    assert status == 130
    got, planned = len(read_results(part)), len(read_results(whole))
    said = (
        f"the run is unfinished ({got} of {planned} results); "
        f"resume it with: ragspine eval run --resume {part}"
    )
    for a, b, label in ((whole, part, "B"), (part, whole, "A")):
        out = tmp_path / f"diff-{label}"
        diff = run("eval", "diff", str(a), str(b), "--out", str(out))
        assert diff.returncode == 0, diff.stderr
        assert diff.stderr == f"warning: {part}: {said}\n"
        text = (out / "diff.md").read_text("utf-8")
        assert f"> **{label} is unfinished.**" in text.split("###")[0]  # above every section
        record = json.loads((out / "diff.json").read_text("utf-8"))
        assert record[label.lower()]["unfinished"] == said
        assert not record["regressed"] and not record["fixed"]  # the cases not run are coverage
        assert len(record["missing_in_b" if label == "B" else "new_in_b"]) == planned - got
    compared = run("eval", "compare", str(whole), str(part), "--out", str(tmp_path / "c"))
    assert compared.returncode == 0 and compared.stderr == f"warning: {part}: {said}\n"
    record = json.loads((tmp_path / "c" / "compare.json").read_text("utf-8"))
    assert (record["pairs"], record["b"]["unfinished"]) == (got, said)
    assert "> **B is unfinished.**" in (tmp_path / "c" / "compare.md").read_text("utf-8")
    assert 'data-note="unfinished"' in (tmp_path / "c" / "compare.html").read_text("utf-8")
    judged = run("eval", "compare", str(whole), str(part), "--gate", "--out", str(tmp_path / "c"))
    assert judged.returncode == 1 and f"  - B {part}: {said}" in judged.stderr.splitlines()
    gate = run("eval", "gate", "--baseline", str(whole), "--current", str(part), "--allow-subset")
    assert gate.returncode == 1 and f"  - {said}" in gate.stderr.splitlines()
    bless = run("eval", "bless", str(part), "--baseline", str(tmp_path / "baseline"))
    assert bless.stderr == f"error: {part}: {said} before blessing\n"
    assert bless.returncode == 1 and not (tmp_path / "baseline").exists()


@pytest.mark.parametrize(
    "concurrency",
    [
        "1",  # one case at a time: the case under way finishes
        "4",  # workers: every case a worker had started finishes
    ],
)
def test_ctrl_c_keeps_the_answers_already_under_way(
    tmp_path: Path, stores: list[str], concurrency: str
) -> None:
    """An interrupted run still judges and writes every answer it had asked for: a paid answer
    is never asked for again on --resume."""
    out, log = tmp_path / "run", tmp_path / "answered.log"
    status, stderr = _interrupted_run(
        out,
        "LoggingSlowMockProvider",
        [*stores, "--concurrency", concurrency],
        watch=log,
        lines=8,
        RAGSPINE_TEST_ANSWER_LOG=str(log),
    )
    assert status == 130, stderr
    assert "stopping: the answers under way finish and are kept" in stderr
    answered = set(log.read_text().split())
    kept = {r.case_id for r in read_results(out)}
    assert answered and answered <= kept, sorted(answered - kept)


def test_a_second_ctrl_c_stops_without_waiting_for_the_answers_under_way(
    tmp_path: Path, stores: list[str]
) -> None:
    out, started = tmp_path / "run", tmp_path / "started.log"
    proc = subprocess.Popen(
        [RAGSPINE, "eval", "run", "--out", str(out), "--provider",
         "python:tests.fakes.providers:StuckMockProvider", "--concurrency", "4", *stores],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT),
                       "RAGSPINE_TEST_STARTED_LOG": str(started)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stderr.readline, "")))  # type: ignore[union-attr]
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (
            not started.exists() or len(started.read_text().splitlines()) < 4
        ):
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        while time.monotonic() < deadline and not any("stopping:" in line for line in lines):
            time.sleep(0.02)  # two signals pending at once would count as one
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)  # the answers under way would take a minute
    finally:
        proc.kill()
        reader.join()
    stderr = "".join(lines)
    assert proc.returncode == 130, stderr
    assert f"resume with: ragspine eval run --resume {out}" in stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # a fact store that was never built
        (["run", "--db", "nope.db", "--out", "{tmp}/r"], "fact database not found"),
        # a provider nobody registered
        (["run", "--provider", "openai", "--out", "{tmp}/r"], "unknown provider 'openai'"),
        # a python: spec naming a module, not a provider
        (["run", "--provider", "python:os:path", "--out", "{tmp}/r"], "is not a provider"),
        # a golden folder that is not there
        (["validate", "--golden", "{tmp}/none"], "no such golden file or folder"),
        # a filter that matches no case runs nothing and says so
        (["run", "--filter", "tag:no-such-tag", "--out", "{tmp}/r"], "matched no case"),
        # diff, gate and bless on folders that hold no run
        (["diff", "{tmp}", "{tmp}"], "not found (is"),
        (["gate", "--current", "{tmp}"], "not found (is"),  # the baseline is there, not the run
        (["bless", "{tmp}", "--baseline", "{tmp}/b"], "not found (is"),
        # a filter that does not parse
        (["run", "--filter", "zh and", "--out", "{tmp}/r"], "--filter: expected a tag"),
        # the adversarial pack without a fact store
        (["audit", "--db", "nope.db"], "fact database not found"),
        # a thresholds file naming a metric that does not exist
        (["gate", "--current", "evals/baseline", "--thresholds", "{tmp}/t.yaml"], "unknown metric"),
        # resuming a folder that holds no run
        (["run", "--resume", "{tmp}"], "not found (is"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_1(
    tmp_path: Path, stores: list[str], args: list[str], message: str
) -> None:
    (tmp_path / "t.yaml").write_text("max:\n  no_such_metric: 1\n", "utf-8")
    filled = [a.replace("{tmp}", str(tmp_path)) for a in args]
    extra = stores if filled[0] == "run" and "--db" not in filled else []
    out = run("eval", *filled, *extra)
    assert out.returncode == 1
    (line,) = out.stderr.strip().splitlines()
    assert line.startswith("error: ") and message in line, line
    assert not (tmp_path / "r").exists()  # nothing half-written


def test_bless_makes_a_baseline_the_gate_then_accepts(tmp_path: Path, stores: list[str]) -> None:
    out_dir, baseline = tmp_path / "run", tmp_path / "baseline"
    ran = run("eval", "run", "--filter", "suite:regressions", "--out", str(out_dir), *stores)
    assert ran.returncode == 0, ran.stderr
    refused = run("eval", "bless", str(out_dir), "--baseline", str(baseline))
    assert refused.returncode == 1 and "a subset run (--filter suite:regressions)" in refused.stderr
    assert not baseline.exists()
    blessed = run("eval", "bless", str(out_dir), "--baseline", str(baseline), "--force")
    assert blessed.returncode == 0 and f"blessed {out_dir}" in blessed.stdout
    assert {p.name for p in baseline.iterdir()} == {"run.json", "summary.json", "results.jsonl"}
    gate = run("eval", "gate", "--baseline", str(baseline), "--current", str(out_dir))
    assert gate.returncode == 0 and gate.stdout.strip() == "gate: passed"


def test_repeats_are_trials_of_one_case(tmp_path: Path, stores: list[str]) -> None:
    out = run(
        "eval", "run", "--out", str(tmp_path / "r"), "--filter", "suite:structured",
        "--limit", "4", "--repeat", "3", *stores,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    # the mock is deterministic: every case passes or fails all three times
    # 4 cases, each asked 3 times: the console counts cases as cases, results as results
    assert out.stdout.startswith("cases: 4 × 3 repeats (12 results)  errors: 0\n")
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("repeats"))
    assert line.startswith("repeats                 3 per case: 4 stable pass, 0 flaky")
    report = (tmp_path / "r" / "report.md").read_text("utf-8")
    assert "## Repeats (3 per case, 4 cases)" in report and "Flaky cases: _none_" in report
    summary = json.loads((tmp_path / "r" / "summary.json").read_text("utf-8"))
    assert summary["metrics"]["pass_rate"]["clustered"] == 4  # 12 trials, 4 cases
