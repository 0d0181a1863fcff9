"""Micro-benchmarks, run with ``python -m benchmarks`` (``make bench``).

Each suite is a module with ``run(quick: bool) -> list[Row]``. A row with ``p50_ms`` is a
timing and goes in the table; a row with ``label``/``value`` is a line printed under it.
Benchmarks report; they never fail the run because a target is missed.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable

Row = dict[str, object]

__all__ = ["Row", "info_row", "percentile_ms", "time_calls", "timing_row"]


def time_calls(fn: Callable[[int], object], n: int, budget_s: float) -> list[int]:
    """Durations (ns) of fn(0..n-1), stopping early once ``budget_s`` is spent."""
    gc.collect()
    samples: list[int] = []
    clock = time.perf_counter_ns
    deadline = clock() + int(budget_s * 1e9)
    for i in range(n):
        start = clock()
        fn(i)
        end = clock()
        samples.append(end - start)
        if end > deadline:
            break
    return samples


def percentile_ms(samples_ns: list[int], q: float) -> float:
    """Nearest-rank percentile in ms: always a duration that was really observed."""
    ordered = sorted(samples_ns)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1] / 1e6


def timing_row(suite: str, case: str, samples_ns: list[int]) -> Row:
    """Summarise per-call durations (ns) as p50/p95/mean in ms."""
    return {
        "suite": suite,
        "case": case,
        "n": len(samples_ns),
        "p50_ms": percentile_ms(samples_ns, 0.50),
        "p95_ms": percentile_ms(samples_ns, 0.95),
        "mean_ms": sum(samples_ns) / len(samples_ns) / 1e6,
    }


def info_row(suite: str, label: str, value: str) -> Row:
    """A line of context (build time, ratio, target) printed below the table."""
    return {"suite": suite, "label": label, "value": value}
