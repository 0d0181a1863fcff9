"""Numerals written in words or in other systems, to their values.

* CJK, simple, 大写 and traditional (壹贰叁, 拾佰仟, 萬億兩), with 廿 (20), 卅 (30) and 卌 (40):
  ``一百二十`` → 120, ``壹仟伍佰`` → 1500, ``廿五`` → 25, ``三点五`` → 3.5, ``一二三`` → 123;
* compound amounts mixing digits and CJK units: ``4亿5500万`` → 455000000, ``1千3百20万`` →
  13200000 (a unit multiplies everything below it written before it, as 一千三百二十万 does);
* English number words with ``and``, ``point`` and scale words: ``one thousand three hundred
  and twenty million`` → 1320000000, ``one point three billion`` → 1300000000;
* Roman numerals (``XII`` → 12; Ⅻ and ⅻ are folded to these first) and Suzhou numerals
  (〢〤 → 24, 〹 → 20).
"""

from __future__ import annotations

import re
from decimal import Decimal

_CJK_DIGITS = {
    "零": 0, "〇": 0, "一": 1, "壹": 1, "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2,
    "三": 3, "叁": 3, "參": 3, "叄": 3, "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6,
    "陆": 6, "陸": 6, "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9, "玖": 9,
}  # fmt: skip
_CJK_SMALL = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CJK_LARGE = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
_CJK_TENS = {"廿": "二十", "卅": "三十", "卌": "四十"}  # one character for two
CJK_CHARS = "".join([*_CJK_DIGITS, *_CJK_SMALL, *_CJK_LARGE, *_CJK_TENS, "点", "點"])
CJK_UNITS = "".join([*_CJK_SMALL, *_CJK_LARGE])
DAXIE = "壹贰貳叁參叄肆伍陆陸柒捌玖拾佰仟"


def cjk_value(text: str) -> Decimal | None:
    """一百二十 → 120, 两千三百万 → 23000000, 壹仟伍佰 → 1500, 三点五 → 3.5, 一二三 → 123."""
    for short, long in _CJK_TENS.items():
        text = text.replace(short, long)
    whole, _, frac = text.replace("點", "点").partition("点")
    if frac and not all(c in _CJK_DIGITS for c in frac):
        return None
    if whole and all(c in _CJK_DIGITS for c in whole) and len(whole) > 1:
        number = Decimal("".join(str(_CJK_DIGITS[c]) for c in whole))
    else:
        parsed = compound_value([_CJK_DIGITS.get(c, c) for c in whole])
        if parsed is None:
            return None
        number = parsed
    if frac:
        number += Decimal("0." + "".join(str(_CJK_DIGITS[c]) for c in frac))
    return number


_MIXED_PART = re.compile(rf"\d+(?:\.\d+)?|[{CJK_UNITS}]")


def mixed_value(text: str) -> Decimal | None:
    """Digits and CJK units together: 4亿5500万 → 455000000, 1千3百20万 → 13200000."""
    parts = _MIXED_PART.findall(text.replace(" ", ""))
    if "".join(parts) != text.replace(" ", ""):
        return None
    return compound_value([Decimal(p) if p[0].isdigit() else p for p in parts])


def compound_value(parts: list[Decimal | int | str]) -> Decimal | None:
    """A positional numeral: digits (any size, from either script) and unit characters."""
    total, section = Decimal(0), Decimal(0)
    digit: Decimal | None = None
    last_small = 10**5
    for part in parts:
        if not isinstance(part, str):
            if digit is not None and digit != 0:
                return None  # two digits in a row inside a positional numeral
            digit = Decimal(part)
        elif part in _CJK_SMALL:
            unit = _CJK_SMALL[part]
            if unit >= last_small or (digit is None and last_small < 10**5):
                return None  # 十百, 五千百: units fall, and only a leading 十 may drop its 一
            last_small = unit
            section += (1 if digit is None else digit) * unit
            digit = None
        elif part in _CJK_LARGE:
            size = _CJK_LARGE[part]
            section += digit or 0
            total = (total + section) * size if size > 10**4 else total + section * size
            section, digit, last_small = Decimal(0), None, 10**5
        else:
            return None
    if not parts:
        return None
    return total + section + (digit or 0)


_EN_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_EN_SCALES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9}
EN_WORDS = [*_EN_UNITS, *_EN_SCALES]


def english_value(words: str) -> Decimal | None:
    """``one hundred and twenty`` → 120; ``one thousand three hundred and twenty million`` →
    1320000000 (a scale word multiplies everything smaller written before it);
    ``one point three billion`` → 1300000000."""
    return english_reading(words)[0]


def english_reading(words: str) -> tuple[Decimal | None, int]:
    """The value and how many digits were written after ``point``."""
    parts: list[tuple[Decimal, int]] = []  # (amount, scale), scales falling
    current, places, fraction = Decimal(0), 0, False
    for word in re.split(r"[\s-]+", words.lower()):
        if word == "and" or not word:
            continue
        if word == "point":
            if fraction:
                return None, 0
            fraction = True
        elif fraction:
            if word not in _EN_UNITS or _EN_UNITS[word] > 9:
                if word not in _EN_SCALES or word == "hundred":
                    return None, 0
                current, fraction = _scaled(parts, current, _EN_SCALES[word]), False
                continue
            places += 1
            current += Decimal(_EN_UNITS[word]) / Decimal(10) ** places
        elif word in _EN_UNITS:
            current += _EN_UNITS[word]
        elif word == "hundred":
            current = (current or Decimal(1)) * 100
        elif word in _EN_SCALES:
            current = _scaled(parts, current, _EN_SCALES[word])
        else:
            return None, 0
    return sum((a * s for a, s in parts), Decimal(0)) + current, places


def _scaled(parts: list[tuple[Decimal, int]], current: Decimal, scale: int) -> Decimal:
    """Apply a scale word: it takes the amount written since the last larger scale."""
    amount = current + sum((a * s for a, s in parts if s < scale), Decimal(0))
    parts[:] = [(a, s) for a, s in parts if s >= scale] + [(amount or Decimal(1), scale)]
    return Decimal(0)


_ROMAN = re.compile(r"^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def roman_value(text: str) -> int | None:
    """XII → 12, MMXXIV → 2024; None unless it is a well-formed Roman numeral."""
    text = text.upper()
    if not text or not _ROMAN.match(text):
        return None
    total = 0
    for i, c in enumerate(text):
        value = _ROMAN_VALUES[c]
        later = _ROMAN_VALUES[text[i + 1]] if i + 1 < len(text) else 0
        total += -value if value < later else value
    return total


# Unicode's Roman numeral characters, as the ASCII letters they stand for.
_ROMAN_CHARS = {
    "Ⅰ": "I", "Ⅱ": "II", "Ⅲ": "III", "Ⅳ": "IV", "Ⅴ": "V", "Ⅵ": "VI", "Ⅶ": "VII", "Ⅷ": "VIII",
    "Ⅸ": "IX", "Ⅹ": "X", "Ⅺ": "XI", "Ⅻ": "XII", "Ⅼ": "L", "Ⅽ": "C", "Ⅾ": "D", "Ⅿ": "M",
}  # fmt: skip
ROMAN_RUN = re.compile("[\u2160-\u216f\u2170-\u217f]+")


def roman_run_value(run: str) -> str:
    """Ⅻ → 12, ⅩⅡ → 12; a run that is not one numeral reads as its characters' values."""
    letters = [_ROMAN_CHARS[chr(ord(c) - 16) if c >= "\u2170" else c] for c in run]
    whole = roman_value("".join(letters))
    if whole is not None:
        return str(whole)
    return " ".join(str(roman_value(x)) for x in letters)


_SUZHOU_DIGITS = {chr(0x3020 + d): d for d in range(1, 10)} | {"〇": 0}
_SUZHOU_TENS = {"〸": 10, "〹": 20, "〺": 30}
SUZHOU_RUN = re.compile(
    "[〇\u3021-\u3029\u3038-\u303a]*[\u3021-\u3029\u3038-\u303a][〇\u3021-\u3029]*"
)


def suzhou_run_value(run: str) -> str:
    """〢〤 → 24 (positional), 〹 → 20, 〹〣 → 23; anything else character by character."""
    if run[0] in _SUZHOU_TENS and len(run) <= 2 and all(c in _SUZHOU_DIGITS for c in run[1:]):
        return str(_SUZHOU_TENS[run[0]] + sum(_SUZHOU_DIGITS[c] for c in run[1:]))
    if all(c in _SUZHOU_DIGITS for c in run):
        return "".join(str(_SUZHOU_DIGITS[c]) for c in run)
    return " ".join(str(_SUZHOU_DIGITS.get(c) or _SUZHOU_TENS.get(c)) for c in run)
