"""The FAQ is a route of the engine, so a golden case can expect it: a small suite driven through
`ragspine eval run --faq`, as a user runs it, on the demo stores and the demo's vetted items."""

from __future__ import annotations

import json
from pathlib import Path

from ragspine.evals.run.records import read_results, read_run
from tests.cli import invoke
from tests.pg_stores import Place

DEMO_FAQ = Path(__file__).parents[3] / "ragspine" / "demo" / "faq.yaml"
SUITE = """\
suite: faq
defaults: {reference_date: 2025-06-30, clearance: INTERNAL, tags: [faq]}
cases:
  - id: faq-return-policy
    question: 退货政策是什么?
    expect:
      route: faq
      clarification: none
      statuses: []
      sources: [{doc: ACME_Store_Operations_FAQ.txt, locator: "para=5"}]
      answer_contains: ["七天内", "三十天内"]
  - id: faq-a-figure-is-never-cached
    question: 香港FY2024的收入是多少
    expect:
      route: structured
      statuses: [found]
      answer_contains: ["455 百万美元"]
  - id: faq-above-the-callers-clearance
    question: 员工之间可以私下换班吗?
    clearance: PUBLIC
    expect:
      route: narrative
"""


def _run(tmp: Path, db: Path, corpus: Path, *extra: str) -> Path:
    golden = tmp / "golden"
    golden.mkdir(exist_ok=True)
    (golden / "faq.yaml").write_text(SUITE, "utf-8")
    out = tmp / f"run{len(list(tmp.glob('run*')))}"
    ran = invoke(
        "eval", "run", "--golden", str(golden), "--out", str(out),
        "--db", str(db), "--corpus", str(corpus), *extra,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    return out


def test_a_golden_case_takes_and_tests_the_faq_route(
    tmp_path: Path, place: Place, demo_db: Path, demo_corpus: Path
) -> None:
    faq = place("faq.db")
    imported = invoke(
        "faq", "import", str(DEMO_FAQ), "--faq", str(faq), "--db", str(demo_db),
        "--corpus", str(demo_corpus),
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr

    out = _run(tmp_path, demo_db, demo_corpus, "--faq", str(faq))
    results = {r.case_id: r for r in read_results(out)}
    hit = results["faq-return-policy"]
    assert hit.route == "faq" and hit.passed, [c.why for c in hit.checks if not c.passed]
    # every check ran on it, the audit included: the answer's numbers (七, 三十) are held to the
    # passage the item cites, and its source is checked
    checks = {c.name: c.passed for c in hit.checks}
    assert checks["route"] and checks["citations"] and checks["unsupported_numbers"]
    assert hit.sources == [{"doc": "ACME_Store_Operations_FAQ.txt", "locator": "para=5"}]
    assert all(r.passed for r in results.values()), {
        k: [c.why for c in r.checks if not c.passed] for k, r in results.items()
    }
    assert read_run(out).options["faq"] == str(faq)  # recorded, so --resume opens it again

    # Another FAQ is not the run's: --resume refuses it rather than mix two in one run.
    other = invoke("eval", "run", "--resume", str(out), "--faq", str(tmp_path / "other.db"))
    assert other.returncode == 1 and "--faq" in other.stderr

    # Without the FAQ the same case is answered by the agent, and the route check says so.
    plain = _run(tmp_path, demo_db, demo_corpus)
    miss = {r.case_id: r for r in read_results(plain)}["faq-return-policy"]
    route = miss.check("route")
    assert not miss.passed and route is not None and not route.passed
    assert route.why == "routed narrative, expected faq"
    assert json.loads((plain / "run.json").read_text("utf-8"))["options"]["faq"] is None
