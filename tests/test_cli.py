"""The `ragspine` command, run as a user runs it: a subprocess of the installed entry point."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

RAGSPINE = str(Path(sys.executable).parent / "ragspine")


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [RAGSPINE, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_the_done_when_question_prints_1320_with_its_source(demo_db: Path) -> None:
    out = run("ask", "--db", str(demo_db), "中国内地FY2024的REVENUE是多少")
    assert out.returncode == 0, out.stderr
    assert "ACME_CN FY2024 REVENUE:1320 USD_M" in out.stdout
    assert "ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024" in out.stdout


def test_ask_json_is_the_whole_result(demo_db: Path) -> None:
    out = run(
        "ask", "--json", "--db", str(demo_db), "--reference-date", "2025-06-30", "香港的营收是多少?"
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["clarification"]["mode"] == "answer_with_assumptions"
    assert data["clarification"]["assumed_slots"] == {"period": "FY2024"}
    assert data["tool_results"][0]["value"] == 455
    assert data["sources"] == [
        {"doc": "ACME_FY2024_Review.pptx", "locator": "slide=3,table=1,row=REVENUE,col=FY2024"}
    ]
    assert data["trace"]["fabrication_guard_triggered"] is False


def test_db_can_come_from_the_environment(demo_db: Path) -> None:
    out = run("ask", "香港FY2024营收", env={"RAGSPINE_DB": str(demo_db)})
    assert out.returncode == 0 and "455 USD_M" in out.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ask", ""], "question is empty"),  # empty
        (["ask", "营收" * 1001], "too long"),  # over 2,000 characters
        (["ask", "香港\x07营收"], "control character"),  # control character
        (["ask", "--db", "/nonexistent/f.db", "香港营收"], "fact database not found"),  # no db
        (["ask", "--provider", "gpt", "香港营收"], "unknown provider"),  # unknown provider
    ],
)
def test_bad_input_is_one_clear_line_and_a_non_zero_exit(
    demo_db: Path, args: list[str], message: str
) -> None:
    if "--db" not in args:
        args = [args[0], "--db", str(demo_db), *args[1:]]
    out = run(*args)
    assert out.returncode == 1
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in out.stderr


def test_bad_reference_date_is_a_usage_error(demo_db: Path) -> None:
    out = run("ask", "--db", str(demo_db), "--reference-date", "yesterday", "香港营收")
    assert out.returncode == 2 and "reference-date" in out.stderr and "Traceback" not in out.stderr


def test_fixtures_builds_a_store_that_ask_can_use(tmp_path: Path) -> None:
    db = tmp_path / "sub" / "facts.db"
    built = run("fixtures", "--db", str(db))
    assert built.returncode == 0 and "demo facts" in built.stdout
    again = run("fixtures", "--db", str(db))  # rebuilding replaces, never duplicates
    assert again.returncode == 0 and again.stdout == built.stdout
    out = run("ask", "--db", str(db), "中国内地FY2025的REVENUE是多少")
    assert out.returncode == 0 and out.stdout.startswith("查不到:REVENUE / ACME_CN / 2025")
