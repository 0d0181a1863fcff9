"""The fresh held-out questions of issue 27 (evals/meaning_fresh): `ragspine eval validate`
accepts both files, each case is tagged and says what is right, no question is in a suite the
parser is tuned on (nor in the first held-out suites), and `make evals-meaning-fresh`'s counts
read the harness's checks as they say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.meaning_fresh import another_quantity, counts, main, unknown_subject_answered
from ragspine.evals.golden.suite import GoldenCase, load_golden
from tests.cli import invoke

ROOT = Path(__file__).parents[3]
FRESH = ROOT / "evals" / "meaning_fresh"
FILES = {"acme": FRESH / "acme.yaml", "jinyu": FRESH / "jinyu.yaml"}
CLASSES = {"class1", "class2", "class3", "class4"}
LANGUAGES = {"zh", "zh-hant", "en"}


def _cases() -> list[GoldenCase]:
    return [c for file in FILES.values() for c in load_golden(file).cases]


@pytest.mark.parametrize("company", sorted(FILES))
def test_eval_validate_accepts_each_file(company: str) -> None:
    out = invoke("eval", "validate", "--golden", str(FILES[company]), cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok: ") and "1 files" in out.stdout


def test_eval_validate_accepts_both_together() -> None:
    out = invoke("eval", "validate", "--golden", str(FRESH), cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[1] == str(len(_cases()))


def test_there_are_enough_on_each_company_and_in_each_class() -> None:
    cases = _cases()
    assert len(cases) >= 30
    for company in FILES:
        mine = [c for c in cases if company in c.tags]
        assert len(mine) >= 15, company
        assert {cls for c in mine for cls in CLASSES & set(c.tags)} == CLASSES, company
    assert {lang for c in cases for lang in LANGUAGES & set(c.tags)} == LANGUAGES


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.id)
def test_each_case_is_tagged_and_says_what_is_right(case: GoldenCase) -> None:
    tags = set(case.tags)
    assert "fresh" in tags
    assert len(CLASSES & tags) == 1 and len(LANGUAGES & tags) == 1
    assert len({"acme", "jinyu"} & tags) == 1
    expect = case.expect
    cls = next(iter(CLASSES & tags))
    if cls == "class3":  # an unknown subject: declined, never a figure
        assert expect.declined
    elif cls == "class4":  # recall: the metric, found, with its value
        assert expect.metric and expect.statuses == ["found"] and expect.answer_contains
    else:  # a quantity: what is right, or at least that the base level is not
        assert expect.metric or expect.metrics or expect.declined or expect.answer_excludes
        if expect.declined:
            assert expect.answer_excludes
        if expect.metric:
            assert expect.answer_contains


def test_no_fresh_question_is_in_a_tuned_or_earlier_held_out_suite() -> None:
    others = {
        c.question
        for folder in (
            ROOT / "golden",
            ROOT / "examples" / "jinyu" / "golden",
            ROOT / "evals" / "meaning",
        )
        if folder.exists()
        for c in load_golden(folder).cases
    }
    assert not others & {c.question for c in _cases()}
    questions = [c.question for c in _cases()]
    assert len(questions) == len(set(questions))


def _result(case: str, tags: list[str], checks: list[dict[str, object]]) -> dict[str, object]:
    return {"case_id": case, "tags": tags, "passed": all(c["passed"] for c in checks),
            "checks": checks}  # fmt: skip


WRONG_METRIC = _result(
    "a",
    ["class1"],
    [{"name": "metric", "passed": False, "expected": "REVENUE_YOY", "actual": ["REVENUE"]}],
)
LEVEL_NOT_DECLINE = _result(
    "b",
    ["class1"],
    [{"name": "declined", "passed": False, "expected": ["环比"],
      "actual": ["answered REVENUE", "gives 330 百万", "cites x.xlsx"]}],
)  # fmt: skip
NOT_FOUND_UNNAMED = _result(
    "c",
    ["class1"],
    [{"name": "metric", "passed": False, "expected": "NET_MARGIN", "actual": []}],
)
UNKNOWN_PASSAGES = _result(
    "d",
    ["class3"],
    [{"name": "declined", "passed": False, "expected": ["X"],
      "actual": ["gives 95.93%", "cites report.pdf", "does not name X"]}],
)  # fmt: skip
PART_OF_TERM = _result(  # only answer_excludes expected: the harness's own reading names it
    "f",
    ["class2"],
    [{"name": "answer_excludes", "passed": False, "expected": ["1"], "actual": ["1"]},
     {"name": "asked_quantity", "passed": False, "actual": ["RD_EXPENSES"],
      "why": "answered RD_EXPENSES, asked 研发费用加计扣除"}],
)  # fmt: skip
RECALLED = _result(
    "e",
    ["class4"],
    [{"name": "metric", "passed": True, "expected": "SSSG", "actual": ["SSSG"]},
     {"name": "statuses", "passed": True, "expected": ["found"], "actual": ["found"]}],
)  # fmt: skip


def test_another_quantity_is_a_found_metric_not_asked() -> None:
    assert another_quantity(WRONG_METRIC) == "answered REVENUE, asked REVENUE_YOY"
    assert another_quantity(LEVEL_NOT_DECLINE) == "answered REVENUE; gives 330 百万"
    assert another_quantity(NOT_FOUND_UNNAMED) is None  # nothing found: not another quantity
    assert another_quantity(PART_OF_TERM) == "answered RD_EXPENSES, asked 研发费用加计扣除"
    assert another_quantity(RECALLED) is None  # the metric asked, found
    assert unknown_subject_answered(UNKNOWN_PASSAGES) == "gives 95.93%; cites report.pdf"
    assert unknown_subject_answered(LEVEL_NOT_DECLINE) is None  # not a class3 case


def test_the_counts_and_the_printout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [WRONG_METRIC, LEVEL_NOT_DECLINE, NOT_FOUND_UNNAMED, UNKNOWN_PASSAGES, RECALLED]
    text = counts(rows)
    assert "cases: 5, passed: 1" in text
    assert "answered with another quantity than asked: 2" in text
    assert "unknown subjects answered with a figure or passages: 1 of 1" in text
    assert "recall of held metrics (class4, found and the right metric): 1 of 1" in text
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    stats = {"count": 1, "total": 5}
    (run / "summary.json").write_text(
        json.dumps({"metrics": {"pass_rate": stats}, "per_tag": {}}), "utf-8"
    )
    assert main([str(run)]) == 0
    printed = capsys.readouterr().out
    assert "measured, not gated" in printed and text in printed
    assert main([]) == 2


@pytest.mark.parametrize(
    "folder",
    [
        "meaning_fresh_2",  # round 2
        "meaning_fresh_3",  # round 3
        "meaning_fresh_4",  # round 4
        "meaning_fresh_5",  # round 5
        "meaning_fresh_6",  # round 6
        "meaning_fresh_7",  # round 7
        "meaning_fresh_8",  # round 8
        "meaning_fresh_9",  # round 9
        "meaning_fresh_10",  # round 10
        "meaning_fresh_11",  # round 11
        "meaning_fresh_12",  # round 12
        "meaning_fresh_13",  # round 13
        "meaning_fresh_14",  # round 14
        "meaning_fresh_15",  # round 15
        "meaning_fresh_16",  # round 16
        "meaning_fresh_17",  # round 17
    ],
)
def test_every_later_round_validates(folder: str) -> None:
    out = invoke("eval", "validate", "--golden", str(ROOT / "evals" / folder), cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok: ") and "2 files" in out.stdout
