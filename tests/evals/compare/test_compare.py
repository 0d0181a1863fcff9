"""compare_runs and `eval compare` on run folders built by hand: no engine, only the records.

Every case carries every registered check, so every rate is judged and a verdict is never
"not judged" by accident; ``fail`` names the checks a result fails.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from ragspine.evals.compare.cli import compare_command
from ragspine.evals.compare.paired import (
    COMPARE_JSON,
    COMPARE_MD,
    Comparison,
    compare_runs,
    render_compare,
    write_compare,
)
from ragspine.evals.compare.stats import mcnemar_exact
from ragspine.evals.run.records import (
    RESULTS_FILE,
    RUN_FILE,
    SUMMARY_FILE,
    CaseResult,
    Check,
    RecordError,
    RunRecord,
    result_line,
    write_json,
)
from ragspine.evals.score.metrics import all_metrics
from ragspine.evals.score.summary import summarize
from tests.cli import Ran

CHECKS = [m.check for m in all_metrics() if m.kind == "rate" and m.check]
RATES = [m.name for m in all_metrics() if m.kind == "rate"]
IDS = [f"c{i:02d}" for i in range(40)]


def res(case_id: str, *, fail: tuple[str, ...] = (), repeat: int = 0, **kw: Any) -> CaseResult:
    """A case judged by every check; an errored one has no checks, as the runner leaves it."""
    error = kw.get("error")
    checks = [] if error else [Check(name=n, passed=n not in fail) for n in CHECKS]
    return CaseResult(
        case_id=case_id,
        repeat=repeat,
        passed=not fail and error is None,
        checks=checks,
        tags=kw.pop("tags", ["demo"]),
        question=kw.pop("question", f"what about {case_id}?"),
        route=kw.pop("route", "structured"),
        statuses=kw.pop("statuses", ["found"]),
        usage=kw.pop("usage", {"input_tokens": 100, "output_tokens": 10}),
        **kw,
    )


def run(
    folder: Path,
    results: list[CaseResult],
    *,
    model: str = "model-a",
    golden_hash: str = "sha256:feed",
    cost: dict[str, Any] | None = None,
) -> Path:
    """A run folder: run.json and results.jsonl, and summary.json with this cost when given."""
    folder.mkdir(parents=True)
    record = RunRecord(
        run_id=f"run-{folder.name}",
        status="complete",
        golden_path="golden",
        golden_hash=golden_hash,
        provider="anthropic",
        model=model,
        cases_planned=len(results),
    )
    write_json(folder / RUN_FILE, record)
    (folder / RESULTS_FILE).write_text("".join(map(result_line, results)), "utf-8")
    if cost is not None:
        summary = summarize(record.run_id, record.provider, results)
        write_json(folder / SUMMARY_FILE, summary.model_copy(update={"cost": cost}))
    return folder


def green(ids: list[str] = IDS) -> list[CaseResult]:
    return [res(i) for i in ids]


def worse(ids: list[str] = IDS, n: int = 15) -> list[CaseResult]:
    """The first ``n`` cases miss their route; the rest pass."""
    return [
        res(i, fail=("route",), route="semantic") if k < n else res(i) for k, i in enumerate(ids)
    ]


def metric(c: Comparison, name: str) -> Any:
    return next(m for m in c.metrics if m.name == name)


def test_a_model_that_fails_15_of_40_passing_cases_is_worse_and_fails_the_gate(
    tmp_path: Path,
) -> None:
    a = run(tmp_path / "a", green())
    b = run(tmp_path / "b", worse(), model="model-b")
    c = compare_runs(a, b)
    pass_rate = metric(c, "pass_rate")
    assert (pass_rate.a, pass_rate.b, pass_rate.delta) == (1.0, 0.625, -0.375)
    assert (pass_rate.a_only, pass_rate.b_only, pass_rate.cases) == (15, 0, 40)
    assert pass_rate.p == pytest.approx(mcnemar_exact(15, 0))  # one repeat: McNemar's test
    assert pass_rate.ci_low < pass_rate.ci_high < 0
    assert pass_rate.role == "primary" and pass_rate.p_adjusted == pass_rate.p  # tested alone
    assert pass_rate.verdict == "worse"
    # the route miss is all that failed: route_accuracy is the same evidence, the same test
    route = metric(c, "route_accuracy")
    assert (route.same_as, route.p, route.verdict) == ("pass_rate", pass_rate.p, "worse")
    # the checks B still passes everywhere are not flagged
    assert metric(c, "status_accuracy").verdict == "no detectable difference"
    assert [r.case_id for r in c.regressed] == IDS[:15] and c.fixed == []
    assert not c.gate.passed
    assert any(r.startswith("pass_rate is worse") for r in c.gate.reasons)
    assert c.agreement[0].name == "route" and (c.agreement[0].agree, c.agreement[0].total) == (
        25,
        40,
    )
    assert (c.agreement[1].agree, c.agreement[1].total) == (40, 40)  # statuses


def test_a_margin_wider_than_the_interval_lets_a_worse_model_through(tmp_path: Path) -> None:
    a = run(tmp_path / "a", green())
    b = run(tmp_path / "b", worse())
    c = compare_runs(a, b, margin=0.9)
    assert metric(c, "pass_rate").verdict == "worse"  # still worse, but not beyond the margin
    assert c.gate.passed and c.gate.margin == 0.9


def test_two_identical_runs_show_no_detectable_difference_and_pass_the_gate(
    tmp_path: Path,
) -> None:
    a = run(tmp_path / "a", green())
    b = run(tmp_path / "b", green(), model="model-b")
    c = compare_runs(a, b)
    assert [m.name for m in c.metrics] == RATES
    for m in c.metrics:
        assert (m.verdict, m.delta, m.p) == ("no detectable difference", 0.0, 1.0), m.name
        assert m.ci_low is not None and m.ci_low == -m.ci_high < 0  # never zero-width
    assert c.gate.passed and c.gate.reasons == []
    assert c.regressed == c.fixed == c.errored == []
    assert (c.pairs, c.cases, c.a.left_out, c.b.left_out) == (40, 40, 0, 0)


def test_a_model_that_fixes_cases_is_better(tmp_path: Path) -> None:
    a = run(tmp_path / "a", worse(n=20))
    b = run(tmp_path / "b", green())
    c = compare_runs(a, b, margin=0.0)
    assert metric(c, "pass_rate").verdict == "better"
    assert len(c.fixed) == 20 and c.regressed == []
    assert c.gate.passed  # better is never a reason to fail


def test_an_unsupported_number_in_b_fails_the_gate_naming_the_case(tmp_path: Path) -> None:
    a = run(tmp_path / "a", green())
    b_results = green()
    b_results[3] = res("c03", unsupported_numbers=["42", "7.5"])
    b = run(tmp_path / "b", b_results)
    c = compare_runs(a, b)
    assert all(m.verdict == "no detectable difference" for m in c.metrics)
    assert not c.gate.passed
    assert c.gate.reasons == ["B has 2 unsupported number(s) in 1 result(s): c03 (42, 7.5)"]
    assert (c.a.unsupported_numbers, c.b.unsupported_numbers) == (0, 2)


def test_an_unsupported_number_in_a_alone_does_not_fail_the_gate(tmp_path: Path) -> None:
    a = run(tmp_path / "a", [res("c00", unsupported_numbers=["9"]), *green(IDS[1:])])
    b = run(tmp_path / "b", green())
    assert compare_runs(a, b).gate.passed


def test_errored_pairs_are_listed_apart_not_as_quality_flips(tmp_path: Path) -> None:
    a_results = green()
    a_results[1] = res("c01", error="ProviderError: 529 overloaded")
    b_results = green()
    b_results[0] = res("c00", error="ProviderError: timeout")
    b_results[5] = res("c05", fail=("statuses",), statuses=["missing"])  # one real regression
    c = compare_runs(run(tmp_path / "a", a_results), run(tmp_path / "b", b_results))
    assert [r.case_id for r in c.regressed] == ["c05"]  # c00 passed in A, errored in B: no flip
    assert c.fixed == []  # c01 errored in A and passed in B: no flip either
    assert [(e.case_id, e.error_a, e.error_b) for e in c.errored] == [
        ("c00", None, "ProviderError: timeout"),
        ("c01", "ProviderError: 529 overloaded", None),
    ]
    assert (c.a.errors, c.b.errors) == (1, 1)
    # every rate leaves both errored cases out: an error is no quality failure
    for name in ("pass_rate", "answered_pass_rate", "status_accuracy"):
        assert metric(c, name).cases == 38, name
    assert (metric(c, "pass_rate").a_only, metric(c, "pass_rate").b_only) == (1, 0)
    assert metric(c, "answered_pass_rate").same_as == "pass_rate"
    # per tag, too, an errored pair is counted apart, never as regressed or fixed
    (demo,) = c.per_tag
    assert (demo.pairs, demo.a_passed, demo.b_passed) == (40, 39, 38)
    assert (demo.fixed, demo.regressed, demo.errored) == (0, 1, 2)
    # agreement is over the answered pairs
    assert c.agreement[1].name == "statuses" and (c.agreement[1].agree, c.agreement[1].total) == (
        37,
        38,
    )
    text = render_compare(c)
    assert "### Errored pairs (not counted as flips) (2)" in text
    assert "### Regressed (pass → fail) (1)" in text


def test_only_the_cases_both_runs_hold_are_compared_and_the_rest_counted(tmp_path: Path) -> None:
    a = run(tmp_path / "a", green(IDS[:30]), golden_hash="sha256:old")
    b = run(tmp_path / "b", green(IDS[5:40]), golden_hash="sha256:new")
    c = compare_runs(a, b)
    assert (c.pairs, c.a.left_out, c.b.left_out, c.a.results, c.b.results) == (25, 5, 10, 30, 35)
    assert metric(c, "pass_rate").cases == 25
    text = render_compare(c)
    assert "left out: 5 results only in A, 10 only in B" in text
    assert "The golden sets differ" in text


def test_runs_with_no_case_in_common_are_refused(tmp_path: Path) -> None:
    a = run(tmp_path / "a", green(IDS[:10]), golden_hash="sha256:old")
    b = run(tmp_path / "b", green(IDS[10:20]), golden_hash="sha256:new")
    with pytest.raises(RecordError, match="share no case") as info:
        compare_runs(a, b)
    assert str(a) in str(info.value) and str(b) in str(info.value)
    assert "\n" not in str(info.value)


def test_repeats_are_paired_by_repeat_and_clustered_by_case(tmp_path: Path) -> None:
    a = run(tmp_path / "a", [res(i, repeat=r) for i in IDS[:10] for r in range(3)])
    b_results = [res(i, repeat=r) for i in IDS[:10] for r in range(3)]
    b_results[4] = res("c01", repeat=1, fail=("route",))
    c = compare_runs(a, b := run(tmp_path / "b", b_results))
    assert (c.pairs, c.cases) == (30, 10)
    assert [(r.case_id, r.repeat) for r in c.regressed] == [("c01", 1)]
    assert "- **c01** (repeat 1): what about c01?" in render_compare(c)
    assert b.exists()


def test_repeats_of_two_cases_are_not_ten_independent_failures(tmp_path: Path) -> None:
    # 10 cases × 5 repeats; B fails every repeat of 2 cases. Counted pair by pair McNemar saw
    # 10 of 10 discordant pairs one way (p ≈ 0.002); the case is the unit: 2 of 10 cases went
    # one way, p = 2 · 0.5² = 0.5.
    a = run(tmp_path / "a", [res(i, repeat=r) for i in IDS[:10] for r in range(5)])
    b_results = [
        res(i, repeat=r, fail=("route",) if i in {"c00", "c01"} else ())
        for i in IDS[:10]
        for r in range(5)
    ]
    c = compare_runs(a, run(tmp_path / "b", b_results))
    pass_rate = metric(c, "pass_rate")
    assert (pass_rate.a_only, pass_rate.b_only) == (2, 0) and pass_rate.p == 0.5
    assert pass_rate.ci_low < 0 < pass_rate.ci_high
    assert pass_rate.verdict == "no detectable difference"
    assert c.gate.passed
    assert c.cases == 10 and pass_rate.mde == 0.6  # six of ten cases all one way: p 0.031


def test_per_tag_counts_and_flips(tmp_path: Path) -> None:
    tags = {i: (["demo", "zh"] if k % 2 else ["demo", "en"]) for k, i in enumerate(IDS[:8])}
    a = run(tmp_path / "a", [res(i, tags=tags[i]) for i in IDS[:8]])
    b_results = [
        res(i, tags=tags[i], fail=("route",) if i in {"c01", "c03"} else ()) for i in IDS[:8]
    ]
    c = compare_runs(a, run(tmp_path / "b", b_results))
    per_tag = {t.tag: (t.pairs, t.a_passed, t.b_passed, t.fixed, t.regressed) for t in c.per_tag}
    assert per_tag == {"demo": (8, 8, 6, 0, 2), "en": (4, 4, 4, 0, 0), "zh": (4, 4, 2, 0, 2)}


def test_diff_and_compare_read_one_pairing_and_one_tally_per_tag(tmp_path: Path) -> None:
    """The two commands share their core: the same pairs, flips and per-tag counts; diff adds
    each run's whole pass rate per tag, compare keeps the tags of the pairs."""
    from ragspine.evals.compare.diff import diff_runs

    a = run(tmp_path / "a", [res(i, tags=["demo", "zh"]) for i in IDS[:6]])
    b_results = [res(i, tags=["demo", "zh"]) for i in IDS[1:6]]
    b_results[0] = res("c01", tags=["demo", "zh"], fail=("route",))
    b_results[1] = res("c02", tags=["demo", "zh"], error="ProviderError: timeout")
    b = run(tmp_path / "b", [*b_results, res("c40", tags=["demo", "en"])])
    d, c = diff_runs(a, b), compare_runs(a, b)
    assert c.per_tag == [t for t in d.per_tag if t.pairs]
    by_tag = {t.tag: t for t in d.per_tag}
    assert [t.tag for t in c.per_tag] == ["demo", "zh"]  # en is only in B's unpaired case
    en, zh = by_tag["en"], by_tag["zh"]
    assert (en.pairs, en.a, en.b, en.cases_b) == (0, None, 1.0, 1)
    assert (zh.pairs, zh.a_passed, zh.b_passed, zh.regressed, zh.errored) == (5, 5, 3, 1, 1)
    assert (zh.a, zh.b, zh.delta, zh.cases_a, zh.cases_b) == (1.0, 0.6, -0.4, 6, 5)
    assert [r.case_id for r in c.regressed] == ["c01"]  # an errored pair is no quality flip
    assert [x.case_id for x in d.regressed] == ["c01", "c02"]  # to diff, an error fails a case
    assert (d.missing_in_b, d.new_in_b, c.a.left_out, c.b.left_out) == (["c00"], ["c40"], 1, 1)


def test_tokens_are_summed_over_the_pairs_and_the_cost_is_shown_when_the_summary_has_one(
    tmp_path: Path,
) -> None:
    cached = {"input_tokens": 50, "output_tokens": 20, "cache_read_input_tokens": 30}
    a = run(tmp_path / "a", green(IDS[:4]))  # no summary.json: tokens only
    b = run(
        tmp_path / "b",
        [res(i, usage=cached) for i in IDS[:5]],
        cost={"usd": 0.0123, "price": "model-b", "as_of": "2026-01-01"},
    )
    c = compare_runs(a, b)
    assert c.a.tokens == {"input_tokens": 400, "output_tokens": 40}
    assert c.b.tokens == {"input_tokens": 200, "output_tokens": 80, "cache_read_input_tokens": 120}
    assert c.a.cost is None and c.b.cost is not None and c.b.cost["usd"] == 0.0123
    text = render_compare(c)
    assert "| cost (whole run)        | —   | $0.0123 |" in text
    assert "| cache_read_input_tokens | 0   | 120     |" in text


def test_the_power_note_reads_the_observed_discordance(tmp_path: Path) -> None:
    # no case differs: six cases all one way would be found (p = 2/2⁶), 6 of 40
    c = compare_runs(run(tmp_path / "a", green()), run(tmp_path / "b", green()))
    assert metric(c, "pass_rate").mde == 0.15
    assert (
        "A difference of 0.15 in pass_rate (6 of 40 cases) would be found 80% of the time"
        in render_compare(c)
    )
    # with 3 cases nothing could be found: said as too few, not as a size
    few = compare_runs(run(tmp_path / "a3", green(IDS[:3])), run(tmp_path / "b3", green(IDS[:3])))
    assert metric(few, "pass_rate").mde is None
    assert "With 3 cases no difference in pass_rate, however large, would be found" in (
        render_compare(few)
    )


def test_write_compare_writes_a_versioned_record_and_the_markdown(tmp_path: Path) -> None:
    a = run(tmp_path / "a", green())
    b = run(tmp_path / "b", worse(), model="model-b")
    c = compare_runs(a, b)
    write_compare(c, tmp_path / "out", gate=True)
    data = json.loads((tmp_path / "out" / COMPARE_JSON).read_text("utf-8"))
    assert data["schema_version"] == 2
    assert Comparison.model_validate(data) == c  # the record reads back as it was written
    with pytest.raises(ValueError, match="extra"):
        Comparison.model_validate({**data, "surprise": 1})
    text = (tmp_path / "out" / COMPARE_MD).read_text("utf-8")
    assert text.startswith("## Model comparison: anthropic:model-a → anthropic:model-b")
    assert "| metric" in text and "| p (exact)" in text and "| pass_rate " in text
    assert "### Gate: FAILED (margin 0)" in text
    assert "### Gate" not in render_compare(c)  # only with --gate


# -- the command ------------------------------------------------------------------------------


def cli(*args: str) -> Ran:
    """``ragspine eval compare``, on a throwaway group until the command is registered."""

    @click.group()
    def group() -> None:
        pass

    group.add_command(compare_command)
    result = CliRunner().invoke(group, ["compare", *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(result.exit_code, result.stdout, result.stderr)


def test_the_command_writes_into_b_and_its_gate_fails_a_worse_model(tmp_path: Path) -> None:
    a = run(tmp_path / "a", green())
    b = run(tmp_path / "b", worse())
    ran = cli(str(a), str(b), "--gate")
    assert ran.returncode == 1
    assert "| pass_rate " in ran.stdout and "worse" in ran.stdout
    assert "p (exact)" not in ran.stdout  # the console table is the short one
    assert f"compare: {b / COMPARE_MD}" in ran.stdout
    assert "gate: FAILED" in ran.stderr and "pass_rate is worse" in ran.stderr
    assert (b / COMPARE_JSON).exists()


@pytest.mark.parametrize(
    ("extra", "code", "said"),
    [
        # identical runs pass the gate
        (["--gate"], 0, "gate: passed"),
        # without --gate nothing is judged, so no gate line
        ([], 0, "compare: "),
    ],
)
def test_the_command_on_identical_runs(
    tmp_path: Path, extra: list[str], code: int, said: str
) -> None:
    a = run(tmp_path / "a", green())
    b = run(tmp_path / "b", green())
    out = tmp_path / "out"
    ran = cli(str(a), str(b), "--out", str(out), *extra)
    assert ran.returncode == code, ran.stderr
    assert said in ran.stdout
    assert ("gate:" in ran.stdout) == ("--gate" in extra)
    assert (out / COMPARE_MD).exists() and not (b / COMPARE_MD).exists()


def test_the_command_names_a_folder_that_is_not_a_run(tmp_path: Path) -> None:
    a = run(tmp_path / "a", green())
    ran = cli(str(a), str(tmp_path / "nowhere"))
    assert ran.returncode == 1
    assert ran.stderr.startswith("error: ") and "nowhere" in ran.stderr
    assert "Traceback" not in ran.stderr
