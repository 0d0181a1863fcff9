"""``python -m benchmarks [--only SUITE ...] [--quick]``: run suites, print one table.

Suites are imported lazily by name so a new one is a module plus a line in ``SUITES``.
The exit code is 0 whatever the numbers say: a missed target is reported, not enforced.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sqlite3
import sys
import time
from collections.abc import Sequence
from typing import Any

from benchmarks import Row

# suite name -> module exposing run(quick: bool) -> list[Row]
SUITES: dict[str, str] = {
    "agent": "benchmarks.agent_bench",
    "evals": "benchmarks.evals_bench",
    "guard": "benchmarks.guard_bench",
    "ingest": "benchmarks.ingest_bench",
    "live": "benchmarks.live_bench",
    "parser": "benchmarks.parser_bench",
    "retrieval": "benchmarks.retrieval_bench",
    "service": "benchmarks.service_bench",
}

_HEADERS = ("suite", "case", "n", "p50 ms", "p95 ms", "mean ms")
_KEYS = ("suite", "case", "n", "p50_ms", "p95_ms", "mean_ms")


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4f}" if value < 0.1 else f"{value:.3f}"
    return str(value)


def _plain_table(rows: list[list[str]]) -> str:
    """Fallback when tabulate is not installed: text left, numbers right."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(_HEADERS)]

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.ljust(w) if i < 2 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(_HEADERS), rule, *(line(r) for r in rows)])


def format_table(timings: list[Row]) -> str:
    """The timing rows as text, through tabulate when the venv happens to have it."""
    rows = [[_cell(t.get(k, "")) for k in _KEYS] for t in timings]
    if not rows:
        return "(no timings)"
    try:
        tab: Any = importlib.import_module("tabulate")
    except ImportError:
        return _plain_table(rows)
    return str(tab.tabulate(rows, headers=_HEADERS, disable_numparse=True, stralign="right"))


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "--only",
        action="append",
        choices=sorted(SUITES),
        metavar="SUITE",
        help=f"run only this suite (repeatable); one of: {', '.join(sorted(SUITES))}",
    )
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: smaller data, fewer iterations"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    names: list[str] = args.only or list(SUITES)
    mode = "quick" if args.quick else "full"
    print(
        f"benchmarks ({mode}): python {platform.python_version()}, "
        f"sqlite {sqlite3.sqlite_version}, {platform.machine()} {platform.system()}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f} (timings are noisy on a busy box)"
    )
    started = time.perf_counter()
    timings: list[Row] = []
    notes: list[Row] = []
    for name in dict.fromkeys(names):
        module = importlib.import_module(SUITES[name])
        rows: list[Row] = module.run(args.quick)
        timings += [r for r in rows if "p50_ms" in r]
        notes += [r for r in rows if "label" in r]
    print()
    print(format_table(timings))
    print()
    for note in notes:
        print(f"{note['label']}: {note['value']}")
    print(f"\ntotal benchmark time: {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
