"""report.md and junit.xml from hand-built results: failures explained, XML that always parses."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ragspine.evals.report.markdown import headline_text, write_report
from ragspine.evals.report.wording import check_text
from ragspine.evals.run.records import JUNIT_FILE, REPORT_FILE, CaseResult, Check, RunRecord
from ragspine.evals.score.summary import summarize
from tests.evals.compare.test_diff import ROUTE_FAIL, result

RECORD = RunRecord(
    run_id="20250101T000000Z-abcd",
    status="complete",
    git_commit="0123abc",
    golden_path="golden",
    golden_hash="sha256:feed",
    provider="anthropic:claude-x",
    model="claude-x",
    cases_planned=4,
)


def _results() -> list[CaseResult]:
    return [
        result("ok-1", tags=["structured", "zh"]),
        result("bad-route", route="narrative", failed=ROUTE_FAIL, tags=["structured", "en"]),
        result("ok-1", repeat=1, tags=["structured", "zh"]),
        CaseResult(
            case_id="boom",
            passed=False,
            tags=["narrative"],
            question="why?",
            error="ProviderError: 529 overloaded",
            latency_ms=250.0,
        ),
    ]


def _write(folder: Path, results: list[CaseResult]) -> Path:
    write_report(folder, RECORD, summarize(RECORD.run_id, RECORD.provider, results), results)
    return folder


def test_report_has_the_run_the_metrics_and_every_failure_with_its_reason(tmp_path: Path) -> None:
    text = (_write(tmp_path, _results()) / REPORT_FILE).read_text("utf-8")
    assert text.startswith("# Eval run 20250101T000000Z-abcd")
    for part in ("anthropic:claude-x", "claude-x", "sha256:feed", "0123abc"):
        assert part in text
    assert "| metric" in text and "| 95% CI" in text
    assert "| pass_rate " in text and "| 0.500 " in text and "| 2/4 " in text  # value, count
    assert "| errors " in text and "| latency_ms.p95 " in text  # plain and nested metrics
    assert "## Pass rate per tag" in text and "| structured " in text
    assert "expected to fire" in text  # the guard confusion matrix
    assert "## Failures (2)" in text
    failures = text.split("## Failures")[1]
    assert "### bad-route" in failures and "question bad-route?" in failures
    assert "- **route**: routed narrative, expected structured" in failures
    assert "### boom" in failures and "ProviderError: 529 overloaded" in failures
    assert "ok-1" not in failures


def test_repeats_say_which_cases_were_read_over_fewer_answered_repeats(tmp_path: Path) -> None:
    errored = CaseResult(case_id="b", repeat=1, passed=False, error="ProviderError: 529")
    results = [result("a"), result("a", repeat=1), result("b"), errored]
    text = (_write(tmp_path, results) / REPORT_FILE).read_text("utf-8")
    assert "## Repeats (2 per case, 2 cases)" in text
    assert "1 case(s) had fewer than 2 answered (the rest errored)." in text
    assert "| pass@2 (some repeat passes)  | 1 " in text  # b over its one answered repeat
    console = headline_text(summarize(RECORD.run_id, RECORD.provider, results))
    assert console.startswith("cases: 2 × 2 repeats (4 results)  errors: 1")
    assert "; 1 case(s) over fewer answered repeats" in console  # the console says it too


def test_a_green_run_says_so(tmp_path: Path) -> None:
    text = (_write(tmp_path, [result("ok")]) / REPORT_FILE).read_text("utf-8")
    assert "## Failures (0)" in text and "every case passed" in text


def test_junit_counts_and_messages(tmp_path: Path) -> None:
    root = ET.parse(_write(tmp_path, _results()) / JUNIT_FILE).getroot()
    (suite,) = root.iter("testsuite")
    assert suite.attrib["name"] == "ragspine-evals"
    assert (suite.attrib["tests"], suite.attrib["failures"], suite.attrib["errors"]) == (
        "4",
        "1",
        "1",
    )
    cases = {c.attrib["name"]: c for c in suite.iter("testcase")}
    assert set(cases) == {"ok-1", "ok-1#1", "bad-route", "boom"}  # repeat > 0 is suffixed
    assert cases["bad-route"].attrib["classname"] == "structured"  # the suite (first tag)
    assert cases["boom"].attrib["time"] == "0.250"
    failure = cases["bad-route"].find("failure")
    assert failure is not None
    assert failure.attrib["message"] == (
        "route: routed narrative, expected structured · answer: REVENUE 1320 "
        "(ACME_FY2024_Review.pptx · slide 3)"
    )
    error = cases["boom"].find("error")
    assert error is not None and error.attrib["message"] == "ProviderError: 529 overloaded"
    assert error.attrib["type"] == "ProviderError"
    assert cases["ok-1"].find("failure") is None and cases["ok-1"].find("error") is None


HOSTILE = [
    "quotes \" and ' and ]]> and </failure>",  # attribute and CDATA terminators
    "<script>alert('x')</script> & &amp; &#0;",  # markup and entities
    "control \x00\x01\x07\x08\x0b\x0c\x1b\x1f chars",  # forbidden in XML 1.0
    "lone surrogate \ud800 and \ufffe",  # not encodable / not XML characters
    "中文 | pipes | and\nnewlines\r\n## heading",  # markdown-breaking but legal XML
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_never_breaks_the_xml_or_the_report(tmp_path: Path, text: str) -> None:
    bad = result(
        "c",
        question=text,
        answer=text,
        failed={"answer_contains": ([text], [text], text)},
        tags=["demo"],
    )
    errored = CaseResult(case_id="e", passed=False, question=text, error=text)
    _write(tmp_path, [bad, errored])
    root = ET.parse(tmp_path / JUNIT_FILE).getroot()  # parses: nothing escaped the text
    failure = root.find(".//testcase[@name='c']/failure")
    error = root.find(".//testcase[@name='e']/error")
    assert failure is not None and error is not None
    printable = "".join(ch for ch in text if ch >= " " and ch not in "\ud800\ufffe")
    assert printable[:8] in failure.attrib["message"] and printable[:8] in error.attrib["message"]
    report = (tmp_path / REPORT_FILE).read_text("utf-8")
    assert "<script>" not in report and "\n## heading" not in report


@pytest.mark.parametrize(
    ("check", "reads"),
    [
        # the missing strings are what it lacks, not what it "actually" had
        (
            Check(name="answer_contains", passed=False, expected=["1321 USD_M"],
                  actual=["1321 USD_M"], why="answer lacks ['1321 USD_M']"),
            'the answer should contain ["1321 USD_M"]; it lacks ["1321 USD_M"]',
        ),
        # a string that must not be there, and is
        (
            Check(name="answer_excludes", passed=False, expected=["9999"], actual=["9999"]),
            'the answer must not contain ["9999"]; it contains ["9999"]',
        ),
        # any other check: its own reason, else expected and got
        (Check(name="statuses", passed=False, expected=["found"], actual=[]),
         'expected ["found"], got []'),
    ],
)  # fmt: skip
def test_a_failed_check_reads_as_what_it_tested(check: Check, reads: str) -> None:
    assert check_text(check) == reads
