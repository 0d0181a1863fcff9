"""`ragspine eval compare` and `eval gate` with the case as the unit, on run folders written as
`eval run` writes them: repeats that agree are one case's evidence, an outage is inconclusive,
the primary rate and the family are judged at their own levels."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine.evals.compare.family import CompareConfig
from ragspine.evals.compare.paired import COMPARE_JSON, compare_runs
from ragspine.evals.compare.paired_md import COMPARE_MD
from ragspine.evals.run.records import (
    RESULTS_FILE,
    RUN_FILE,
    SUMMARY_FILE,
    CaseResult,
    RunRecord,
    result_line,
    write_json,
)
from ragspine.evals.score.summary import summarize
from tests.cli import Ran, invoke
from tests.evals.compare.test_compare import res

ROOT = Path(__file__).parents[3]
IDS = [f"c{i:03d}" for i in range(100)]


def write_run(folder: Path, results: list[CaseResult], *, model: str = "m", repeat: int = 1) -> str:
    """run.json, results.jsonl and summary.json, as a finished `eval run --repeat N` leaves them."""
    folder.mkdir(parents=True)
    record = RunRecord(
        run_id=f"run-{folder.name}",
        status="complete",
        golden_path="golden",
        golden_hash="sha256:feed",
        provider="anthropic",
        model=model,
        options={"repeat": repeat},
        cases_planned=len(results),
    )
    write_json(folder / RUN_FILE, record)
    (folder / RESULTS_FILE).write_text("".join(map(result_line, results)), "utf-8")
    write_json(folder / SUMMARY_FILE, summarize(record.run_id, record.provider, results))
    return str(folder)


def repeated(failing: set[str], k: int, ids: list[str] = IDS) -> list[CaseResult]:
    """Every case k times, every repeat alike: the ``failing`` ones miss their route."""
    return [
        res(i, repeat=r, **({"fail": ("route",), "route": "semantic"} if i in failing else {}))
        for i in ids
        for r in range(k)
    ]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip("|").split("|")]


def compare(a: str, b: str, out: Path, *extra: str) -> tuple[Ran, dict[str, Any]]:
    ran = invoke("eval", "compare", a, b, "--out", str(out), *extra)
    return ran, json.loads((out / COMPARE_JSON).read_text("utf-8"))


@pytest.mark.parametrize(
    ("failing", "verdict", "code"),
    [
        # 4 of 100 cases always fail in B: p = 2/2⁴ = 0.125 at --repeat 1, and at --repeat 3 too
        (4, "no detectable difference", 0),
        # 8 of 100: p = 2/2⁸ = 0.0078, worse at either
        (8, "worse", 1),
    ],
)
def test_the_same_evidence_at_one_and_three_repeats_gives_the_same_verdict_and_p(
    tmp_path: Path, failing: int, verdict: str, code: int
) -> None:
    judged: dict[int, list[dict[str, Any]]] = {}
    for k in (1, 3):
        a = write_run(tmp_path / f"a{k}", repeated(set(), k), repeat=k)
        b = write_run(tmp_path / f"b{k}", repeated(set(IDS[:failing]), k), model="n", repeat=k)
        ran, record = compare(a, b, tmp_path / f"out{k}", "--gate")
        assert ran.returncode == code, ran.stderr
        assert f"100 cases ({100 * k} pairs)" in ran.stdout
        judged[k] = record["metrics"]
        pass_rate = next(m for m in record["metrics"] if m["name"] == "pass_rate")
        assert pass_rate["verdict"] == verdict
        assert pass_rate["p"] == pytest.approx(2 / 2**failing)
    assert judged[1] == judged[3]  # every rate: shares, Δ, interval, p, power, verdict


def test_an_outage_is_inconclusive_in_compare_and_named_as_errors_by_both_gates(
    tmp_path: Path,
) -> None:
    ids = IDS[:40]
    down = [
        res(i, error="ProviderError: 529 overloaded", error_kind="overloaded", usage={})
        for i in ids
    ]
    a = write_run(tmp_path / "a", repeated(set(), 1, ids))
    b = write_run(tmp_path / "b", down, model="n")
    ran, record = compare(a, b, tmp_path / "out", "--gate")
    assert ran.returncode == 1
    assert record["inconclusive"] == "B errored on 40 cases"
    verdicts = {m["name"]: m["verdict"] for m in record["metrics"]}
    assert verdicts["pass_rate"] == "inconclusive: B errored on 40 cases"
    assert "worse" not in verdicts.values()
    assert "inconclusive: B errored on 40 cases: no rate was judged" in ran.stdout
    assert ran.stderr.startswith("gate: FAILED\n  - inconclusive: B errored on 40 cases (B 40 of")
    assert "is worse" not in ran.stderr
    text = (tmp_path / "out" / COMPARE_MD).read_text("utf-8")
    assert "> **Inconclusive: B errored on 40 cases.**" in text
    gated = invoke(
        "eval", "gate", "--baseline", a, "--current", b,
        "--thresholds", str(ROOT / "evals" / "thresholds.yaml"),
    )  # fmt: skip
    assert gated.returncode == 1
    assert "inconclusive: the current run errored on 40 case(s)" in gated.stderr
    assert "regressed" not in gated.stderr and "below its minimum" not in gated.stderr


def test_a_run_under_its_error_limit_is_judged_over_the_cases_both_answered(
    tmp_path: Path,
) -> None:
    results = repeated(set(), 1, IDS[:40])
    results[0] = res("c000", error="ProviderError: timeout")  # 1 of 40: under the 0.1 limit
    a = write_run(tmp_path / "a", repeated(set(), 1, IDS[:40]))
    ran, record = compare(a, write_run(tmp_path / "b", results), tmp_path / "out", "--gate")
    assert ran.returncode == 0 and record["inconclusive"] is None
    pass_rate = next(m for m in record["metrics"] if m["name"] == "pass_rate")
    assert (pass_rate["cases"], pass_rate["b"], pass_rate["verdict"]) == (
        39,
        1.0,  # the errored case is no failure: it is left out
        "no detectable difference",
    )
    stricter = compare(a, str(tmp_path / "b"), tmp_path / "out2", "--max-error-rate", "0.01")[1]
    assert stricter["inconclusive"] == "B errored on 1 cases"


def test_pass_at_k_pass_hat_k_and_flaky_cases_are_compared_with_their_delta(
    tmp_path: Path,
) -> None:
    ids = IDS[:10]
    a = write_run(tmp_path / "a", repeated(set(), 3, ids), repeat=3)
    b_results = repeated(set(), 3, ids)
    b_results[0] = res("c000", repeat=0, error="ProviderError: 529")  # read over 1 answered
    b_results[1] = res("c000", repeat=1, error="ProviderError: 529")
    b_results[3] = res("c001", repeat=0, fail=("route",), route="semantic")  # flaky
    b_results[6:9] = [res("c002", repeat=r, fail=("route",), route="semantic") for r in range(3)]
    ran, record = compare(a, write_run(tmp_path / "b", b_results, repeat=3), tmp_path / "out")
    # the console shows them too, under the rates, and the primary rate's power in words
    assert "| pass@3 (some repeat passes)  | 1   | 0.9 | -0.100 |" in ran.stdout
    assert "| flaky (cases)                | 0   | 1   | 1      |" in ran.stdout
    assert "would be found 80% of the time" in ran.stdout
    rb = record["b"]["repeats"]
    assert (rb["k"], rb["pass_at_k"], rb["pass_hat_k"], rb["flaky"], rb["short"]) == (
        3,
        0.9,  # c002 never passes; c001 passes some repeat; c000 its one answered
        0.8,  # c001 and c002 fail some repeat
        1,
        1,
    )
    assert record["a"]["repeats"]["pass_hat_k"] == 1.0
    text = (tmp_path / "out" / COMPARE_MD).read_text("utf-8")
    assert "| pass@3 (some repeat passes)  | 1   | 0.9 | -0.100 |" in text
    assert "| flaky (cases)                | 0   | 1   | 1      |" in text
    page = (tmp_path / "out" / "compare.html").read_text("utf-8")
    repeats_table = page.split('data-chart="repeats-compare"')[1].split("</table>")[0]
    assert "pass@3 (some repeat passes)" in repeats_table and "-0.100" in repeats_table


def test_copies_of_the_primary_are_not_holm_adjusted_against_it(tmp_path: Path) -> None:
    # 6 of 40 cases regress on their route only: pass_rate, answered_pass_rate and
    # route_accuracy are one test (p = 2/2⁶ = 0.031), not three diluting each other
    ids = IDS[:40]
    a = write_run(tmp_path / "a", repeated(set(), 1, ids))
    b = write_run(tmp_path / "b", repeated(set(ids[:6]), 1, ids))
    c = compare_runs(Path(a), Path(b))
    for name in ("pass_rate", "answered_pass_rate", "route_accuracy"):
        m = c.metric(name)
        assert (m.p_adjusted, m.verdict) == (pytest.approx(0.03125), "worse"), name
    assert c.metric("route_accuracy").same_as == "pass_rate"
    assert [r for r in c.gate.reasons if "is worse" in r] == [
        "pass_rate is worse: Δ -0.150 (95% CI -0.259 to -0.027, p 0.0313), beyond the margin 0"
    ]  # its copies do not repeat the reason


def test_the_family_is_holm_adjusted_over_its_distinct_tests_and_the_rest_not_judged(
    tmp_path: Path,
) -> None:
    ids = IDS[:40]
    a = write_run(tmp_path / "a", repeated(set(), 1, ids))
    b_results = repeated(set(ids[:7]), 1, ids)  # 7 route misses
    b_results[10] = res(ids[10], fail=("statuses",), statuses=["missing"])  # 1 status miss
    b = write_run(tmp_path / "b", b_results)
    config = CompareConfig(primary="pass_rate", family=["route_accuracy", "status_accuracy"])
    c = compare_runs(Path(a), Path(b), config=config)
    route, status = c.metric("route_accuracy"), c.metric("status_accuracy")
    assert route.p == pytest.approx(2 / 2**7) and status.p == 1.0
    assert route.p_adjusted == pytest.approx(2 * 2 / 2**7)  # Holm over two tests
    assert (route.role, route.verdict) == ("family", "worse")
    for name in ("answered_pass_rate", "guard_accuracy"):  # in neither: shown, not judged
        m = c.metric(name)
        assert (m.role, m.p, m.p_adjusted, m.verdict) == (None, None, None, "not judged")
        assert m.delta is not None  # its difference is still shown


def test_compare_reads_the_family_from_a_thresholds_file_and_names_a_bad_one(
    tmp_path: Path,
) -> None:
    ids = IDS[:10]
    a = write_run(tmp_path / "a", repeated(set(), 1, ids))
    b = write_run(tmp_path / "b", repeated(set(), 1, ids))
    good = tmp_path / "t.yaml"
    good.write_text("compare:\n  primary: pass_rate\n  family: [route_accuracy]\n", "utf-8")
    ran, record = compare(a, b, tmp_path / "out", "--thresholds", str(good))
    assert ran.returncode == 0 and record["family"] == ["route_accuracy"]
    status = next(m for m in record["metrics"] if m["name"] == "status_accuracy")
    assert (status["p"], status["verdict"]) == (None, "not judged")
    row = next(ln for ln in ran.stdout.splitlines() if ln.startswith("| status_accuracy"))
    assert row.split("|")[-2].strip() == "not judged"
    lines = (tmp_path / "out" / COMPARE_MD).read_text("utf-8").splitlines()
    head = next(ln for ln in lines if ln.startswith("| metric"))
    md_row = next(ln for ln in lines if ln.startswith("| status_accuracy"))
    cells = dict(zip(_cells(head), _cells(md_row), strict=True))
    assert cells["p (exact)"] == cells["adjusted p"] == "—"  # no test: "—", never p = 1
    bad = tmp_path / "bad.yaml"
    bad.write_text("compare:\n  primary: errors\n", "utf-8")
    refused = invoke("eval", "compare", a, b, "--thresholds", str(bad))
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert refused.stderr.startswith(f"error: {bad}: compare.primary.errors: not a rate")
