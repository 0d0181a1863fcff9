"""Amounts written as words, not numerals: counts and shares (双位数, 半数, a dozen, a score
of), a price at X tenths (八折), and the figures a link shows.

* 双位数 / double-digit is a range (10 to 99), a percentage where it is a change (双位数增长,
  fell by double digits), else a count; 个位数 / single-digit 0 to 9, 三位数 / triple-digit 100
  to 999;
* 半数 / 过半 are half (50%; 过半年, 过半个月 are spans of time, not shares); a dozen 12, half
  a dozen 6, a score of 20 ("a score of 85" is a score, not twenty);
* X折 is a price at X tenths: 八折 80%, 八五折 / 8.5折 / 85折 85%, never 折旧, 折合, 折算 …
  (words that begin with 折);
* in a link (https://…, www.…) only a figure written with a unit is a claim (cut-18-percent):
  a year, an id or a path segment is where to look, not how much.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ragspine.numbers.numerals import cjk_value
from ragspine.numbers.quantity import HALF, Kind, Quantity

COUNT_WORDS = (
    r"个位数|两位数|双位数|三位数|半数|过半(?![数年月天日个小周])"
    r"|(?<![a-z])(?:half\s+a\s+dozen|a\s+dozen|a\s+score\s+of(?!\s*[\d$])"
    r"|(?:single|double|triple)[\s-]digits?)(?![a-z])"
)
_DIGITS_RANGES = {
    "个位数": (0, 9), "single": (0, 9), "两位数": (10, 99), "双位数": (10, 99),
    "double": (10, 99), "三位数": (100, 999), "triple": (100, 999),
}  # fmt: skip
_COUNT_VALUES = {"半数": 50, "过半": 50, "half a dozen": 6, "a dozen": 12, "a score of": 20}
_CHANGE = (
    r"增长|下滑|下降|增幅|降幅|上涨|下跌|涨幅|跌幅|增加|减少|提升|降低"
    r"|growth|declines?|rises?|falls?|drops?|increases?|decreases?|gains?|losses"
)
_CHANGE_AFTER = re.compile(rf"\s*(?:的)?\s*(?:{_CHANGE})", re.I)
_CHANGE_BEFORE = re.compile(
    rf"(?:{_CHANGE}|grew|rose|fell|declined|increased|decreased|dropped|cut)(?:了|\s+by)?\s*$",
    re.I,
)
# 八折, 八五折, 8.5折, 85折: one or two digits, then 折 that begins no word of its own.
ZHE = (
    r"(?<![\d.])(?:[1-9](?:\.?\d)?|[一二三四五六七八九](?:点?[〇零一二三四五六七八九])?)"
    r"(?=折(?![旧合算叠射返线价扣]))"
)


def count_word(m: re.Match[str], text: str) -> Quantity:
    """A count or share in words (see the module's docstring); a range's precision is its
    half-width, so it holds whatever lies in it."""
    word = " ".join(m.group().lower().split())
    start, end = m.start(), m.end()
    lead = word.replace("-", " ").split()[0]
    if lead in _DIGITS_RANGES:
        low, high = _DIGITS_RANGES[lead]
        change = _CHANGE_AFTER.match(text, end) or _CHANGE_BEFORE.search(text, 0, start)
        kind: Kind = "percent" if change else "number"
        mid, half = Decimal(low + high) / 2, Decimal(high - low) / 2 + HALF
        return Quantity(mid, kind, half, start, end, m.group(), spread=True)
    value = Decimal(_COUNT_VALUES[word])
    kind = "percent" if word in ("半数", "过半") else "number"
    return Quantity(value, kind, HALF, start, end, m.group())


def zhe(m: re.Match[str]) -> Quantity:
    """X折, a price at X tenths: the first digit is tens of percent, a second its units."""
    digits = [c if c.isdigit() else str(cjk_value(c)) for c in m.group("zhe") if c not in ".点"]
    value = Decimal(int(digits[0]) * 10 + (int(digits[1]) if len(digits) > 1 else 0))
    return Quantity(value, "percent", HALF, m.start(), m.end() + 1, m.group() + "折")


_LINK = re.compile(r"(?<![a-z])(?:https?://|www\.)[^\s()<>()]+[^\s()<>().,;:!?。,;:]", re.I)
_LINK_SEPARATORS = re.compile(r"[-_/.=?&+#%]")
_SCALED = re.compile(r"(?:万|亿|million|billion|thousand|bn|mn)$", re.I)


def links(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The text with every link's separators made spaces (cut-18-percent reads as 18 percent,
    never -18), and where the links are."""
    found = [m.span() for m in _LINK.finditer(text)] if "www." in text or "://" in text else []
    for s, e in found:
        text = text[:s] + _LINK_SEPARATORS.sub(" ", text[s:e]) + text[e:]
    return text, found


def in_a_link(q: Quantity, found: list[tuple[int, int]]) -> bool:
    """A figure inside a link with no unit: no claim."""
    inside = any(s <= q.start < e for s, e in found)
    return inside and q.kind == "number" and not _SCALED.search(q.text.strip())
