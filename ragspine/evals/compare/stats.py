"""Paired statistics for comparing two runs of one golden set: small, pure and dependency-light.

Two models answer the same cases, so their outcomes are paired: the tests here use the pairs
(discordant counts, per-pair differences) instead of comparing two independent rates, which
would waste most of the information and overstate the noise.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p on the discordant pairs (b: only A passed, c: only B passed).

    Concordant pairs say nothing about which model is better; under "no difference" each
    discordant pair is a fair coin, so the p-value is a binomial test of min(b, c) of b + c at
    p = 0.5. Exact, because the discordant counts of a golden set are small.
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must not be negative: b={b}, c={c}")
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
    return min(1.0, 2 * tail / (1 << n))


def holm(pvalues: dict[str, float]) -> dict[str, float]:
    """Holm–Bonferroni adjusted p-values: several metrics tested at once, one family error rate.

    Each metric is one more chance of a false "worse"; Holm controls that as Bonferroni does
    but rejects more. The i-th smallest p is multiplied by (m − i), made monotone with a running
    maximum (an adjusted p never falls below a smaller one's), and capped at 1.
    """
    m = len(pvalues)
    out: dict[str, float] = {}
    running = 0.0
    for i, (name, p) in enumerate(sorted(pvalues.items(), key=lambda kv: kv[1])):
        running = max(running, min(1.0, (m - i) * p))
        out[name] = running
    return {name: out[name] for name in pvalues}


def paired_bootstrap(
    a: list[float],
    b: list[float],
    *,
    clusters: list[str] | None = None,
    n: int = 2000,
    seed: int = 0,
) -> tuple[float, float, float]:
    """Mean of (b − a) over the pairs and its 95% percentile interval, deterministic by seed.

    With ``clusters`` (each pair's case id) whole cases are resampled: repeats of one case share
    the question and the passages, so they are not independent draws, and resampling them one by
    one would make the interval too narrow.
    """
    if len(a) != len(b):
        raise ValueError(f"paired lists differ in length: {len(a)} and {len(b)}")
    if not a:
        raise ValueError("no pairs to bootstrap")
    diff = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    if clusters is None:
        sums, counts = diff, np.ones_like(diff)
    else:
        if len(clusters) != len(diff):
            raise ValueError(f"{len(clusters)} cluster labels for {len(diff)} pairs")
        _, index = np.unique(np.asarray(clusters, dtype=str), return_inverse=True)
        sums = np.bincount(index, weights=diff)
        counts = np.bincount(index).astype(float)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(sums), size=(n, len(sums)))
    means = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(diff.mean()), float(low), float(high)


def min_detectable_effect(n: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """The smallest paired difference in a rate that n pairs detect (two-sided alpha, power).

    The usual normal approximation for paired proportions (Connor 1987, dropping the δ² term):
    δ = (z₁₋α/₂ + z_power) · √(ψ / n), with ψ the share of discordant pairs. ψ is taken as 0.5,
    a pessimistic guess made before the data, so "with N cases a difference smaller than δ
    cannot be told from noise" holds for any plausible pair of models.
    """
    if n <= 0:
        return math.inf
    z = NormalDist()
    return (z.inv_cdf(1 - alpha / 2) + z.inv_cdf(power)) * math.sqrt(0.5 / n)
