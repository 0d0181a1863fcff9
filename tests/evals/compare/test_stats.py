"""The paired statistics behind `eval compare`, checked against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from ragspine.evals.compare.stats import (
    holm,
    mcnemar_exact,
    min_detectable_effect,
    paired_bootstrap,
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


def test_paired_bootstrap_gives_the_mean_difference_and_a_deterministic_interval() -> None:
    a = [1.0] * 30 + [0.0] * 10
    b = [1.0] * 20 + [0.0] * 20
    mean, low, high = paired_bootstrap(a, b, seed=7)
    assert mean == pytest.approx(-0.25)
    assert low < mean < high < 0
    assert paired_bootstrap(a, b, seed=7) == (mean, low, high)  # the seed decides everything
    assert paired_bootstrap(a, b, seed=8) != (mean, low, high)


def test_paired_bootstrap_of_identical_outcomes_is_exactly_zero() -> None:
    same = [1.0, 0.0, 1.0, 1.0]
    assert paired_bootstrap(same, same) == (0.0, 0.0, 0.0)


def test_clustered_interval_is_wider_when_repeats_are_perfectly_correlated() -> None:
    # 20 cases × 5 repeats; each case's repeats agree exactly, so the data hold 20 draws, not 100
    per_case_a = [1.0] * 14 + [0.0] * 6
    per_case_b = [1.0] * 10 + [0.0] * 4 + [1.0] * 2 + [0.0] * 4
    a = [x for x in per_case_a for _ in range(5)]
    b = [x for x in per_case_b for _ in range(5)]
    clusters = [f"case-{i}" for i in range(20) for _ in range(5)]
    mean, low, high = paired_bootstrap(a, b)
    c_mean, c_low, c_high = paired_bootstrap(a, b, clusters=clusters)
    assert mean == pytest.approx(c_mean) == pytest.approx(-0.1)
    # about √5 wider: the unclustered interval pretends there are five times the cases
    assert (c_high - c_low) > 1.8 * (high - low)


def test_clustered_bootstrap_weights_a_case_by_its_pairs() -> None:
    # a ratio estimator: the mean is over pairs, whatever the clusters' sizes
    mean, _, _ = paired_bootstrap([0.0] * 3, [1.0, 0.0, 0.0], clusters=["x", "y", "y"])
    assert mean == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    ("a", "b", "clusters", "message"),
    [
        # lists of different lengths are not pairs
        ([1.0], [1.0, 0.0], None, "differ in length"),
        # nothing to resample
        ([], [], None, "no pairs"),
        # a cluster label for every pair, no fewer
        ([1.0, 0.0], [1.0, 1.0], ["x"], "cluster labels"),
    ],
)
def test_paired_bootstrap_refuses_bad_input(
    a: list[float], b: list[float], clusters: list[str] | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        paired_bootstrap(a, b, clusters=clusters)


def test_min_detectable_effect_follows_the_normal_approximation() -> None:
    # (1.959964 + 0.841621) · √(0.5 / 40)
    assert min_detectable_effect(40) == pytest.approx(2.801585 * math.sqrt(0.5 / 40), rel=1e-5)
    assert min_detectable_effect(40) == pytest.approx(0.3132, abs=1e-4)


def test_min_detectable_effect_shrinks_with_more_cases_and_grows_with_power() -> None:
    sizes = [10, 40, 160, 640]
    effects = [min_detectable_effect(n) for n in sizes]
    assert effects == sorted(effects, reverse=True)
    assert effects[0] / effects[1] == pytest.approx(2.0)  # four times the cases, half the effect
    assert min_detectable_effect(40, power=0.9) > min_detectable_effect(40)
    assert min_detectable_effect(40, alpha=0.01) > min_detectable_effect(40)
    assert min_detectable_effect(0) == math.inf
