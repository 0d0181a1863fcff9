"""`ragspine eval bless` as a user runs it: it says what it blesses (the cases that regressed
against the current baseline, the thresholds the run breaks) and refuses them without --force;
the baseline it writes names no path of this machine."""

from __future__ import annotations

from pathlib import Path

from ragspine.evals.run.records import RESULTS_FILE, RUN_FILE, SUMMARY_FILE, read_run
from ragspine.store_location import is_postgres, parse_location
from tests.cli import invoke
from tests.evals.compare.test_diff import ROUTE_FAIL, make_run, result
from tests.fakes.corpora import Stores

GREEN = [result("a"), result("b"), result("c")]
REGRESSED = [result("a", failed=ROUTE_FAIL, route="narrative"), result("b"), result("c")]
FILES = (RUN_FILE, SUMMARY_FILE, RESULTS_FILE)


def _bytes(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in FILES}


def test_bless_says_what_it_blesses_and_refuses_regressions_and_broken_thresholds(
    tmp_path: Path,
) -> None:
    baseline = tmp_path / "evals" / "baseline"
    (tmp_path / "evals").mkdir()
    # beside the baseline folder, as evals/thresholds.yaml is: read without being named
    thresholds = tmp_path / "evals" / "thresholds.yaml"
    thresholds.write_text("min:\n  pass_rate: 1.0\n", "utf-8")
    green, worse = make_run(tmp_path / "green", GREEN), make_run(tmp_path / "worse", REGRESSED)

    first = invoke("eval", "bless", str(green), "--baseline", str(baseline))
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == [
        f"bless: {green} → {baseline} (3 results, mock, golden set golden)",
        f"no baseline in {baseline} yet: this run is the first",
        f"thresholds ({thresholds}): 0 broken",
        f"blessed {green} as {baseline}",
    ]
    before = _bytes(baseline)

    refused = invoke("eval", "bless", str(worse), "--baseline", str(baseline))
    assert refused.returncode == 1
    assert refused.stdout.splitlines() == [
        f"bless: {worse} → {baseline} (3 results, mock, golden set golden)",
        "against the current baseline: 1 regressed, 0 fixed, 0 new, 0 no longer run",
        "  - regressed: a: route (routed narrative, expected structured)",
        f"thresholds ({thresholds}): 1 broken",
        "  - metric pass_rate = 0.6667 is below its minimum 1",
    ]
    assert refused.stderr == (
        f"error: {worse}: not blessed: 1 regression(s) and 1 broken threshold(s) against "
        f"{baseline}; review them (ragspine eval diff {baseline} {worse}), then bless with "
        "--force\n"
    )
    assert _bytes(baseline) == before  # nothing written

    forced = invoke("eval", "bless", str(worse), "--baseline", str(baseline), "--force")
    assert forced.returncode == 0, forced.stderr
    assert forced.stdout.splitlines()[-1] == (
        f"blessed {worse} as {baseline}, with 1 regression(s) and 1 broken threshold(s) (--force)"
    )
    assert _bytes(baseline) != before


def test_bless_reads_the_thresholds_it_is_given(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline"
    invoke("eval", "bless", str(make_run(tmp_path / "green", GREEN)), "--baseline", str(baseline))
    lines = tmp_path / "lines.yaml"
    lines.write_text("max:\n  errors: 0\nmin:\n  pass_rate: 0.5\n", "utf-8")
    worse = make_run(tmp_path / "worse", [*GREEN[:2], result("c", error="boom")])
    out = invoke(
        "eval", "bless", str(worse), "--baseline", str(baseline), "--thresholds", str(lines)
    )
    assert out.returncode == 1
    assert f"thresholds ({lines}): 1 broken" in out.stdout
    assert "  - metric errors = 1 is above its maximum 0" in out.stdout
    assert "1 regression(s) and 1 broken threshold(s)" in out.stderr  # c: error now


GOLDEN = """\
defaults: {reference_date: 2025-06-30}
cases:
  - id: path-cn
    question: 中国内地FY2024的REVENUE是多少
    expect: {route: structured, statuses: [found]}
  - id: path-hk
    question: 香港FY2024的REVENUE是多少
    expect: {route: structured, statuses: [found]}
"""


def _kept(location: Path | str) -> str:
    """A store outside the project as a baseline keeps it: a file by its name alone, a database
    by its URL as printed (a server, not a path of this machine; never its password)."""
    return str(parse_location(location)) if is_postgres(location) else Path(location).name


def test_a_baseline_names_no_path_of_this_machine(tmp_path: Path, facts_alone: Stores) -> None:
    """A run given absolute paths (its golden set, its stores, a cassette, which the endpoint
    names too): blessed from inside the project, each path under it is stored relative; one
    outside it, by its name alone."""
    db, corpus = facts_alone
    project = tmp_path / "project"
    golden = project / "golden"
    golden.mkdir(parents=True)
    (golden / "paths.yaml").write_text(GOLDEN, "utf-8")
    run, tape = project / "reports" / "run", project / "tape"
    ran = invoke(
        "eval", "run", "--golden", str(golden), "--db", str(db), "--corpus", str(corpus),
        "--out", str(run),
        "--cassette", str(tape), "--cassette-mode", "record",
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert str(tape) in (read_run(run).endpoint or "")

    blessed = invoke("eval", "bless", "reports/run", "--baseline", "evals/baseline", cwd=project)
    assert blessed.returncode == 0, blessed.stderr
    baseline = project / "evals" / "baseline"
    for name in FILES:
        text = (baseline / name).read_text("utf-8")
        assert str(tmp_path) not in text and "/tmp/" not in text, name
    record = read_run(baseline)
    assert record.golden_path == "golden"  # under the project: relative
    assert record.options["cassette"] == "tape" and record.endpoint == "cassette tape (record)"
    assert record.options["db"] == _kept(db)  # outside it: the name alone
    assert record.options["corpus"] == _kept(corpus)
