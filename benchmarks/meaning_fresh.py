"""Issue 27's fresh held-out questions, per class: ``python -m benchmarks.meaning_fresh RUN...``.

``make evals-meaning-fresh`` runs ``evals/meaning_fresh/acme.yaml`` on the ACME demo and
``evals/meaning_fresh/jinyu.yaml`` on 金宇生物, each an ordinary ``eval run``, then prints this:
the per-class and per-language table of ``benchmarks.meaning_suites``, and the counts the issue's
promise is about, read from each run's results (the harness's checks, never the engine's parser):

* **another quantity**: a case expecting ``metric`` whose answer found another metric
  (``answered REVENUE, asked REVENUE_YOY``), a case expecting ``declined`` whose answer
  found a metric and gave its figure instead (``answered REVENUE; gives 330 百万``), or any
  case whose answered metric's name is only part of the term the question asks (the
  ``asked_quantity`` check: ``answered RD_EXPENSES, asked 研发费用加计扣除``);
* **unknown subject answered**: a ``class3`` case whose answer found a figure, gave a number
  or cited a source instead of declining;
* **recall**: the ``class4`` cases (the profile holds the quantity) answered with it, found.

A measure, not a gate: it exits 0 whatever the figures are.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks.meaning_suites import table


def _check(result: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    return next((c for c in result.get("checks", []) if c.get("name") == name), None)


def _reasons(check: Mapping[str, Any] | None) -> list[str]:
    if check is None or check.get("passed"):
        return []
    actual = check.get("actual")
    return [str(a) for a in actual] if isinstance(actual, list) else []


def another_quantity(result: Mapping[str, Any]) -> str | None:
    """Why the answer is about another quantity than asked, or None."""
    metric = _check(result, "metric")
    if metric is not None and not metric.get("passed") and metric.get("actual"):
        got = ", ".join(str(a) for a in metric["actual"])
        return f"answered {got}, asked {metric.get('expected')}"
    reasons = _reasons(_check(result, "declined"))
    if any(r.startswith("answered ") for r in reasons):
        return "; ".join(r for r in reasons if r.startswith(("answered ", "gives ")))
    asked = _check(result, "asked_quantity")  # 研发费用 for 研发费用加计扣除: a part of the term
    if asked is not None and not asked.get("passed"):
        return str(asked.get("why"))
    return None


def unknown_subject_answered(result: Mapping[str, Any]) -> str | None:
    """For a class3 case: what it gave instead of declining (a figure, a number, a source)."""
    if "class3" not in result.get("tags", []):
        return None
    given = [
        r
        for r in _reasons(_check(result, "declined"))
        if r.startswith(("answered ", "gives ", "cites "))
    ]
    return "; ".join(given) or None


def recalled(result: Mapping[str, Any]) -> bool:
    """A class4 case answered with the metric it asks, found."""
    metric = _check(result, "metric")
    statuses = _check(result, "statuses")
    return bool(
        metric is not None and metric.get("passed") and (statuses is None or statuses.get("passed"))
    )


def read_results(folder: Path) -> list[dict[str, Any]]:
    lines = (folder / "results.jsonl").read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def counts(results: Iterable[Mapping[str, Any]]) -> str:
    """The issue's counts over every result, each with the cases it counts."""
    rows = list(results)
    wrong = [(r["case_id"], w) for r in rows if (w := another_quantity(r))]
    unknown = [(r["case_id"], u) for r in rows if (u := unknown_subject_answered(r))]
    class3 = [r for r in rows if "class3" in r.get("tags", [])]
    class4 = [r for r in rows if "class4" in r.get("tags", [])]
    held = [r["case_id"] for r in class4 if recalled(r)]
    passed = sum(bool(r.get("passed")) for r in rows)
    lines = [
        f"cases: {len(rows)}, passed: {passed}",
        f"answered with another quantity than asked: {len(wrong)}",
        *(f"  {case}: {why}" for case, why in wrong),
        f"unknown subjects answered with a figure or passages: {len(unknown)} of {len(class3)}",
        *(f"  {case}: {why}" for case, why in unknown),
        f"recall of held metrics (class4, found and the right metric): {len(held)} of "
        f"{len(class4)}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    folders = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if not folders:
        print("usage: python -m benchmarks.meaning_fresh RUN [RUN ...]", file=sys.stderr)
        return 2
    runs = {f.name: json.loads((f / "summary.json").read_text("utf-8")) for f in folders}
    print("issue 27, fresh held-out questions (evals/meaning_fresh), offline MockProvider;")
    print("measured, not gated")
    print(table(runs))
    print()
    print(counts(r for f in folders for r in read_results(f)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
