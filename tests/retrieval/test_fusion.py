from __future__ import annotations

import pytest

from ragspine.retrieval.fusion import rrf_fuse


def test_rank_convention_starts_at_one() -> None:
    """Pinned: the first item of a ranking scores 1/(k+1), the second 1/(k+2)."""
    assert rrf_fuse([["a", "b"]], k=60) == [("a", 1 / 61), ("b", 1 / 62)]


def test_scores_add_across_rankings() -> None:
    fused = dict(rrf_fuse([["a", "b", "c"], ["c", "a"]], k=60))
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert fused["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert fused["b"] == pytest.approx(1 / 62)


def test_agreement_beats_a_single_first_place() -> None:
    fused = rrf_fuse([["x", "a"], ["y", "a"], ["z", "a"]])
    assert fused[0][0] == "a"


@pytest.mark.parametrize(
    ("rankings", "order"),
    [
        ([["a", "b"], ["b", "a"]], ["a", "b"]),  # equal scores: the earlier appearance wins
        ([["a"], ["b"]], ["a", "b"]),  # same best rank: first appearance
        ([["a", "a", "b"]], ["a", "b"]),  # an id repeated in one ranking counts once
        ([[], ["b"]], ["b"]),  # an empty ranking contributes nothing
        ([], []),  # nothing to fuse
    ],
)
def test_ties_and_edges_are_deterministic(rankings: list[list[str]], order: list[str]) -> None:
    assert [i for i, _ in rrf_fuse(rankings)] == order


def test_k_zero_is_plain_reciprocal_rank() -> None:
    assert rrf_fuse([["a", "b"]], k=0) == [("a", 1.0), ("b", 0.5)]


def test_negative_k_is_refused() -> None:
    with pytest.raises(ValueError):
        rrf_fuse([["a"]], k=-1)
