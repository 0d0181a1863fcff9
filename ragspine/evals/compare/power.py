"""How large a difference a comparison would find: its power, from the discordance it observed.

"No detectable difference" is not "no difference": it says as much as the comparison could see.
What it could see depends on how many cases there are, how often A and B disagree on a case (the
discordance; concordant cases carry no information either way) and the level the test is held to
(α for the primary rate, α over the family's size for a secondary one, Holm's strictest step).
"""

from __future__ import annotations

import numpy as np

from ragspine.evals.compare.stats import binomial_pmf

POWER = 0.8


def _rejects(discordant: int, alpha: float) -> np.ndarray:
    """For each count x of D discordant cases going one way: does the exact test reject?"""
    pmf = binomial_pmf(discordant)
    low = np.cumsum(pmf)  # P(X ≤ x)
    high = low[-1] - np.concatenate(([0.0], low[:-1]))  # P(X ≥ x)
    return np.asarray(np.minimum(1.0, 2 * np.minimum(low, high)) < alpha)


def power(cases: int, discordance: float, delta: float, alpha: float) -> float:
    """How often the exact test would find a true difference ``delta`` (in a rate, 0–1).

    A model of the next comparison like this one: of the ``cases``, a share max(discordance,
    delta) differ between A and B (a difference of delta needs at least that many), each going
    the worse way with probability (1 + delta / share) / 2, and the sign test on them at
    ``alpha``. ``discordance`` is the mean of d² over the cases (the share that differ, with one
    repeat); with repeats the test weighs each case's share, and this is its approximation.
    """
    if cases <= 0 or delta <= 0:
        return 0.0
    share = min(1.0, max(discordance, delta))
    discordant = min(cases, max(1, round(cases * share)))
    toward = min(1.0, (1 + delta / share) / 2)
    return float(binomial_pmf(discordant, toward)[_rejects(discordant, alpha)].sum())


def min_detectable_effect(
    cases: int, discordance: float, alpha: float, target: float = POWER
) -> float | None:
    """The smallest difference, in steps of one case, that would be found ``target`` of the
    time; None when even every case going one way would not be (too few cases)."""
    for step in range(1, cases + 1):
        if power(cases, discordance, step / cases, alpha) >= target:
            return round(step / cases, 6)
    return None
