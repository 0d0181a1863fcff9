from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine.evals.golden.suite import (
    FilterError,
    GoldenError,
    compile_filter,
    load_golden,
    scan_golden,
)

GOOD = """\
suite: demo
defaults:
  reference_date: 2025-06-30
  tags: [structured]
cases:
  - id: st-1
    question: 中国内地FY2024的REVENUE是多少
    tags: [zh, found]
    expect:
      route: structured
      statuses: [found]
      sources: [{doc: ACME_FY2024_Review.pptx}]
  - id: st-2
    question: 竞安FY2024收入
    clearance: RESTRICTED
    reference_date: 2026-01-01
    expect: {clarification: out_of_scope_entity}
"""


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, "utf-8")
    return path


def test_a_suite_loads_with_defaults_applied(tmp_path: Path) -> None:
    gs = load_golden(_write(tmp_path / "g", "a.yaml", GOOD).parent)
    first, second = gs.cases
    assert first.tags == ("demo", "structured", "zh", "found")
    assert (first.reference_date, first.clearance, first.line) == (date(2025, 6, 30), "INTERNAL", 6)
    assert (second.reference_date, second.clearance) == (date(2026, 1, 1), "RESTRICTED")
    assert second.expect.route is None  # unstated: not checked
    assert gs.digest.startswith("sha256:")


def test_the_digest_changes_with_any_file(tmp_path: Path) -> None:
    folder = _write(tmp_path / "g", "a.yaml", GOOD).parent
    before = load_golden(folder).digest
    _write(folder, "a.yaml", GOOD.replace("st-2", "st-3"))
    assert load_golden(folder).digest != before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # an unknown route names the file, the line, the case and the field
        (
            GOOD.replace("route: structured", "route: sideways"),
            "a.yaml:10: case st-1: expect.route:",
        ),
        # a misspelt expectation key is forbidden
        (GOOD.replace("statuses:", "status:"), "case st-1: expect.status: Extra inputs"),
        # an unknown clarification mode
        (GOOD.replace("out_of_scope_entity", "refuse"), "case st-2: expect.clarification:"),
        # an unknown status in the multiset
        (GOOD.replace("[found]\n", "[maybe]\n"), "case st-1: expect.statuses.0:"),
        # ids are lower-case slugs
        (GOOD.replace("id: st-1", "id: St 1"), "case St 1: id:"),
        # a missing reference date would make the run irreproducible
        (GOOD.replace("  reference_date: 2025-06-30\n", ""), "case st-1: reference_date: missing"),
        # YAML syntax errors carry the line
        (GOOD + "  - id: [unclosed\n", "a.yaml:"),
        # the top level is a mapping
        ("- a\n- b\n", "a.yaml:1: a golden file is a mapping"),
    ],
)
def test_bad_golden_files_say_where(tmp_path: Path, text: str, message: str) -> None:
    folder = _write(tmp_path / "g", "a.yaml", text).parent
    with pytest.raises(GoldenError) as err:
        load_golden(folder)
    assert message in str(err.value)


def test_duplicate_ids_across_files_are_errors(tmp_path: Path) -> None:
    folder = _write(tmp_path / "g", "a.yaml", GOOD).parent
    _write(folder, "b.yaml", GOOD.replace("suite: demo", "suite: other"))
    with pytest.raises(GoldenError, match=r"b\.yaml:6: case st-1: id: duplicate of .*a\.yaml:6"):
        load_golden(folder)


def test_yaml_is_loaded_safely(tmp_path: Path) -> None:
    folder = _write(
        tmp_path / "g", "a.yaml", "!!python/object/apply:os.system ['echo hi']\n"
    ).parent
    with pytest.raises(GoldenError, match="invalid YAML"):
        load_golden(folder)


@pytest.mark.parametrize(
    ("expr", "ids"),
    [
        ("zh", ["st-1"]),  # a tag
        ("not zh", ["st-2"]),  # negation
        ("zh and found", ["st-1"]),  # conjunction
        ("found or id:st-2", ["st-1", "st-2"]),  # an id glob
        ("suite:demo and not (zh or found)", ["st-2"]),  # suite and grouping
        ("id:st-*", ["st-1", "st-2"]),  # a glob alone matches every id it covers
    ],
)
def test_filter_expressions(tmp_path: Path, expr: str, ids: list[str]) -> None:
    scan = scan_golden(_write(tmp_path / "g", "a.yaml", GOOD).parent, filter_expr=expr)
    assert [c.id for c in scan.cases] == ids


@pytest.mark.parametrize(
    "expr",
    [
        "zh and",  # dangling operator
        "(zh",  # unbalanced
        "zh )",  # stray parenthesis
        "__import__('os')",  # not code: rejected by the tokenizer
        "",  # empty
    ],
)
def test_bad_filters_are_errors(expr: str) -> None:
    with pytest.raises(FilterError):
        compile_filter(expr)


def test_limit_takes_the_first_cases(tmp_path: Path) -> None:
    scan = scan_golden(_write(tmp_path / "g", "a.yaml", GOOD).parent, limit=1)
    assert [c.id for c in scan.cases] == ["st-1"]


def _big_suite(n: int, prefix: str, bad_at: int | None = None) -> str:
    """A suite of ``n`` cases, about 200 bytes each; ``bad_at`` gets an unknown field."""
    lines = ["suite: big", "defaults:", "  reference_date: 2025-06-30", "cases:"]
    for i in range(n):
        lines += [
            f"  - id: {prefix}-{i:05d}",
            f"    question: 香港FY2024的REVENUE是多少? 第{i}问",
            "    expect:",
            "      route: structured",
            "      answer_contains: ['455 百万美元']",
        ]
        if i == bad_at:
            lines.append("      answer_contain: ['typo']")
    return "\n".join(lines) + "\n"


def test_large_sets_parse_in_worker_processes_with_the_same_cases_and_errors(
    tmp_path: Path,
) -> None:
    """Over a megabyte of YAML in several files parses in parallel: the cases, their order and
    lines, and an error's file:line are what one file at a time gives."""
    folder = tmp_path / "big"
    folder.mkdir()
    for part in range(3):
        (folder / f"p{part}.yaml").write_text(_big_suite(2_500, f"p{part}"), "utf-8")
    assert sum(f.stat().st_size for f in folder.iterdir()) > 1_000_000
    together = scan_golden(folder).cases
    apart = [c for part in range(3) for c in scan_golden(folder / f"p{part}.yaml").cases]
    assert together == apart and len(together) == 7_500
    assert together[-1].line == apart[-1].line > 10_000
    (folder / "p1.yaml").write_text(_big_suite(2_500, "p1", bad_at=1_234), "utf-8")
    with pytest.raises(GoldenError, match=r"p1\.yaml:\d+: case p1-01234: expect\.answer_contain"):
        scan_golden(folder)
