"""The evidence of a comparison, one entry per case: the case is the unit, never the repeat.

A case's outcome on a rate is its share of passing repeats, over the repeats its side ANSWERED
and the rate judged: an error says nothing about quality, so it is no failure here (errors are
counted apart). A case is evidence when both sides answered at least one of its repeats. Three
repeats that agree are the evidence of one, so the same outcomes at --repeat 1 and --repeat 3
give the same evidence, the same test and the same verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ragspine.evals.compare.pairing import Pair
from ragspine.evals.run.records import CaseResult
from ragspine.evals.score.metrics import Metric
from ragspine.evals.score.repeats import repeat_verdicts

Tally = tuple[int, int]  # (passed, answered) repeats


@dataclass(frozen=True)
class Evidence:
    """Per case, in case order: A's and B's (passed, answered). Equal evidence, equal test."""

    cases: tuple[str, ...]
    a: tuple[Tally, ...]
    b: tuple[Tally, ...]

    @cached_property
    def scale(self) -> int:
        """A common denominator of every share: the lcm of the answered counts."""
        return math.lcm(1, *(n for _, n in self.a), *(n for _, n in self.b))

    @cached_property
    def units(self) -> np.ndarray:
        """B's share − A's, per case, times ``scale``: integers, for the exact test."""
        s = self.scale
        return np.array(
            [
                cb * (s // nb) - ca * (s // na)
                for (ca, na), (cb, nb) in zip(self.a, self.b, strict=True)
            ],
            dtype=np.int64,
        )

    @property
    def diff(self) -> np.ndarray:
        return np.asarray(self.units / self.scale)

    @staticmethod
    def share(tallies: tuple[Tally, ...]) -> float:
        return sum(c / n for c, n in tallies) / len(tallies)


def outcome(metric: Metric, r: CaseResult) -> bool | None:
    """One answered result's verdict on a rate; None when it is not evidence for it."""
    if r.error is not None:
        return None
    if metric.check is None:
        return r.passed
    check = r.check(metric.check)
    return None if check is None else check.passed


def evidence(metric: Metric, pairs: list[Pair]) -> Evidence:
    """The cases both sides answered and ``metric`` judged, each side over its own repeats."""
    tallies: dict[str, list[int]] = {}
    for x, y in pairs:
        tally = tallies.setdefault(x.case_id, [0, 0, 0, 0])
        for at, r in ((0, x), (2, y)):
            verdict = outcome(metric, r)
            if verdict is not None:
                tally[at] += verdict
                tally[at + 1] += 1
    kept = [(case, t) for case, t in sorted(tallies.items()) if t[1] and t[3]]
    return Evidence(
        cases=tuple(case for case, _ in kept),
        a=tuple((t[0], t[1]) for _, t in kept),
        b=tuple((t[2], t[3]) for _, t in kept),
    )


def repeats(results: list[CaseResult]) -> dict[str, Any] | None:
    """pass@k, pass^k and flaky cases of one side, over its paired results' answered repeats."""
    per_case: dict[str, list[int]] = {}
    for r in results:
        tally = per_case.setdefault(r.case_id, [0, 0, 0])
        tally[0] += r.error is None and r.passed
        tally[1] += r.error is None
        tally[2] += 1
    return repeat_verdicts({case: (c, n, run) for case, (c, n, run) in per_case.items()})


def errored_cases(results: list[CaseResult]) -> int:
    return len({r.case_id for r in results if r.error is not None})
