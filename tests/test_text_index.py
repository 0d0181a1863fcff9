"""fold_with_index: the folded text and, for each of its characters, the original's index. A
text folding one character to one (every ASCII text, most others) takes a shortcut; whatever
the text, the answer is the per-character fold's."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.text import fold_char, fold_with_index


def _per_character(text: str) -> tuple[str, list[int]]:
    """The definition: each character folded alone, its index repeated once per folded one."""
    parts = [fold_char(c) for c in text]
    return "".join(parts), [i for i, p in enumerate(parts) for _ in p]


@pytest.mark.parametrize(
    "text",
    [
        "Revenue FY2024",  # ASCII: lower case, one for one
        "香港營收是多少",  # traditional to simplified, one for one
        "Ｒｅｖｅｎｕｅ",  # full width, one for one
        "收\u200b入",  # a zero-width space dropped: the index skips it
        "e\u0301clair",  # a combining accent dropped
        "ﬁscal ﬂow",  # a ligature widened to two letters, both pointing at it
        "\u200b",  # nothing left
        "",  # nothing at all
        "\u200bﬁ",  # one dropped and one widened: the same length, not one for one
    ],
)
def test_the_index_is_the_per_character_folds(text: str) -> None:
    assert fold_with_index(text) == _per_character(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aZ 1香營ＲＥ\u200b\u0301ﬁﬂ¼ⅷ收", max_size=20))
def test_any_mix_folds_as_each_character_would(text: str) -> None:
    assert fold_with_index(text) == _per_character(text)
