"""Issue 27's held-out suites, per class: ``python -m benchmarks.meaning_suites RUN...``.

``make evals-meaning`` runs ``evals/meaning/acme`` on the ACME demo and ``evals/meaning/jinyu``
on 金宇生物, each an ordinary ``eval run`` (report.md, diff-able results), then prints this: for
each class (class1 a modifier, class2 a metric word inside another name, class3 an unknown
subject, class4 recall) and each language, the cases that pass, per run and together, and the
two rates issue 27 reads (``metric_accuracy``, ``declined_accuracy``). A measure, not a gate.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

CLASSES = ("class1", "class2", "class3", "class4")
LANGUAGES = ("zh", "zh-hant", "en")
RATES = ("pass_rate", "metric_accuracy", "declined_accuracy")


def _cell(stats: Mapping[str, Any] | None) -> tuple[int, int]:
    return (int(stats["count"]), int(stats["total"])) if stats else (0, 0)


def _show(count: int, total: int) -> str:
    return f"{count}/{total} ({count / total:.2f})" if total else "–"


def table(runs: Mapping[str, Mapping[str, Any]]) -> str:
    """One line per class and language: each run's pass count, then all runs together; then,
    per class, the metric and declined rates over all runs."""
    names = list(runs)
    head = f"{'':<10}" + "".join(f"{n:>20}" for n in [*names, "all"])
    lines = ["pass rate (cases that pass / cases)", head]
    for tag in (*CLASSES, *LANGUAGES, None):
        cells, total = [], (0, 0)
        for name in names:
            summary = runs[name]
            stats = summary["metrics"] if tag is None else summary["per_tag"].get(tag, {})
            c, t = _cell(stats.get("pass_rate"))
            cells.append(_show(c, t))
            total = (total[0] + c, total[1] + t)
        label = tag or "all"
        lines.append(f"{label:<10}" + "".join(f"{c:>20}" for c in [*cells, _show(*total)]))
    lines += ["", "per class, all runs", f"{'':<10}" + "".join(f"{r:>20}" for r in RATES)]
    for tag in CLASSES:
        row = []
        for rate in RATES:
            c = t = 0
            for summary in runs.values():
                got = _cell(summary["per_tag"].get(tag, {}).get(rate))
                c, t = c + got[0], t + got[1]
            row.append(_show(c, t))
        lines.append(f"{tag:<10}" + "".join(f"{c:>20}" for c in row))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    folders = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if not folders:
        print("usage: python -m benchmarks.meaning_suites RUN [RUN ...]", file=sys.stderr)
        return 2
    runs = {f.name: json.loads((f / "summary.json").read_text("utf-8")) for f in folders}
    print("issue 27, held-out suites (evals/meaning), offline MockProvider; measured, not gated")
    print(table(runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
