"""Paired statistics for comparing two runs of one golden set, with the case as the unit.

Two models answer the same cases, so their outcomes are paired; and the repeats of one case share
its question and its passages, so they are not independent draws. Every test and interval here
takes one number per case: d = B's share of passing repeats − A's, each over the repeats that side
answered. Three identical repeats are the evidence of one repeat, never three times as much.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

import numpy as np
from scipy.special import gammaln

MAX_GRID = 50_000_000  # cases × grid points the exact test convolves; beyond, Monte Carlo
DRAWS = 20_000  # sign patterns of the Monte Carlo fallback
Z95 = NormalDist().inv_cdf(0.975)


def binomial_pmf(n: int, p: float = 0.5) -> np.ndarray:
    """P(X = 0..n) for X ~ Binomial(n, p), in log space so a large n does not overflow."""
    x = np.arange(n + 1)
    if p in (0.0, 1.0):
        out = np.zeros(n + 1)
        out[0 if p == 0.0 else n] = 1.0
        return out
    log = gammaln(n + 1) - gammaln(x + 1) - gammaln(n - x + 1)
    return np.asarray(np.exp(log + x * math.log(p) + (n - x) * math.log1p(-p)))


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p on the discordant pairs (b: only A passed, c: only B passed).

    What `paired_permutation_p` is when every case has one repeat: each discordant case is a
    fair coin under "no difference", so p is a binomial test of min(b, c) of b + c at p = 0.5.
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must not be negative: b={b}, c={c}")
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
    return min(1.0, 2 * tail / (1 << n))


def paired_permutation_p(units: Sequence[int] | np.ndarray, *, seed: int = 0) -> float:
    """Two-sided p of the exact paired permutation (sign-flip) test on per-case differences.

    ``units`` are the differences d·s on an integer grid (s: a common denominator of the
    shares, the lcm of the repeat counts). Under "no difference" A's and B's labels within a case
    are exchangeable, so each case's d is as likely to have either sign; p is the share of the
    2ⁿ sign patterns whose |Σ d| is at least the one observed. It is computed exactly by
    convolving the null distribution of Σ d one distinct |d| at a time (a binomial over the cases
    that share it). With one repeat every d is −1, 0 or 1 and this is McNemar's exact test. A
    grid too large to convolve (cases × Σ|d|·s over MAX_GRID, far beyond any golden set run a
    few times) falls back to DRAWS random sign patterns with a fixed seed: (hits + 1)/(DRAWS + 1).
    """
    w = np.asarray(units, dtype=np.int64)
    w = w[w != 0]
    if w.size == 0:
        return 1.0
    observed = abs(int(w.sum()))
    mags = np.abs(w)
    total = int(mags.sum())
    if mags.size * total > MAX_GRID:
        return _monte_carlo_p(mags, observed, seed)
    # dist[s]: P(the cases given a + sign sum to s), over the magnitudes folded in so far
    dist, top = np.zeros(total + 1), 0
    dist[0] = 1.0
    values, counts = np.unique(mags, return_counts=True)
    for v, m in zip(values.tolist(), counts.tolist(), strict=True):
        new = np.zeros(total + 1)
        for j, pj in enumerate(binomial_pmf(m)):
            if pj > 0:
                new[j * v : j * v + top + 1] += pj * dist[: top + 1]
        dist, top = new, top + m * v
    # Σ d = 2·s − total: |Σ d| ≥ observed when s ≥ (total + observed)/2 or ≤ (total − observed)/2
    high, low = (total + observed) // 2, (total - observed) // 2
    return float(min(1.0, dist[high:].sum() + dist[: low + 1].sum()))


def _monte_carlo_p(mags: np.ndarray, observed: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    hits, left = 0, DRAWS
    chunk = max(1, 2_000_000 // mags.size)
    while left:
        n = min(chunk, left)
        signs = rng.integers(0, 2, size=(n, mags.size), dtype=np.int8) * 2 - 1
        hits += int((np.abs(signs @ mags) >= observed).sum())
        left -= n
    return (hits + 1) / (DRAWS + 1)


def paired_interval(diff: Sequence[float] | np.ndarray, z: float = Z95) -> tuple[float, float]:
    """A 95% interval for the mean per-case difference: Agresti–Min's, over cases.

    Agresti and Min add half a case to each cell of the paired 2×2 table (n + 2 in all: half a
    case each way, one alike) and take a Wald interval around the shrunk difference. With shares
    the discordance is Σ d² (Σ|d| with one repeat, where it is exactly their interval). The
    pseudo-cases keep it honest where the bootstrap and the plain Wald interval are not: it is
    never zero-width, even when no case differs (no difference seen is not no difference).
    """
    d = np.asarray(diff, dtype=float)
    if d.size == 0:
        raise ValueError("no cases to judge")
    n = d.size + 2
    shift = float(d.sum()) / n
    spread = (float((d * d).sum()) + 1.0) / n
    half = z * math.sqrt(max(spread - shift * shift, 0.0) / n)
    return max(-1.0, shift - half), min(1.0, shift + half)


def holm(pvalues: dict[str, float]) -> dict[str, float]:
    """Holm–Bonferroni adjusted p-values: several rates tested at once, one family error rate.

    Each rate is one more chance of a false "worse"; Holm controls that as Bonferroni does
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
