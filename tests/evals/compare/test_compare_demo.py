"""`make compare-demo`, as CI can run it: two models behind a fake Messages API, each run
through the real SDK with a cassette, then compared and gated. The sloppy one must come out
worse with confidence, its fabrications caught by the guard and the audit; a second run, after
the demo fixtures were built again, replays every reply from the cassettes, makes no call and
leaves the cassette folder byte for byte as it was.

The test runs the two suites where each mistake shows (structured: the tool skipped; narrative:
the prose), 135 cases rather than the golden set's 350: the verdicts are as sure on them (Holm
p < 0.01 for both), and the rest of the set only makes the demo take longer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import invoke
from tests.fakes import compare_demo
from tests.pg_stores import Place

ROOT = Path(__file__).parents[3]


def _fixtures(stores: list[str], cwd: Path) -> None:
    """`make fixtures`: the demo decks, fact store and corpus, built anew."""
    built = invoke("fixtures", *stores, cwd=cwd)
    assert built.returncode == 0, built.stderr


def _bytes(folder: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder (None) under ``folder``."""
    return {
        str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None
        for p in sorted(folder.rglob("*"))
    }


@pytest.mark.slow
def test_the_sloppy_model_is_found_worse_and_its_fabrications_caught(
    tmp_path: Path, place: Place, capsys: pytest.CaptureFixture[str]
) -> None:
    stores = ["--db", str(place("fact_metric.db")), "--corpus", str(place("c.db"))]
    _fixtures(stores, tmp_path)
    args = [
        "--out", str(tmp_path / "demo"), "--golden", str(ROOT / "golden"), *stores,
        "--filter", "suite:structured or suite:narrative",
    ]  # fmt: skip
    assert compare_demo.main(args) == 0  # 0: the gate refused the sloppy model
    first = capsys.readouterr().out
    assert "== sloppy-1: 0 API calls" not in first  # the first time records

    compared = json.loads((tmp_path / "demo" / "compare.json").read_text("utf-8"))
    page = (tmp_path / "demo" / "compare.html").read_text("utf-8")
    assert 'data-metric="model_prose_clean"' in page  # the comparison as a page too
    verdicts = {m["name"]: m["verdict"] for m in compared["metrics"]}
    assert verdicts["model_prose_clean"] == "worse" and verdicts["model_tool_use"] == "worse"
    assert verdicts["pass_rate"] == "no detectable difference"  # the engine held
    assert not compared["gate"]["passed"]
    sloppy = json.loads((tmp_path / "demo" / "sloppy-1" / "summary.json").read_text("utf-8"))
    metrics = sloppy["metrics"]
    assert metrics["raw_unsupported"]["numbers"] > 0  # the audit read the raw prose
    assert metrics["narrative_removed"]["numbers"] > 0  # the guard took them out
    assert metrics["unsupported_numbers"]["numbers"] == 0  # none reached an answer

    tapes = tmp_path / "demo" / "cassettes"
    recorded = _bytes(tapes)
    _fixtures(stores, tmp_path)  # `make compare-demo` builds the fixtures again before every run
    assert compare_demo.main(args) == 0
    again = capsys.readouterr().out
    assert "== careful-1: 0 API calls" in again and "== sloppy-1: 0 API calls" in again
    assert _bytes(tapes) == recorded  # not a file more, less or changed
