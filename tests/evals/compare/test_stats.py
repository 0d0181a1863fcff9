"""The paired statistics behind `eval compare`, checked against values worked out by hand and
against brute force over every sign pattern."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from ragspine.evals.compare import stats
from ragspine.evals.compare.power import min_detectable_effect, power
from ragspine.evals.compare.stats import (
    holm,
    mcnemar_exact,
    paired_interval,
    paired_permutation_p,
)


@pytest.mark.parametrize(
    ("b", "c", "expected"),
    [
        # every discordant pair went B's way: 2 · 0.5^10
        (0, 10, 2 * 0.5**10),
        # the test is two-sided, so the direction does not matter
        (10, 0, 2 * 0.5**10),
        # no discordant pair: no evidence at all
        (0, 0, 1.0),
        # an even split is as unremarkable as it gets: capped at 1, not 2 · P(X ≤ 5) > 1
        (5, 5, 1.0),
        # one discordant pair can never be significant
        (1, 0, 1.0),
        # 3 of 14: 2 · (C(14,0) + C(14,1) + C(14,2) + C(14,3)) / 2^14 = 2 · 470 / 16384
        (3, 11, 940 / 16384),
        # 15 pairs all one way, as in the compare tests: 2 · 0.5^15
        (15, 0, 2 * 0.5**15),
    ],
)
def test_mcnemar_exact_is_the_two_sided_binomial_test(b: int, c: int, expected: float) -> None:
    assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-12)


def test_mcnemar_exact_refuses_negative_counts() -> None:
    with pytest.raises(ValueError, match="negative"):
        mcnemar_exact(-1, 3)


@pytest.mark.parametrize(("b", "c"), [(0, 10), (3, 11), (5, 5), (15, 0), (40, 23), (0, 0)])
def test_with_one_repeat_the_permutation_test_is_mcnemars(b: int, c: int) -> None:
    # b cases passed only in A (d = −1), c only in B (d = +1), and concordant ones (d = 0)
    units = [-1] * b + [1] * c + [0] * 7
    assert paired_permutation_p(units) == pytest.approx(mcnemar_exact(b, c), rel=1e-9)


def _brute_force(units: list[int]) -> float:
    observed = abs(sum(units))
    hits = sum(
        abs(sum(s * u for s, u in zip(signs, units, strict=True))) >= observed
        for signs in itertools.product((-1, 1), repeat=len(units))
    )
    return hits / 2 ** len(units)


@pytest.mark.parametrize(
    "units",
    [
        # shares of 3 repeats (×3): a mix of small and whole-case differences
        [-1, -2, 3, -3, -3, -2, 1],
        # shares over 1, 2 or 3 answered repeats (×6): errors left uneven counts
        [-6, -3, -2, 4, -6, -1, -6, 3, -5, -6, 2, -4],
        # every case one way
        [-1, -2, -3, -1, -2],
        # balanced: p is 1
        [2, -2, 1, -1],
    ],
)
def test_the_permutation_test_is_exact(units: list[int]) -> None:
    assert paired_permutation_p(units) == pytest.approx(_brute_force(units), rel=1e-9)


def test_repeats_that_agree_change_no_p() -> None:
    # the same 300 cases run once (d ∈ −1, 0, 1) and three times with every repeat alike
    # (d·3 ∈ −3, 0, 3): the same evidence, the same p
    rng = np.random.default_rng(3)
    once = rng.choice([-1, 0, 0, 0, 1], size=300)
    assert paired_permutation_p(once * 3) == pytest.approx(paired_permutation_p(once), rel=1e-9)


def test_a_grid_too_large_falls_back_to_a_seeded_monte_carlo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    units = np.random.default_rng(1).integers(-3, 4, size=200)
    exact = paired_permutation_p(units)
    monkeypatch.setattr(stats, "MAX_GRID", 0)
    drawn = paired_permutation_p(units)
    assert drawn == pytest.approx(exact, abs=0.02)  # 20,000 draws: a standard error of 0.0035
    assert paired_permutation_p(units) == drawn  # the seed decides everything
    assert paired_permutation_p([-1] * 30) == 1 / (stats.DRAWS + 1)  # never 0


def test_the_interval_is_agresti_and_mins() -> None:
    # 40 cases: 15 passed only in A, 0 only in B. Half a case added to each cell, 42 in all:
    # Δ̃ = (0.5 − 15.5)/42, var = ((15.5 + 0.5)/42 − Δ̃²)/42
    shift = -15 / 42
    half = stats.Z95 * math.sqrt((16 / 42 - shift**2) / 42)
    low, high = paired_interval([-1.0] * 15 + [0.0] * 25)
    assert (low, high) == pytest.approx((shift - half, shift + half))
    assert high < 0


def test_the_interval_is_never_zero_width() -> None:
    # no case differs: nothing seen either way is not a certainty of no difference
    low, high = paired_interval([0.0] * 40)
    assert low == pytest.approx(-high) and 0.04 < high < 0.06
    # every case the worse way: clipped at −1, still an interval
    low, high = paired_interval([-1.0] * 10)
    assert low == -1.0 and high < -0.5


def test_the_interval_narrows_when_a_case_moves_by_a_share() -> None:
    whole = paired_interval([-1.0] * 10 + [0.0] * 20)
    third = paired_interval([-1 / 3] * 30)  # the same mean, spread over every case
    assert (third[1] - third[0]) < (whole[1] - whole[0])


def test_the_interval_refuses_no_cases() -> None:
    with pytest.raises(ValueError, match="no cases"):
        paired_interval([])


def test_holm_on_the_textbook_example() -> None:
    # Wikipedia's Holm–Bonferroni example: four p-values at α = 0.05, H4 and H1 rejected.
    raw = {"H1": 0.01, "H2": 0.04, "H3": 0.03, "H4": 0.005}
    adjusted = holm(raw)
    # sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, max(0.04·1, 0.06) = 0.06
    assert adjusted == pytest.approx({"H1": 0.03, "H2": 0.06, "H3": 0.06, "H4": 0.02})
    assert list(adjusted) == list(raw)  # the caller's order is kept
    assert {k for k, p in adjusted.items() if p < 0.05} == {"H1", "H4"}


def test_holm_is_monotone_and_capped_at_one() -> None:
    raw = {"a": 0.02, "b": 0.021, "c": 0.5, "d": 0.9}
    adjusted = holm(raw)
    # 0.02·4 = 0.08; 0.021·3 = 0.063 would undercut it, so the running maximum keeps 0.08
    assert adjusted["a"] == pytest.approx(0.08)
    assert adjusted["b"] == pytest.approx(0.08)
    assert adjusted["c"] == 1.0 and adjusted["d"] == 1.0  # 0.5·2 = 1.0; 0.9·1 then ≥ 1.0
    ordered = [adjusted[k] for k in sorted(raw, key=raw.__getitem__)]
    assert ordered == sorted(ordered)
    assert all(adjusted[k] >= raw[k] for k in raw)


def test_holm_of_one_or_none_changes_nothing() -> None:
    assert holm({}) == {}
    assert holm({"only": 0.03}) == {"only": 0.03}


# -- power ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cases", "discordance", "alpha", "expected"),
    [
        # 3 cases: all three one way is p = 0.25, so no difference is ever found
        (3, 0.0, 0.05, None),
        # no case differs: six cases all one way are the fewest that reach p < 0.05 (2/2⁶)
        (40, 0.0, 0.05, 6 / 40),
        # a tenth of 300 cases differ: 0.05 (15 cases) is found 80% of the time
        (300, 0.1, 0.05, 0.05),
        # held to α/4 (a family of four), the same comparison needs more
        (300, 0.1, 0.0125, 0.063333),
    ],
)
def test_the_minimum_detectable_effect(
    cases: int, discordance: float, alpha: float, expected: float | None
) -> None:
    assert min_detectable_effect(cases, discordance, alpha) == expected


def test_the_minimum_detectable_effect_grows_with_discordance_and_shrinks_with_cases() -> None:
    by_discordance = [min_detectable_effect(300, psi, 0.05) for psi in (0.0, 0.05, 0.2, 0.5)]
    assert by_discordance == sorted(by_discordance)
    by_cases = [min_detectable_effect(n, 0.2, 0.05) for n in (50, 200, 800)]
    assert by_cases == sorted(by_cases, reverse=True)


def test_power_is_what_the_exact_test_finds_when_simulated() -> None:
    # 300 cases, 10% discordant, B worse by 0.05: each discordant case goes B's worse way
    # with probability 0.75; the exact test at 0.05 on 2,000 such comparisons
    rng = np.random.default_rng(0)
    worse = rng.binomial(30, 0.75, size=2000)
    found = np.mean([paired_permutation_p([-1] * w + [1] * (30 - w)) < 0.05 for w in worse])
    assert power(300, 0.1, 0.05, 0.05) == pytest.approx(found, abs=0.03)
