"""compact: the folded text with every character str.isalnum() rejects removed, done by one
regex substitution. Its premise, checked over every code point: re's \\w is isalnum or _."""

from __future__ import annotations

import re
import sys

import pytest

from ragspine.profile.model import compact
from ragspine.text import fold


def test_a_word_character_but_the_underscore_is_exactly_an_alphanumeric_one() -> None:
    alnum = re.compile(r"[^\W_]")
    every = map(chr, range(sys.maxunicode + 1))
    assert [c for c in every if (alnum.fullmatch(c) is not None) != c.isalnum()] == []


@pytest.mark.parametrize(
    "text",
    [
        "Same-Store Sales Growth",  # separators and case
        "營業 收入_(FY2024)",  # traditional, spaces, underscore, brackets
        "½ ① ٣ Ⅷ",  # numeric characters isalnum accepts
        "收\u200b入",  # a zero-width space, dropped by folding
        "",  # nothing
    ],
)
def test_compact_keeps_what_isalnum_keeps(text: str) -> None:
    assert compact(text) == "".join(c for c in fold(text) if c.isalnum())
