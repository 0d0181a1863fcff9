"""The CI gate's reasons, thresholds files, and bless: a baseline that never drifts by itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ragspine.evals.compare.bless import bless
from ragspine.evals.compare.diff import diff_runs
from ragspine.evals.compare.gate import ThresholdsError, gate, load_thresholds
from ragspine.evals.report.markdown import flatten_metrics
from ragspine.evals.run.records import (
    RESULTS_FILE,
    RUN_FILE,
    SUMMARY_FILE,
    CaseResult,
    RecordError,
    result_line,
)
from ragspine.evals.score.metrics import metric_names
from ragspine.evals.score.summary import summarize
from tests.evals.compare.test_diff import ROUTE_FAIL, make_run, result

GREEN = [result("a"), result("b"), result("c", tags=["demo", "en"])]


def _thresholds(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "thresholds.yaml"
    path.write_text(text, "utf-8")
    return path


STRICT = "min:\n  pass_rate: 1.0\nmax:\n  errors: 0\n  unsupported_numbers.cases: 0\n"


def test_a_run_like_its_baseline_passes(tmp_path: Path) -> None:
    base = make_run(tmp_path / "base", GREEN)
    run = make_run(tmp_path / "run", GREEN, run_id="other")
    verdict = gate(base, run, load_thresholds(_thresholds(tmp_path, STRICT)))
    assert verdict.passed and verdict.reasons == []


ERRORED = CaseResult(case_id="b", passed=False, tags=["demo"], error="ProviderError: 529")
UNSUPPORTED = result("b", unsupported_numbers=["42", "7.5"], failed={"unsupported_numbers": (
    [], ["42", "7.5"], "numbers nothing explains: 42, 7.5")})  # fmt: skip


BASE = [result("a"), result("b", failed=ROUTE_FAIL), result("c")]  # b already fails


@pytest.mark.parametrize(
    ("current", "provider", "extra", "thresholds", "expected"),
    [
        # pass → fail vs the baseline: names the case, the check and why
        ([result("a", failed=ROUTE_FAIL, route="narrative"), BASE[1], BASE[2]], "anthropic", {},
         None, ["regressed: a: route (routed narrative, expected structured)"]),
        # a rate under its floor, though nothing regressed (b failed in the baseline too)
        (BASE, "anthropic", {}, "min:\n  route_accuracy: 0.9\n",
         ["metric route_accuracy = 0.6667 is below its minimum 0.9"]),
        # a count over its ceiling, on a live provider (so the mock rule stays quiet)
        ([BASE[0], ERRORED, BASE[2]], "anthropic", {}, "max:\n  errors: 0\n",
         ["metric errors = 1 is above its maximum 0"]),
        # a nested leaf over its ceiling; the unsupported numbers also speak for themselves
        ([BASE[0], UNSUPPORTED, BASE[2]], "anthropic", {},
         "max:\n  unsupported_numbers.numbers: 1\n",
         ["metric unsupported_numbers.numbers = 2 is above its maximum 1",
          "unsupported numbers in 1 result(s): b (42, 7.5)"]),
        # a threshold on a metric nothing counted fails closed
        (BASE, "anthropic", {}, "min:\n  guard_accuracy: 1\n",
         ["metric guard_accuracy: nothing was counted (min 1)"]),
        # any unsupported number fails the gate, without thresholds, naming case and numbers
        ([BASE[0], UNSUPPORTED, BASE[2]], "anthropic", {}, None,
         ["unsupported numbers in 1 result(s): b (42, 7.5)"]),
        # the mock provider is deterministic: an error there is a bug
        ([BASE[0], ERRORED, BASE[2]], "mock", {}, None,
         ["the mock run had errors in 1 case(s): b"]),
        # a run killed half-way must not pass by having fewer cases
        (BASE[:1], "mock", {"cases_planned": 3, "status": "running"}, None,
         ["the run is unfinished (1 of 3 results); resume it with: ragspine eval run --resume",
          "2 baseline case(s) missing from the current run (b, c)"]),
    ],
)  # fmt: skip
def test_each_failure_kind_gives_its_reason(
    tmp_path: Path,
    current: list[CaseResult],
    provider: str,
    extra: dict[str, Any],
    thresholds: str | None,
    expected: list[str],
) -> None:
    base = make_run(tmp_path / "base", BASE)
    run = make_run(tmp_path / "run", current, provider=provider, **extra)
    limits = load_thresholds(_thresholds(tmp_path, thresholds)) if thresholds else None
    verdict = gate(base, run, limits, max_error_rate=1.0)  # the error-rate rule has its own test
    assert not verdict.passed
    assert len(verdict.reasons) == len(expected), verdict.reasons
    for reason, want in zip(verdict.reasons, expected, strict=True):
        assert reason.startswith(want), verdict.reasons


def test_an_error_on_a_live_provider_is_not_the_mock_rule(tmp_path: Path) -> None:
    base = make_run(tmp_path / "base", [result("a"), ERRORED])
    run = make_run(tmp_path / "run", [result("a"), ERRORED], provider="anthropic")
    # still failing, but not newly: the baseline failed too (1 of 2 errored: under a 0.5 limit)
    assert gate(base, run, None, max_error_rate=0.5).passed


def test_new_cases_are_coverage_and_missing_ones_need_allow_subset(tmp_path: Path) -> None:
    base = make_run(tmp_path / "base", [result("a"), result("gone")])
    run = make_run(tmp_path / "run", [result("a"), result("new")], golden_hash="sha256:beef")
    refused = gate(base, run, None)
    assert refused.reasons == [
        "1 baseline case(s) missing from the current run (gone): run the whole golden set, "
        "or pass --allow-subset"
    ]
    assert gate(base, run, None, allow_subset=True).passed


@pytest.mark.parametrize(
    ("current", "record", "reason"),
    [
        # nothing ran: a filter that matched nothing, say
        ([], {}, "the current run has no results: nothing was tested"),
        # the same cases, but an expectation was edited: the baseline no longer says what passes
        (BASE, {"golden_hash": "sha256:beef"},
         "the golden set changed (sha256:feed → sha256:beef)"),
        # an outage on a live provider: too few answered cases to judge quality
        ([BASE[0], ERRORED, ERRORED.model_copy(update={"case_id": "c"})], {"provider": "anthropic"},
         "inconclusive: the current run errored on 2 case(s) (2 of 3 results, 67%), above "
         "the error-rate limit 0.1: quality was not judged"),
    ],
)  # fmt: skip
def test_a_run_that_proves_nothing_fails_the_gate(
    tmp_path: Path, current: list[CaseResult], record: dict[str, Any], reason: str
) -> None:
    base = make_run(tmp_path / "base", BASE)
    run = make_run(tmp_path / "run", current, **record)
    verdict = gate(base, run, None, allow_subset=True)
    assert not verdict.passed and any(r.startswith(reason) for r in verdict.reasons), verdict


def test_an_outage_is_named_as_errors_never_as_a_quality_regression(tmp_path: Path) -> None:
    base = make_run(tmp_path / "base", GREEN)
    down = [
        r.model_copy(update={"passed": False, "checks": [], "error": "ProviderError: 529"})
        for r in GREEN
    ]
    run = make_run(tmp_path / "run", down, provider="anthropic")
    verdict = gate(base, run, load_thresholds(_thresholds(tmp_path, STRICT)))
    assert verdict.reasons == [
        "inconclusive: the current run errored on 3 case(s) (3 of 3 results, 100%), above the "
        "error-rate limit 0.1: quality was not judged (no regression or rate threshold is read "
        "from so few answers)",
        "metric errors = 3 is above its maximum 0",  # a count of errors still names them
    ]  # no "regressed", no "pass_rate = 0 is below its minimum"


def test_under_the_error_limit_a_case_that_only_errored_is_no_regression(tmp_path: Path) -> None:
    ids = [f"c{i:02d}" for i in range(20)]
    base = make_run(tmp_path / "base", [result(i) for i in ids])
    current = [result(i) for i in ids]
    current[3] = CaseResult(case_id="c03", passed=False, tags=["demo"], error="ProviderError: 529")
    current[4] = result("c04", failed=ROUTE_FAIL, route="narrative")  # a real regression
    run = make_run(tmp_path / "run", current, provider="anthropic")
    verdict = gate(base, run, None)  # 1 of 20 errored: under the 0.1 limit
    assert verdict.reasons == ["regressed: c04: route (routed narrative, expected structured)"]


def test_an_unfinished_run_folder_says_how_to_resume_it(tmp_path: Path) -> None:
    """One rule, one sentence: the gate fails on it, bless refuses it, the diff marks it."""
    base = make_run(tmp_path / "base", BASE)
    run = make_run(tmp_path / "run", BASE[:1], status="running", cases_planned=3)
    (run / SUMMARY_FILE).unlink()  # killed before the summary was written
    said = (
        f"the run is unfinished (1 of 3 results); resume it with: ragspine eval run --resume {run}"
    )
    verdict = gate(base, run, None, allow_subset=True)
    assert not verdict.passed and verdict.reasons == [said]
    with pytest.raises(RecordError) as err:
        bless(run, tmp_path / "b")
    assert str(err.value) == f"{run}: {said} before blessing"
    diff = diff_runs(base, run)
    assert (diff.a.unfinished, diff.b.unfinished) == (None, said)
    assert diff.missing_in_b == ["b", "c"] and not diff.regressed  # coverage, not regressions
    pass_rate = next(m for m in diff.metrics if m.name == "pass_rate")
    assert pass_rate.b == 1.0  # summarised from the one result on disk


def test_a_stale_summary_of_an_unfinished_run_is_not_read(tmp_path: Path) -> None:
    """A run resumed and then killed keeps the summary.json of its earlier stop, which counts
    fewer results than are on disk: its figures are summarised from the results instead."""
    base = make_run(tmp_path / "base", BASE)
    run = make_run(tmp_path / "run", BASE[:1], status="stopped", cases_planned=3)
    with (run / RESULTS_FILE).open("a", encoding="utf-8") as fh:
        fh.write(result_line(BASE[1]))  # b fails: appended after the summary was written
    diff = diff_runs(base, run)
    assert diff.b.unfinished is not None and diff.b.unfinished.startswith(
        "the run is stopped at its --budget (2 of 3 results)"
    )
    pass_rate = next(m for m in diff.metrics if m.name == "pass_rate")
    assert (pass_rate.a, pass_rate.b) == (round(2 / 3, 6), 0.5)
    assert [(t.tag, t.cases_b, t.b) for t in diff.per_tag] == [("demo", 2, 0.5), ("zh", 2, 0.5)]


def test_an_unfinished_baseline_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    """Blessed with --force, a baseline that did not finish is named on every gate; the cases it
    lacks are new in the run, never regressions."""
    part = make_run(tmp_path / "part", BASE[:1], status="running", cases_planned=3)
    bless(part, tmp_path / "baseline", force=True)
    verdict = gate(tmp_path / "baseline", make_run(tmp_path / "run", BASE), None)
    assert verdict.passed and verdict.warnings == [
        f"{tmp_path / 'baseline'}: the run is unfinished (1 of 3 results); resume it with: "
        f"ragspine eval run --resume {tmp_path / 'baseline'}"
    ]


@pytest.mark.parametrize(
    ("results", "record", "why"),
    [
        ([], {}, "the run has no results"),  # empty
        (BASE, {"options": {"filter": "zh", "repeat": 1}}, r"a subset run \(--filter zh\)"),
        (BASE[:1], {"status": "running", "cases_planned": 3}, "the run is unfinished"),  # killed
    ],
)
def test_bless_refuses_a_run_that_would_make_a_weak_baseline_unless_forced(
    tmp_path: Path, results: list[CaseResult], record: dict[str, Any], why: str
) -> None:
    run = make_run(tmp_path / "run", results, **record)
    with pytest.raises(RecordError, match=why):
        bless(run, tmp_path / "baseline")
    assert not (tmp_path / "baseline").exists()
    bless(run, tmp_path / "baseline", force=True)
    assert (tmp_path / "baseline" / RESULTS_FILE).exists()


# -- thresholds files -------------------------------------------------------------------------


def test_the_metric_names_are_exactly_what_a_summary_holds() -> None:
    results = [result("a", usage={"input_tokens": 3, "output_tokens": 4})]
    assert set(flatten_metrics(summarize("r", "mock", results).metrics)) == set(metric_names())


def test_a_thresholds_file_loads(tmp_path: Path) -> None:
    t = load_thresholds(_thresholds(tmp_path, STRICT))
    assert t.min == {"pass_rate": 1.0}
    assert t.max == {"errors": 0.0, "unsupported_numbers.cases": 0.0}
    assert load_thresholds(_thresholds(tmp_path, "")).min == {}  # empty: no lines to cross


def test_the_compare_section_declares_the_primary_rate_and_the_family(tmp_path: Path) -> None:
    text = "compare:\n  primary: answered_pass_rate\n  family: [status_accuracy, route_accuracy]\n"
    declared = load_thresholds(_thresholds(tmp_path, text)).compare
    assert declared.primary == "answered_pass_rate"
    assert declared.members() == ["route_accuracy", "status_accuracy"]  # in report order
    default = load_thresholds(_thresholds(tmp_path, STRICT)).compare
    assert default.primary == "pass_rate" and "pass_rate" not in default.members()
    assert "route_accuracy" in default.members()  # unset: every other rate


def test_the_shipped_thresholds_files_load() -> None:
    root = Path(__file__).parents[3]
    for path in (root / "evals" / "thresholds.yaml", root / "examples/jinyu/thresholds.yaml"):
        assert load_thresholds(path).compare.primary == "pass_rate", path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("min:\n  pass_rat: 1.0\n", "min.pass_rat: unknown metric"),  # typo in a metric name
        ("floor:\n  pass_rate: 1.0\n", "floor: Extra inputs are not permitted"),  # unknown key
        ("max:\n  errors: none\n", "max.errors: Input should be a valid number"),  # not a number
        ("max:\n  errors: yes\n", "max.errors: Input should be a valid number"),  # bool ≠ 1.0
        ("- pass_rate\n", "a thresholds file is a mapping"),  # wrong shape
        ("min: [\n", "invalid YAML"),  # broken YAML
        # compare's primary rate must be a rate (errors is a count)
        ("compare:\n  primary: errors\n", "compare.primary.errors: not a rate; rates: pass_rate"),
        # a typo in the family would judge nothing
        ("compare:\n  family: [route_acuracy]\n", "compare.family.route_acuracy: not a rate"),
        # the primary is tested alone: naming it in the family too is a mistake
        ("compare:\n  family: [pass_rate]\n", "compare.family.pass_rate: the primary rate is"),
        # a rate named twice
        ("compare:\n  family: [route_accuracy, route_accuracy]\n", "route_accuracy: named twice"),
        # an unknown key under compare
        ("compare:\n  alpha: 0.1\n", "compare.alpha: Extra inputs are not permitted"),
        # compare is a section, not a value: said in the file's words, not the model's class
        ("compare: pass_rate\n", "compare: should be a mapping with 'primary' and/or 'family'"),
    ],
)
def test_a_bad_thresholds_file_names_the_file_and_the_field(
    tmp_path: Path, text: str, message: str
) -> None:
    path = _thresholds(tmp_path, text)
    with pytest.raises(ThresholdsError) as err:
        load_thresholds(path)
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value)


def test_a_missing_thresholds_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(ThresholdsError, match=r"nope\.yaml: not found"):
        load_thresholds(tmp_path / "nope.yaml")


# -- bless ------------------------------------------------------------------------------------

FILES = (RUN_FILE, SUMMARY_FILE, RESULTS_FILE)


def _bytes(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in FILES}


def test_blessing_twice_changes_no_byte(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", GREEN)
    bless(run, tmp_path / "base")
    first = _bytes(tmp_path / "base")
    bless(run, tmp_path / "base")
    assert _bytes(tmp_path / "base") == first
    assert all(data.endswith(b"\n") for data in first.values())
    bless(tmp_path / "base", tmp_path / "again")  # a baseline re-blessed is itself
    assert _bytes(tmp_path / "again") == first


def test_runs_that_behave_alike_bless_to_the_same_bytes(tmp_path: Path) -> None:
    slow = [r.model_copy(update={"latency_ms": 900.0}) for r in reversed(GREEN)]  # other order
    one = make_run(tmp_path / "one", GREEN, run_id="one")
    two = make_run(tmp_path / "two", slow, run_id="two", git_commit="fedcba9")
    bless(one, tmp_path / "b1")
    bless(two, tmp_path / "b2")
    assert _bytes(tmp_path / "b1") == _bytes(tmp_path / "b2")
    text = (tmp_path / "b1" / RUN_FILE).read_text("utf-8")
    assert "run_id" not in text and "started_at" not in text and "git_commit" not in text
    assert "latency_ms" not in (tmp_path / "b1" / RESULTS_FILE).read_text("utf-8")


def test_after_bless_the_run_diffs_clean_and_passes_the_gate(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [*GREEN, result("d", failed=ROUTE_FAIL)], provider="x")
    bless(run, tmp_path / "base")
    d = diff_runs(tmp_path / "base", run)
    assert d.clean and not d.new_in_b and not d.missing_in_b
    assert d.a.run_id is None and d.b.run_id == "20250101T000000Z-aaaa"
    assert gate(tmp_path / "base", run, None).passed


def test_an_edited_case_fails_the_gate_even_beside_an_added_one(tmp_path: Path) -> None:
    specced = [r.model_copy(update={"spec": "v1"}) for r in BASE]
    base = make_run(tmp_path / "base", specced)
    edited = [specced[0].model_copy(update={"spec": "v2"}), *specced[1:], result("new")]
    run = make_run(tmp_path / "run", edited, golden_hash="sha256:beef")
    verdict = gate(base, run, None)
    assert verdict.reasons == [
        "1 case(s) were edited since the baseline (a): review the new expectations and bless a "
        "new baseline"
    ]
