"""Which characters of a text a list of spans covers, and the text with them blanked.

Readers mark what other readers explained before reading what is left: a span is filled once,
never every span asked at every character (a question of n characters and k spans costs n + k,
not n × k).
"""

from __future__ import annotations

from collections.abc import Iterable

Span = tuple[int, int]


def covered(size: int, spans: Iterable[Span]) -> list[bool]:
    """For each position of a text of ``size`` characters, whether a span (start, end) holds
    it; a span reaching past either end holds the positions it shares with the text."""
    out = [False] * size
    for start, end in spans:
        lo, hi = max(start, 0), min(end, size)
        if lo < hi:
            out[lo:hi] = [True] * (hi - lo)
    return out


def blanked(text: str, spans: Iterable[Span]) -> str:
    """``text`` with every character a span holds written as a space, its length kept."""
    chars = list(text)
    size = len(chars)
    for start, end in spans:
        lo, hi = max(start, 0), min(end, size)
        if lo < hi:
            chars[lo:hi] = " " * (hi - lo)
    return "".join(chars)
