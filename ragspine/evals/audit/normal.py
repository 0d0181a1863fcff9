"""The audit's normal form of a text: every notation that writes a digit folded to ASCII digits.

NFKC (full width, superscripts), digits of every script, Roman numerals (Ⅻ → 12), Suzhou
numerals (〢〣 → 23, 〸〹〺 → 十廿卅), traditional 億萬兩點, circled and parenthesised numbers as
list numbers ((1), not a bare 1 glued to the next word), no format characters (zero-width,
bidi), and digit groups put back together where a space or markup splits them (1 320,
``**20**876``, ``1<b>3</b>20``). Written apart from the engine's reader on purpose.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable


def normalise(text: str) -> str:
    if not text.isascii():
        if _ENCLOSED_CHARS.search(text):
            text = text.translate(_ENCLOSED)
        if _BEFORE_NFKC_CHARS.search(text):
            # 〇 inside a run of Suzhou digits is their zero (〥〇 is 50), not a CJK numeral
            text = _SUZHOU_RUN.sub(lambda m: m.group().replace("〇", "0"), text)
            text = text.translate(_BEFORE_NFKC)
        if not unicodedata.is_normalized("NFKC", text):
            text = unicodedata.normalize("NFKC", text)
        if _DIGIT_OR_FORMAT_CHARS.search(text):
            text = text.translate(_DIGITS_AND_FORMAT)
    if _SPLIT.search(text):
        text = _join(text)
    return text


class _Lazy(dict[int, str]):
    """A str.translate table that computes each character's entry once, on first sight."""

    def __init__(self, rule: Callable[[str], str]) -> None:
        super().__init__()
        self.rule = rule

    def __missing__(self, code: int) -> str:
        out = self[code] = self.rule(chr(code))
        return out


def _digit_or_format(ch: str) -> str:
    if ch in "−－":
        return "-"
    if unicodedata.category(ch) == "Cf":
        return ""
    if ch.isdigit() and not ch.isascii():
        digit = unicodedata.digit(ch, None)
        return str(digit) if digit is not None else ch
    return ch


def _enclosed(ch: str) -> str:
    """① and ⑴ are list numbers: (1), not a bare 1 glued to the next word."""
    if ch.isascii() or unicodedata.category(ch) != "No":
        return ch
    name = unicodedata.name(ch, "")
    value = unicodedata.numeric(ch, None)
    if value is not None and value == int(value) and ("CIRCLED" in name or "PARENTHESIZED" in name):
        return f"({int(value)})"
    return ch


# Before NFKC, which would make Ⅻ the letters XII and leave 〡 alone.
_ROMAN = {chr(0x2160 + i): str(i + 1) for i in range(12)} | {
    chr(0x2170 + i): str(i + 1) for i in range(12)
}
_SUZHOU = {chr(0x3021 + i): str(i + 1) for i in range(9)} | {"〸": "十", "〹": "廿", "〺": "卅"}
_TRADITIONAL = dict(zip("億萬兩點貳參陸", "亿万两点贰叁陆", strict=True))
_BEFORE_NFKC = str.maketrans(_ROMAN | _SUZHOU | _TRADITIONAL)
_SUZHOU_RUN = re.compile("[〇\u3021-\u3029]*[\u3021-\u3029][〇\u3021-\u3029]*")
_BEFORE_NFKC_CHARS = re.compile(f"[{''.join(_ROMAN | _SUZHOU | _TRADITIONAL)}]")

_ENCLOSED = _Lazy(_enclosed)
# Quick looks first: most text has no enclosed number, no format character, no foreign digit.
_ENCLOSED_CHARS = re.compile("[\u2460-\u24ff\u2776-\u2793\u3251-\u325f\u3280-\u32bf]")


def _format_chars_pattern() -> str:
    """Every format (Cf) character, as ranges: where Unicode puts them (planes 0, 1 and 14)."""
    codes = [
        c
        for c in [*range(0x20000), *range(0xE0000, 0xE1000)]
        if unicodedata.category(chr(c)) == "Cf"
    ]
    ranges: list[list[int]] = []
    for c in codes:
        if ranges and c == ranges[-1][1] + 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "".join(
        re.escape(chr(a)) + (f"-{re.escape(chr(b))}" if b > a else "") for a, b in ranges
    )


_DIGIT_OR_FORMAT_CHARS = re.compile(f"(?![0-9])\\d|[{_format_chars_pattern()}\u2212\uff0d]")
_DIGITS_AND_FORMAT = _Lazy(_digit_or_format)

# Markup between two digits (**20**876, 1<b>3</b>20) and a space inside a run of thousands
# groups (1 320, after NFKC folded the thin and narrow no-break spaces to a space).
_MARKUP = r"(?:\*{1,3}|_{2,3}|~~|`|</?[A-Za-z][^<>\n]{0,20}>)+"
_SPLIT = re.compile(rf"[\d.,]{_MARKUP}\d|\d \d{{3}}(?!\d)")
_MARKUP_BETWEEN = re.compile(rf"(?<=[\d.,]){_MARKUP}(?=\d)")
_SPACED_GROUPS = re.compile(r"(?<![A-Za-z\d.,])\d{1,3}(?: \d{3})+(?!\d|,\d)")


def _join(text: str) -> str:
    text = _MARKUP_BETWEEN.sub("", text)
    return _SPACED_GROUPS.sub(lambda m: m.group().replace(" ", ""), text)
