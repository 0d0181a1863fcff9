"""A case run k times: its verdict over its repeats, and pass@k / pass^k over the cases.

Each case is read over the repeats its provider ANSWERED: an error says nothing about the
answer, so a case with 2 of 3 repeats errored contributes over its 1 answered repeat, and k stays
the repeats the run planned (the most any case has), never dropped for the whole run. A case with
no answered repeat is counted apart (``unanswered``), in no rate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any


def pass_at(passed: int, answered: int, k: int) -> float:
    """P(some of k repeats passes), unbiased over ``answered`` trials: 1 − C(n−c, k)/C(n, k),
    with k capped at the trials there are."""
    k = min(k, answered)
    return 1 - math.comb(answered - passed, k) / math.comb(answered, k)


def pass_hat(passed: int, answered: int, k: int) -> float:
    """P(every one of k repeats passes), unbiased: C(c, k)/C(n, k), k capped likewise."""
    k = min(k, answered)
    return math.comb(passed, k) / math.comb(answered, k)


def repeat_verdicts(per_case: Mapping[str, tuple[int, int, int]]) -> dict[str, Any] | None:
    """``per_case``: case id → (passed, answered, run) repeats. None without repeats (k < 2).

    A case that passes only sometimes is flaky: listed apart, and never retried until green.
    ``short`` counts the cases read over fewer than k answered repeats.
    """
    if not per_case:
        return None
    k = max(run for _, _, run in per_case.values())
    if k < 2:
        return None
    read = {case: (c, n) for case, (c, n, _) in per_case.items() if n > 0}
    flaky = sorted(case for case, (c, n) in read.items() if 0 < c < n)
    out: dict[str, Any] = {
        "k": k,
        "cases": len(read),
        "stable_pass": sum(1 for c, n in read.values() if c == n),
        "flaky": len(flaky),
        "stable_fail": sum(1 for c, _ in read.values() if c == 0),
        "pass_at_k": None,
        "pass_hat_k": None,
        "short": sum(1 for _, n in read.values() if n < k),
        "unanswered": len(per_case) - len(read),
        "flaky_cases": flaky,
    }
    if read:
        out["pass_at_k"] = round(sum(pass_at(c, n, k) for c, n in read.values()) / len(read), 6)
        out["pass_hat_k"] = round(sum(pass_hat(c, n, k) for c, n in read.values()) / len(read), 6)
    return out
