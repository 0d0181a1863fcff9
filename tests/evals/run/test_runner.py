"""The runner, on the real demo stores: results as each case finishes, errors counted, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine.evals.run.records import RecordError, read_results, read_run
from ragspine.evals.run.runner import RunOptions, run_eval
from ragspine.evals.score.summary import summarize

GOLDEN = """\
suite: mini
defaults: {reference_date: 2025-06-30, tags: [mini]}
cases:
  - id: found
    question: 中国内地FY2024的REVENUE是多少
    tags: [zh]
    expect: {route: structured, statuses: [found], answer_contains: ["1,320 百万美元"]}
  - id: not-found
    question: 中国内地FY2025的REVENUE是多少
    expect: {statuses: [not_found], guard_triggered: true}
  - id: multi
    question: 香港2023和2024年的营收分别是多少?
    expect: {statuses: [found, found], answer_contains: ["+45 百万美元"]}
  - id: refuse
    question: 竞安中国FY2024的收入是多少?
    expect: {clarification: out_of_scope_entity, statuses: []}
  - id: wrong-on-purpose
    question: 香港FY2024门店数是多少
    expect: {answer_contains: ["98 家"]}
  - id: narrative
    question: 为什么中国内地FY2024收入下降?
    expect: {route: composite, sources: [{doc: ACME_FY2024_MDA.md}]}
"""


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    folder = tmp_path / "golden"
    folder.mkdir()
    (folder / "mini.yaml").write_text(GOLDEN, "utf-8")
    return folder


def _opts(golden: Path, out: Path, demo_db: Path, demo_corpus: Path, **kw: object) -> RunOptions:
    return RunOptions(golden=golden, out=out, db=demo_db, corpus=demo_corpus, **kw)  # type: ignore[arg-type]


def test_a_run_records_every_case(
    golden: Path, tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    record = run_eval(_opts(golden, tmp_path / "run", demo_db, demo_corpus))
    results = read_results(tmp_path / "run")
    assert record.status == "complete" and record.cases_planned == 6
    assert record.golden_hash.startswith("sha256:") and record.provider == "mock"
    by_id = {r.case_id: r for r in results}
    assert [k for k, r in by_id.items() if not r.passed] == ["wrong-on-purpose"]
    assert by_id["wrong-on-purpose"].check("answer_contains").why == "answer lacks ['98 家']"  # type: ignore[union-attr]
    assert by_id["narrative"].unsupported_numbers == []
    on_disk = read_results(tmp_path / "run")
    assert sorted(r.case_id for r in on_disk) == sorted(by_id)
    assert read_run(tmp_path / "run").finished_at is not None


def test_provider_errors_stay_in_the_denominator(
    golden: Path, tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    opts = _opts(
        golden,
        tmp_path / "run",
        demo_db,
        demo_corpus,
        provider="python:tests.fakes.providers:OutageOnRevenue",
    )
    record = run_eval(opts)
    results = read_results(tmp_path / "run")
    errors = sorted(r.case_id for r in results if r.error)
    assert errors == ["found", "narrative", "not-found"]
    summary = summarize(record.run_id, record.provider, results)
    assert summary.metrics["errors"] == 3
    assert summary.metrics["pass_rate"]["total"] == 6  # never dropped
    assert summary.metrics["pass_rate"]["count"] == 2


def test_concurrency_and_repeat_give_the_same_verdicts(
    golden: Path, tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    run_eval(_opts(golden, tmp_path / "a", demo_db, demo_corpus))
    run_eval(_opts(golden, tmp_path / "b", demo_db, demo_corpus, concurrency=4, repeat=2))
    serial, parallel = read_results(tmp_path / "a"), read_results(tmp_path / "b")
    assert len(parallel) == 12
    verdict = {r.case_id: r.passed for r in serial}
    assert all(r.passed == verdict[r.case_id] for r in parallel)


def test_the_golden_files_are_read_once_before_the_first_case(
    golden: Path, tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    """The scan that counts the cases is the one the run uses: no file is read again."""
    planned: list[int] = []

    def on_start(count: int) -> None:
        planned.append(count)
        (golden / "mini.yaml").write_text("cases: [unclosed\n", "utf-8")  # a re-read would fail

    record = run_eval(_opts(golden, tmp_path / "run", demo_db, demo_corpus), on_start=on_start)
    assert planned == [6] and record.status == "complete"
    assert len(read_results(tmp_path / "run")) == 6


def test_an_existing_run_is_never_overwritten(
    golden: Path, tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    run_eval(_opts(golden, tmp_path / "run", demo_db, demo_corpus, limit=1))
    with pytest.raises(RecordError, match="already holds a run"):
        run_eval(_opts(golden, tmp_path / "run", demo_db, demo_corpus, limit=1))


def test_resume_finishes_a_torn_run_to_the_same_verdicts(
    golden: Path, tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    run_eval(_opts(golden, tmp_path / "full", demo_db, demo_corpus))
    full = sorted(read_results(tmp_path / "full"), key=lambda r: r.key)
    part = tmp_path / "part"
    run_eval(_opts(golden, part, demo_db, demo_corpus))
    lines = (part / "results.jsonl").read_text("utf-8").splitlines(keepends=True)
    (part / "results.jsonl").write_text(
        "".join(lines[:2]) + lines[2][:40], "utf-8"
    )  # killed mid-write
    run_eval(_opts(golden, part, demo_db, demo_corpus), resume=True)
    resumed = sorted(read_results(part), key=lambda r: r.key)
    assert [r.key for r in resumed] == [r.key for r in full]
    assert len(read_results(part)) == 6
    a = summarize("x", "mock", full).model_dump()
    b = summarize("x", "mock", resumed).model_dump()
    for summary in (a, b):
        summary["metrics"].pop("latency_ms")
    assert a == b


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("golden", "golden set changed"),  # the cases are not the ones the run started with
        ("options", "same provider and options"),  # another filter would mix two runs
    ],
)
def test_resume_refuses_a_different_run(
    golden: Path, tmp_path: Path, demo_db: Path, demo_corpus: Path, change: str, message: str
) -> None:
    run_eval(_opts(golden, tmp_path / "run", demo_db, demo_corpus, limit=2))
    kw: dict[str, object] = {"limit": 2}
    if change == "golden":
        (golden / "mini.yaml").write_text(GOLDEN.replace("id: multi", "id: multi-2"), "utf-8")
    else:
        kw = {"limit": 3}
    with pytest.raises(RecordError, match=message):
        run_eval(_opts(golden, tmp_path / "run", demo_db, demo_corpus, **kw), resume=True)


def test_results_lines_are_versioned_records(
    golden: Path, tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    run_eval(_opts(golden, tmp_path / "run", demo_db, demo_corpus, limit=1))
    line = json.loads((tmp_path / "run" / "results.jsonl").read_text("utf-8").splitlines()[0])
    assert line["schema_version"] == 4
    assert {
        "raw_unsupported",
        "guard_removed",
        "case_id",
        "passed",
        "checks",
        "route",
        "clarification",
        "statuses",
        "guard_triggered",
        "sources",
        "answer",
        "latency_ms",
        "usage",
        "error",
    } <= set(line)


@pytest.mark.parametrize(
    ("version", "readable"),
    [
        (1, True),  # an older run or baseline: its missing fields have defaults
        (2, True),  # an older run without error kinds
        (3, True),  # an older run without the case spec
        (4, True),  # this version
        (99, False),  # a newer ragspine's: refused, with the versions this one reads
    ],
)
def test_older_records_are_read_newer_ones_refused(
    tmp_path: Path, version: int, readable: bool
) -> None:
    line = {"schema_version": version, "case_id": "c", "passed": True}
    (tmp_path / "results.jsonl").write_text(json.dumps(line) + "\n", "utf-8")
    if readable:
        (result,) = read_results(tmp_path)
        assert result.raw_unsupported == [] and result.guard_removed == 0
        assert result.error_kind is None
    else:
        with pytest.raises(RecordError, match="reads versions 1, 2, 3, 4"):
            read_results(tmp_path)
