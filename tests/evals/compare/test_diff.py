"""diff_runs on hand-built run folders: no engine, just the records a run would write.

The builders here (``result``, ``make_run``) are shared by test_report and test_gate.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ragspine.evals.compare.diff import DIFF_JSON, DIFF_MD, RunDiff, diff_runs, write_diff
from ragspine.evals.run.records import (
    RESULTS_FILE,
    RUN_FILE,
    SUMMARY_FILE,
    CaseResult,
    Check,
    RunRecord,
    result_line,
    write_json,
)
from ragspine.evals.score.summary import summarize

SRC = {"doc": "ACME_FY2024_Review.pptx", "locator": "slide 3"}


def result(
    case_id: str,
    *,
    passed: bool = True,
    repeat: int = 0,
    route: str = "structured",
    statuses: list[str] | None = None,
    sources: list[dict[str, str]] | None = None,
    failed: dict[str, tuple[Any, Any, str]] | None = None,
    **kw: Any,
) -> CaseResult:
    """A case with a route check; ``failed`` maps check name → (expected, actual, why)."""
    checks = [Check(name="route", passed=True, expected=route, actual=route)]
    for name, (expected, actual, why) in (failed or {}).items():
        checks = [c for c in checks if c.name != name]
        checks.append(Check(name=name, passed=False, expected=expected, actual=actual, why=why))
    return CaseResult(
        case_id=case_id,
        repeat=repeat,
        passed=passed and not failed and kw.get("error") is None,
        checks=checks,
        tags=kw.pop("tags", ["demo", "zh"]),
        question=kw.pop("question", f"question {case_id}?"),
        route=route,
        clarification=kw.pop("clarification", "none"),
        statuses=statuses if statuses is not None else ["found"],
        guard_triggered=kw.pop("guard_triggered", False),
        sources=sources if sources is not None else [SRC],
        answer=kw.pop("answer", "REVENUE 1320 (ACME_FY2024_Review.pptx · slide 3)"),
        latency_ms=kw.pop("latency_ms", 12.5),
        **kw,
    )


def make_run(
    folder: Path,
    results: list[CaseResult],
    *,
    provider: str = "mock",
    run_id: str = "20250101T000000Z-aaaa",
    **record: Any,
) -> Path:
    """A run folder as the runner and CLI leave it: run.json, results.jsonl, summary.json."""
    folder.mkdir(parents=True)
    fields: dict[str, Any] = {
        "status": "complete",
        "started_at": "2025-01-01T00:00:00+00:00",
        "finished_at": "2025-01-01T00:00:09+00:00",
        "git_commit": "0123abc",
        "golden_path": "golden",
        "golden_hash": "sha256:feed",
        "options": {"repeat": 1},
        "cases_planned": len(results),
    }
    rec = RunRecord(run_id=run_id, provider=provider, **{**fields, **record})
    write_json(folder / RUN_FILE, rec)
    (folder / RESULTS_FILE).write_text("".join(result_line(r) for r in results), "utf-8")
    write_json(folder / SUMMARY_FILE, summarize(run_id, provider, results))
    return folder


ROUTE_FAIL = {"route": ("structured", "narrative", "routed narrative, expected structured")}


def _pair(tmp_path: Path) -> RunDiff:
    a = [
        result("same"),
        result("regress"),
        result("fix", failed=ROUTE_FAIL, route="narrative"),
        result("behave"),
        result("still-bad", failed=ROUTE_FAIL),
        result("gone"),
    ]
    b = [
        result("same"),
        result("regress", failed=ROUTE_FAIL, route="narrative"),
        result("fix"),
        result("behave", sources=[SRC, {"doc": "Board_Minutes.docx", "locator": "§2"}]),
        result("still-bad", failed=ROUTE_FAIL),
        result("new"),
    ]
    return diff_runs(make_run(tmp_path / "a", a), make_run(tmp_path / "b", b, run_id="b"))


def test_cases_are_classified_regressed_fixed_changed_new_missing(tmp_path: Path) -> None:
    d = _pair(tmp_path)
    assert [c.case_id for c in d.regressed] == ["regress"]
    assert [c.case_id for c in d.fixed] == ["fix"]
    assert [c.case_id for c in d.changed] == ["behave"]
    assert (d.new_in_b, d.missing_in_b) == (["new"], ["gone"])  # coverage, not regressions
    assert d.unchanged == 2  # same, still-bad


def test_a_regression_names_the_check_and_its_before_and_after(tmp_path: Path) -> None:
    (reg,) = _pair(tmp_path).regressed
    (check,) = reg.checks
    assert (check.name, check.passed_a, check.passed_b) == ("route", True, False)
    assert (check.actual_a, check.actual_b) == ("structured", "narrative")
    assert check.why == "routed narrative, expected structured"
    assert [(f.field, f.a, f.b) for f in reg.behaviour] == [("route", "structured", "narrative")]


def test_a_fix_keeps_the_old_reason(tmp_path: Path) -> None:
    (fix,) = _pair(tmp_path).fixed
    assert fix.checks[0].why == "routed narrative, expected structured"
    assert (fix.checks[0].passed_a, fix.checks[0].passed_b) == (False, True)


def test_changed_behaviour_lists_the_field_that_moved(tmp_path: Path) -> None:
    (changed,) = _pair(tmp_path).changed
    (field,) = changed.behaviour
    assert field.field == "sources" and len(field.b) == 2 and changed.checks == []


def test_order_of_statuses_and_sources_is_not_behaviour(tmp_path: Path) -> None:
    two = [SRC, {"doc": "X.docx", "locator": "p1"}]
    a = [result("c", statuses=["found", "not_found"], sources=two)]
    b = [result("c", statuses=["not_found", "found"], sources=two[::-1])]
    d = diff_runs(make_run(tmp_path / "a", a), make_run(tmp_path / "b", b))
    assert d.clean and d.unchanged == 1


def test_a_case_fails_if_any_repeat_failed_and_shows_that_repeat(tmp_path: Path) -> None:
    a = [result("c"), result("c", repeat=1)]
    b = [result("c"), result("c", repeat=1, failed=ROUTE_FAIL, route="narrative")]
    d = diff_runs(make_run(tmp_path / "a", a), make_run(tmp_path / "b", b))
    (reg,) = d.regressed
    assert reg.repeat == 1 and reg.checks[0].actual_b == "narrative"
    assert reg.behaviour == []  # behaviour is compared on repeat 0, which did not move


def test_an_error_is_a_regression_named_by_the_error(tmp_path: Path) -> None:
    a = [result("c")]
    b = [CaseResult(case_id="c", passed=False, error="ProviderError: timed out")]
    (reg,) = diff_runs(make_run(tmp_path / "a", a), make_run(tmp_path / "b", b)).regressed
    assert reg.checks == []  # checks that could not run are not listed one by one
    assert ("error", None, "ProviderError: timed out") in [
        (f.field, f.a, f.b) for f in reg.behaviour
    ]


def test_metrics_carry_a_b_and_delta_with_nested_leaves(tmp_path: Path) -> None:
    metrics = {m.name: m for m in _pair(tmp_path).metrics}
    assert metrics["pass_rate"].a == metrics["pass_rate"].b == round(4 / 6, 6)
    assert metrics["pass_rate"].delta == 0
    assert metrics["errors"].delta == 0
    assert {"latency_ms.p50", "latency_ms.p95", "unsupported_numbers.cases", "tokens.input"} <= set(
        metrics
    )


def test_a_baseline_without_volatile_fields_can_be_side_a(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [result("c")])
    base = tmp_path / "base"
    base.mkdir()
    for name in (RUN_FILE, SUMMARY_FILE):
        data = json.loads((run / name).read_text("utf-8"))
        for key in ("run_id", "started_at", "finished_at", "git_commit"):
            data.pop(key, None)
        if "metrics" in data:
            del data["metrics"]["latency_ms"]
        (base / name).write_text(json.dumps(data), "utf-8")
    line = json.loads((run / RESULTS_FILE).read_text("utf-8"))
    del line["latency_ms"]
    (base / RESULTS_FILE).write_text(json.dumps(line) + "\n", "utf-8")
    d = diff_runs(base, run)
    assert d.clean and d.a.run_id is None and d.a.git_commit is None
    latency = next(m for m in d.metrics if m.name == "latency_ms.p50")
    assert latency.a is None and latency.delta is None


def test_write_diff_makes_a_pull_request_comment_and_a_record(tmp_path: Path) -> None:
    d = _pair(tmp_path)
    write_diff(d, tmp_path / "out")
    text = (tmp_path / "out" / DIFF_MD).read_text("utf-8")
    for heading in (
        "| metric",
        "### What broke, what was fixed",
        "### Regressed: `route` (1)",
        "### Fixed: `route` (1)",
        "### Changed behaviour, same pass/fail (1)",
        "### Coverage: new in B / missing in B",
    ):
        assert heading in text
    assert "`route` pass → fail: routed narrative, expected structured" in text
    assert "route: structured → narrative" in text
    assert "- new in B (1): new" in text and "- missing in B (1): gone" in text
    back = RunDiff.model_validate_json((tmp_path / "out" / DIFF_JSON).read_text("utf-8"))
    assert back == d


def test_hostile_text_stays_inside_its_markdown_line(tmp_path: Path) -> None:
    q = "a | b\n## not a heading <script>alert(1)</script>"
    a = [result("c", question=q)]
    b = [result("c", question=q, failed=ROUTE_FAIL, route="narrative")]
    write_diff(diff_runs(make_run(tmp_path / "a", a), make_run(tmp_path / "b", b)), tmp_path)
    text = (tmp_path / DIFF_MD).read_text("utf-8")
    assert "<script>" not in text and "\n## not a heading" not in text and "a \\| b" in text


def test_a_big_regression_fits_a_pull_request_comment_and_points_to_the_rest(
    tmp_path: Path,
) -> None:
    n = 600
    long = "收入 " + "很长的回答 " * 200
    a = [result(f"c{i:03d}", answer=long + "455") for i in range(n)]
    b = [
        result(
            f"c{i:03d}", answer=long + "456", failed={"answer_contains": (["455"], ["455"], "x")}
        )
        for i in range(n)
    ]
    write_diff(diff_runs(make_run(tmp_path / "a", a), make_run(tmp_path / "b", b)), tmp_path)
    text = (tmp_path / DIFF_MD).read_text("utf-8")
    assert len(text) < 65_536  # GitHub's comment limit
    assert "### Regressed: `answer_contains` (600)" in text
    assert "more (" in text and DIFF_JSON in text  # the rest is counted and pointed to
    assert "**455**" in text and "**456**" in text  # the change, marked
    data = json.loads((tmp_path / DIFF_JSON).read_text("utf-8"))
    assert len(data["regressed"]) == n  # everything is in the record
