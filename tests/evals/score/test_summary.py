from __future__ import annotations

import pytest

from ragspine.evals.run.records import CaseResult, Check
from ragspine.evals.score.summary import summarize, wilson


def _r(
    case_id: str, passed: bool, tags: list[str], checks: list[Check], **kw: object
) -> CaseResult:
    return CaseResult(case_id=case_id, passed=passed, tags=tags, checks=checks, **kw)  # type: ignore[arg-type]


def test_wilson_interval_is_sane_at_the_edges() -> None:
    full = wilson(10, 10)
    assert full["value"] == 1.0 and full["ci_high"] == 1.0 and 0.65 < full["ci_low"] < 0.75
    assert wilson(0, 10)["ci_low"] == 0.0
    assert wilson(0, 0) == {"value": None, "count": 0, "total": 0, "ci_low": None, "ci_high": None}
    assert wilson(5, 10)["ci_low"] == pytest.approx(0.2366, abs=1e-3)


def test_metrics_count_only_cases_that_state_the_expectation_and_errors_apart() -> None:
    results = [
        _r(
            "a",
            True,
            ["zh"],
            [Check(name="route", passed=True), Check(name="guard", passed=True, expected=True)],
            guard_triggered=True,
        ),
        _r(
            "b",
            False,
            ["zh"],
            [Check(name="route", passed=False), Check(name="guard", passed=False, expected=False)],
            guard_triggered=True,
        ),
        _r("c", True, ["en"], [Check(name="citations", passed=True)], guard_triggered=False),
        _r("d", False, ["en"], [Check(name="route", passed=False)], error="ProviderError: down"),
        _r("e", False, ["en"], [], error="ProviderError: slow down", error_kind="rate_limit"),
    ]
    s = summarize("run", "mock", results)
    m = s.metrics
    assert (m["pass_rate"]["count"], m["pass_rate"]["total"]) == (2, 5)  # errors are failures
    assert (m["answered_pass_rate"]["count"], m["answered_pass_rate"]["total"]) == (2, 3)
    # a and b: the errored d's degraded answer is never a route miss
    assert (m["route_accuracy"]["count"], m["route_accuracy"]["total"]) == (1, 2)
    assert (m["citation_completeness"]["count"], m["citation_completeness"]["total"]) == (1, 1)
    assert m["errors"] == 2 and (m["error_rate"]["count"], m["error_rate"]["total"]) == (2, 5)
    assert s.errors_by_kind == {"other": 1, "rate_limit": 1}
    assert (m["guard_triggered_rate"]["count"], m["guard_triggered_rate"]["total"]) == (2, 5)
    assert s.guard_confusion == {"tp": 1, "fp": 1, "fn": 0, "tn": 0}
    assert s.per_tag["zh"]["pass_rate"]["value"] == 0.5
    assert s.per_tag["en"]["pass_rate"]["count"] == 1


def test_an_empty_run_summarises_to_nothing() -> None:
    assert summarize("run", "mock", []).cases == 0


def test_repeats_get_a_verdict_per_case_and_intervals_that_cluster_by_case() -> None:
    outcomes = {
        "always": [True, True, True],  # stable pass
        "sometimes": [True, False, False],  # flaky
        "never": [False, False, False],  # stable fail
        "always2": [True, True, True],  # stable pass
    }
    results = [
        _r(case, ok, ["t"], [Check(name="route", passed=ok)], repeat=k)
        for case, runs in outcomes.items()
        for k, ok in enumerate(runs)
    ]
    s = summarize("run", "mock", results)
    assert s.repeats == {
        "k": 3,
        "cases": 4,
        "stable_pass": 2,
        "flaky": 1,
        "stable_fail": 1,
        "pass_at_k": 0.75,  # all but "never" pass at least once in 3
        "pass_hat_k": 0.5,  # only the two stable ones pass every time
        "short": 0,  # every case answered all 3
        "unanswered": 0,
        "flaky_cases": ["sometimes"],
    }
    rate = s.metrics["pass_rate"]
    assert (rate["count"], rate["total"], rate["clustered"]) == (7, 12, 4)
    independent = wilson(7, 12)  # as if the 12 trials were 12 cases
    assert rate["ci_high"] - rate["ci_low"] > independent["ci_high"] - independent["ci_low"]


def test_a_run_without_repeats_has_no_repeat_verdicts() -> None:
    s = summarize("run", "mock", [_r("a", True, [], []), _r("b", False, [], [])])
    assert s.repeats is None and "clustered" not in s.metrics["pass_rate"]


def _repeated(outcomes: dict[str, list[bool | None]]) -> list[CaseResult]:
    """Each case's repeats: True passed, False failed, None errored."""
    return [
        _r(case, bool(ok), ["t"], [] if ok is None else [Check(name="route", passed=ok)],
           repeat=k, **({"error": "ProviderError: 529"} if ok is None else {}))
        for case, runs in outcomes.items()
        for k, ok in enumerate(runs)
    ]  # fmt: skip


def test_a_case_with_errored_repeats_is_read_over_its_answered_ones_and_k_stays() -> None:
    # 10 cases × 3: 6 stable pass (one of them answered only once), 2 flaky, 2 stable fail
    outcomes: dict[str, list[bool | None]] = {f"p{i}": [True] * 3 for i in range(5)}
    outcomes |= {
        "errored-twice": [None, True, None],  # contributes over its one answered repeat
        "flaky1": [True, False, True],
        "flaky2": [False, False, True],
        "fail1": [False] * 3,
        "fail2": [False] * 3,
    }
    r = summarize("run", "anthropic", _repeated(outcomes)).repeats
    assert r is not None
    assert (r["k"], r["cases"], r["short"], r["unanswered"]) == (3, 10, 1, 0)
    assert (r["pass_at_k"], r["pass_hat_k"]) == (0.8, 0.6)  # not pass@1 = pass^1 = 0.70
    assert (r["stable_pass"], r["flaky"], r["stable_fail"]) == (6, 2, 2)


def test_a_case_with_every_repeat_errored_is_counted_apart() -> None:
    r = summarize("run", "anthropic", _repeated({"a": [True, True], "b": [None, None]})).repeats
    assert r is not None and (r["k"], r["cases"], r["unanswered"], r["pass_at_k"]) == (2, 1, 1, 1.0)


@pytest.mark.parametrize(
    ("outcomes", "count", "total"),
    [
        # 20 cases × 4 repeats, every one passed: 80/80 is not certainty
        ({f"c{i}": [True] * 4 for i in range(20)}, 80, 80),
        # 4 cases each passing 1 of 3: every case alike, yet 4/12 is not exactly a third
        ({f"c{i}": [True, False, False] for i in range(4)}, 4, 12),
        # one case failed every repeat
        ({**{f"c{i}": [True] * 3 for i in range(9)}, "bad": [False] * 3}, 27, 30),
    ],
)
def test_a_repeated_rate_interval_is_never_zero_width(
    outcomes: dict[str, list[bool | None]], count: int, total: int
) -> None:
    rate = summarize("run", "mock", _repeated(outcomes)).metrics["pass_rate"]
    assert (rate["count"], rate["total"]) == (count, total)
    assert rate["ci_high"] - rate["ci_low"] > 0.05
    assert rate["ci_low"] <= rate["value"] <= rate["ci_high"]


def test_identical_repeats_give_the_interval_of_one_repeat() -> None:
    once = {f"c{i}": [i % 4 != 0] for i in range(20)}  # 15 of 20 pass
    thrice = {case: runs * 3 for case, runs in once.items()}
    one = summarize("run", "mock", _repeated(once)).metrics["pass_rate"]
    three = summarize("run", "mock", _repeated(thrice)).metrics["pass_rate"]
    assert (one["value"], one["ci_low"], one["ci_high"]) == (
        three["value"],
        three["ci_low"],
        three["ci_high"],
    )
