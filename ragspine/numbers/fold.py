"""Folding: the text as it shows, with every digit form made ASCII, before anything is read.

Format and bidi characters go (so what is checked is what is shown); digits of every script,
full width and superscript become ASCII; circled and parenthesised numbers become ``(n)``;
Roman (Ⅻ) and Suzhou (〢〤) numerals become their values; emphasis or markup inside a number
(``**20**876``, ``1<b>3</b>20``) goes, since it renders as one number (20876, 1320).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ragspine.numbers.numerals import ROMAN_RUN, SUZHOU_RUN, roman_run_value, suzhou_run_value

_SIGNS = {"－": "-", "−": "-", "‒": "-", "＋": "+", "％": "%", "．": ".", "﹪": "%"}


# Both per-character caches are bounded: a sweep of every code point (an attacker's input) must
# not grow a long-running process by the size of Unicode; a text's alphabet fits many times over.
FOLD_TABLE_SIZE = 1 << 15


@lru_cache(maxsize=FOLD_TABLE_SIZE)
def _fold_char(c: str) -> str:
    if c in _SIGNS:
        return _SIGNS[c]
    category = unicodedata.category(c)
    if category == "Cf":
        return ""
    if category == "Nd":
        return str(unicodedata.decimal(c))
    if category == "No":
        name = unicodedata.name(c, "")
        value = unicodedata.numeric(c, None)
        if value is None or value != int(value):
            return c  # vulgar fractions and the like: read by the reader, not rewritten
        n = int(value)
        if "FULL STOP" in name:
            return f"{n}."
        if "SUPERSCRIPT" in name or "SUBSCRIPT" in name:
            return str(n)
        return f"({n})"
    return c


class _FoldTable(dict[int, str]):
    """A translate table filled on first sight of each character, up to ``FOLD_TABLE_SIZE``
    entries (then characters are folded without being kept): folding runs at C speed."""

    def __missing__(self, code: int) -> str:
        folded = _fold_char(chr(code))
        if len(self) < FOLD_TABLE_SIZE:
            self[code] = folded
        return folded


_FOLD_TABLE = _FoldTable()
_MARK = r"(?:\*{1,3}|~~|`|__|</?(?:b|i|u|s|em|strong|mark|sup|sub|span|code)>)"
_MARKED = re.compile(rf"{_MARK}*\d+(?:(?:{_MARK}|[,.])+\d+)+{_MARK}*", re.I)
_MARK_RE = re.compile(_MARK, re.I)
_MARK_CHARS = ("*", "<", "~", "`", "__")
_MARKED_START = re.compile(rf"\d{_MARK}")
_NUMERAL_LETTERS = re.compile("[\u2160-\u217f\u3021-\u3029\u3038-\u303a]")


def fold_numbers(text: str) -> str:
    """Drop format and bidi characters; every digit form to ASCII; ① → (1); Ⅻ → 12; markup
    inside a number out."""
    if not text.isascii():
        if _NUMERAL_LETTERS.search(text):
            text = ROMAN_RUN.sub(lambda m: roman_run_value(m.group()), text)
            text = SUZHOU_RUN.sub(lambda m: suzhou_run_value(m.group()), text)
        text = text.translate(_FOLD_TABLE)
    if not any(c in text for c in _MARK_CHARS):
        return text
    return _MARKED.sub(_unmark, text) if _MARKED_START.search(text) else text


def _unmark(m: re.Match[str]) -> str:
    """``**20**876`` → ``20876``: markup between the digits of one number renders as nothing."""
    whole = m.group()
    digits = [i for i, c in enumerate(whole) if c.isdigit()]
    if not _MARK_RE.search(whole, digits[0], digits[-1]):
        return whole  # markup only around the number (**1,320**): it stays as written
    return _MARK_RE.sub("", whole)
