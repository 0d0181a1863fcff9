"""Span masks: filling each span once answers as asking every span at every character would,
for spans inside the text, past either end, empty or reversed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.agent.span_masks import blanked, covered


def _asked_everywhere(size: int, spans: list[tuple[int, int]]) -> list[bool]:
    """The definition: a position is covered when some span holds it."""
    return [any(s <= i < e for s, e in spans) for i in range(size)]


@pytest.mark.parametrize(
    "spans",
    [
        [],  # nothing covered
        [(1, 3)],  # inside
        [(1, 3), (2, 5)],  # overlapping
        [(-2, 2)],  # from before the start
        [(4, 99)],  # past the end
        [(3, 3)],  # empty
        [(4, 2)],  # reversed: holds nothing
    ],
)
def test_covered_is_every_span_asked_at_every_position(spans: list[tuple[int, int]]) -> None:
    assert covered(6, spans) == _asked_everywhere(6, spans)
    expected = "".join(
        " " if c else t for c, t in zip(_asked_everywhere(6, spans), "香港收入多少", strict=True)
    )
    assert blanked("香港收入多少", spans) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab香港 ", max_size=12),
    st.lists(st.tuples(st.integers(-3, 15), st.integers(-3, 15)), max_size=5),
)
def test_any_spans_mask_as_defined(text: str, spans: list[tuple[int, int]]) -> None:
    mask = _asked_everywhere(len(text), spans)
    assert covered(len(text), spans) == mask
    assert blanked(text, spans) == "".join(" " if m else c for m, c in zip(mask, text, strict=True))
