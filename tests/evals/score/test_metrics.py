"""Metrics declared once: a new scorer with a rate reaches score(), the summary, the report,
the console headline and the gate without any other list to edit."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.evals.compare.diff_render import _delta
from ragspine.evals.compare.gate import ThresholdsError, load_thresholds
from ragspine.evals.golden.suite import GoldenCase
from ragspine.evals.report.markdown import headline_text, render_report
from ragspine.evals.run.records import CaseResult, Check, RunRecord
from ragspine.evals.score import scorers
from ragspine.evals.score.metrics import (
    better,
    counted_fields,
    headline_names,
    metric_names,
    scored_rates,
)
from ragspine.evals.score.scorers import Observed, scorer
from ragspine.evals.score.summary import summarize
from tests.evals.compare.test_diff import ROUTE_FAIL, result
from tests.evals.score.test_scorers import _case, _seen


@pytest.fixture
def with_a_new_scorer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registers ``answer_short`` (feeds ``brevity``) on a copy of the registry."""
    monkeypatch.setattr(scorers, "SCORERS", list(scorers.SCORERS))

    @scorer("answer_short", rate="brevity")
    def score_answer_short(case: GoldenCase, seen: Observed) -> Check:
        ok = len(seen.answer) < 20
        return Check(name="answer_short", passed=ok, why="" if ok else "too long")


def test_a_registered_scorer_is_scored_summarised_reported_and_gateable(
    with_a_new_scorer: None, tmp_path: Path
) -> None:
    checks = scorers.score(_case(), _seen())
    assert [c.name for c in checks if c.name == "answer_short"] == ["answer_short"]
    result = scorers.score(_case(), _seen(answer="short"))
    rows = [
        CaseResult(case_id="a", passed=True, checks=result),
        CaseResult(case_id="b", passed=False, checks=checks),
    ]
    summary = summarize("r", "mock", rows)
    assert (summary.metrics["brevity"]["count"], summary.metrics["brevity"]["total"]) == (1, 2)
    assert "brevity" in headline_names() and "brevity" in metric_names()
    assert "brevity                 0.500  (1/2" in headline_text(summary)
    record = RunRecord(golden_path="g", golden_hash="h", provider="mock")
    assert "| brevity " in render_report(record, summary, rows)
    thresholds = tmp_path / "t.yaml"
    thresholds.write_text("min:\n  brevity: 0.9\n", "utf-8")
    assert load_thresholds(thresholds).min == {"brevity": 0.9}


def test_without_the_scorer_its_metric_is_unknown_to_the_gate(tmp_path: Path) -> None:
    thresholds = tmp_path / "t.yaml"
    thresholds.write_text("min:\n  brevity: 0.9\n", "utf-8")
    with pytest.raises(ThresholdsError, match=r"min\.brevity: unknown metric; known: pass_rate"):
        load_thresholds(thresholds)


@pytest.mark.parametrize(
    ("name", "way"),
    [
        ("pass_rate", "higher"),  # a rate to raise
        ("route_accuracy", "higher"),  # a scorer's rate
        ("errors", "lower"),  # a count to lower
        ("unsupported_numbers.cases", "lower"),  # a leaf takes its metric's direction
        ("latency_ms.p95", "lower"),  # slower is worse
        ("guard_triggered_rate", None),  # neither: how often the guard fired
        ("raw_unsupported.numbers", None),  # neither: a measure of the model, not the engine
        ("no_such_metric", None),  # unknown: no verdict rather than a guess
    ],
)
def test_each_metric_says_which_way_is_better(name: str, way: str | None) -> None:
    assert better(name) == way


@pytest.mark.parametrize(
    ("name", "delta", "shown"),
    [
        ("pass_rate", 0.01, "+0.01 better"),  # up is better
        ("pass_rate", -0.5, "-0.5 worse"),  # down is worse
        ("errors", 2, "+2 worse"),  # up is worse
        ("latency_ms.p50", -0.2, "-0.2 better"),  # a leaf: down is better
        ("guard_triggered_rate", 0.1, "+0.1"),  # no direction: no verdict
        ("errors", 0, "0"),  # no change: no verdict either
        ("errors", None, "—"),  # missing on one side
    ],
)
def test_the_diff_marks_a_change_better_or_worse(
    name: str, delta: float | None, shown: str
) -> None:
    assert _delta(name, delta) == shown


def test_only_scores_are_scored_rates_and_counted_fields_exist() -> None:
    rates = scored_rates()
    assert rates["pass_rate"] == (None, "all")  # an outage is a failure of the whole case
    assert rates["answered_pass_rate"] == (None, "answered")
    assert rates["route_accuracy"] == ("route", "answered")  # never a route miss
    assert "guard_triggered_rate" not in rates  # a share of all cases, not a score
    assert "error_rate" not in rates
    assert counted_fields() == {
        "unsupported_numbers": "unsupported_numbers",
        "raw_unsupported": "raw_unsupported",
        "narrative_removed": "guard_removed",
    }
    assert set(counted_fields().values()) <= set(CaseResult.model_fields)


def test_the_console_headline_has_a_line_per_headline_metric() -> None:
    results = [
        result("a", usage={"input_tokens": 3, "output_tokens": 4}, latency_ms=10.0),
        result(
            "b",
            failed=ROUTE_FAIL,
            latency_ms=20.0,
            guard_triggered=True,
            unsupported_numbers=["42"],
            guard_removed=2,
        ),
    ]
    assert headline_text(summarize("r", "mock", results)).splitlines() == [
        "cases: 2  errors: 0",  # errors and tokens are not headline lines of their own
        "pass_rate               0.500  (1/2, 95% CI 0.095–0.905)",
        "route_accuracy          0.500  (1/2, 95% CI 0.095–0.905)",  # rates nothing judged: none
        "answered_pass_rate      0.500  (1/2, 95% CI 0.095–0.905)",
        "error_rate              0.000  (0/2, 95% CI 0.000–0.658)",
        "guard_triggered_rate    0.500  (1/2, 95% CI 0.095–0.905)",
        "unsupported_numbers     1 in 1 cases",
        "raw_unsupported         0 in 0 cases",
        "narrative_removed       2 in 1 cases",
        "latency_ms              p50 15.0  p95 19.5",
    ]
    assert headline_text(summarize("r", "mock", [])).splitlines() == [
        "cases: 0  errors: 0",
        "unsupported_numbers     0 in 0 cases",  # an empty run still says so
    ]
