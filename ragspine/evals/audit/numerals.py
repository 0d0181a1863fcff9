"""Values of the audit's number runs, each with the precision a reader takes it to carry.

Arabic digits with thousands groups, CJK and 大写 numerals (廿 卅 卌 too), compound amounts that
mix digits and CJK units (4亿5500万, 1千3百20万), English number words with "and", "point" and
scale words, and ASCII Roman numerals. Precision is half a unit of the last digit written, and
an integer's trailing zeros are read as rounding (2400 → ±50, 1,000 → ±500).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

ZH_DIGITS = "零〇一二两三四五六七八九壹贰叁肆伍陆柒捌玖"
ZH_UNITS = "十拾百佰千仟廿卄卅卌"
ZH = f"{ZH_DIGITS}{ZH_UNITS}万亿点"
_DIGIT = dict(
    zip(ZH_DIGITS, [0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9], strict=True)
)
_UNIT = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_TENS = {"廿": 2, "卄": 2, "卅": 3, "卌": 4}  # 廿三 = 23: a digit and 十 in one character
_BIG = {"万": 10**4, "亿": 10**8}

_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
_TEENS = "fifteen sixteen seventeen eighteen nineteen"
_TENS_EN = "twenty thirty forty fifty sixty seventy eighty ninety"
WORDS = {w: i for i, w in enumerate(f"{_ONES} {_TEENS}".split())}
WORDS.update({w: 10 * i for i, w in enumerate(_TENS_EN.split(), start=2)})
EN_SCALES = {
    "hundred": 100,
    "thousand": 10**3,
    "million": 10**6,
    "billion": 10**9,
    "trillion": 10**12,
}

_ARABIC = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_ROMAN = re.compile(r"X{0,3}(?:IX|IV|V?I{0,3})")


def rounding(value: Fraction, places: int) -> Fraction:
    """Half a unit of the last digit written; an integer's trailing zeros are rounding."""
    if places:
        return Fraction(1, 2 * 10**places)
    whole, zeros = abs(int(value)), 0
    while whole and whole % 10 == 0:
        whole //= 10
        zeros += 1
    return Fraction(10**zeros, 2)


@lru_cache(maxsize=4096)
def value_of(body: str) -> tuple[Fraction, Fraction] | None:
    """(value, precision) of one run, or None where it is number-like but unreadable.

    Cached: parsing into Fractions is most of the audit's time, and figures recur."""
    if body[0].isdigit():
        if any(c in ZH for c in body):
            return _mixed(body)
        return _arabic(body)
    if body[0] in ZH:
        value = _zh(body)
        places = len(body.partition("点")[2])
    elif body.isupper() and body.isascii() and body.isalpha():
        value, places = _roman(body), 0
    else:
        parsed = _english(body)
        value, places = parsed if parsed else (None, 0)
    if value is None:
        return None
    return value, rounding(value, places)


def _arabic(body: str) -> tuple[Fraction, Fraction] | None:
    """'2,398', '4.55', '1320'; None for '1.2.3'."""
    if _ARABIC.fullmatch(body) is None:
        return None
    digits = body.replace(",", "")
    value = Fraction(digits)
    return value, rounding(value, len(digits.partition(".")[2]))


def _zh(run: str) -> Fraction | None:
    for tens, digit in _TENS.items():
        run = run.replace(tens, f"{'一二三四'[digit - 1]}十")
    whole, _, frac = run.partition("点")
    if frac and not all(c in _DIGIT for c in frac):
        return None
    if not whole:
        return None
    if len(whole) > 1 and all(c in _DIGIT for c in whole):
        value = Fraction(int("".join(str(_DIGIT[c]) for c in whole)))
    else:
        total = _sections([(_DIGIT[c], None) if c in _DIGIT else (None, c) for c in whole])
        if total is None:
            return None
        value = Fraction(total)
    if frac:
        value += Fraction(int("".join(str(_DIGIT[c]) for c in frac)), 10 ** len(frac))
    return value


def _sections(tokens: list[tuple[Fraction | int | None, str | None]]) -> Fraction | None:
    """A CJK amount from (digit, None) and (None, unit) tokens: 4 亿 5500 万 = 455,000,000."""
    total: Fraction = Fraction(0)
    section: Fraction = Fraction(0)
    digit: Fraction | None = None
    for number, unit in tokens:
        if number is not None:
            digit = Fraction(number)
        elif unit in _UNIT:
            section += (1 if digit is None else digit) * _UNIT[unit]
            digit = None
        elif unit in _BIG:
            section += digit or 0
            if _BIG[unit] == 10**8:
                total = (total + section) * 10**8
            else:
                total += section * 10**4
            section, digit = Fraction(0), None
        else:
            return None
    return total + section + (digit or 0)


_MIXED_TOKEN = re.compile(rf"(\d+(?:\.\d+)?)|([{ZH_UNITS}万亿])|(零)|([{ZH_DIGITS}])")


def _mixed(run: str) -> tuple[Fraction, Fraction] | None:
    """4亿5500万, 1千3百20万: digits for the CJK digits of a compound amount."""
    tokens: list[tuple[Fraction | int | None, str | None]] = []
    at = 0
    for m in _MIXED_TOKEN.finditer(run):
        if m.start() != at:
            return None
        at = m.end()
        if m.group(1):
            tokens.append((Fraction(m.group(1)), None))
        elif m.group(2):
            unit = m.group(2)
            if unit in _TENS:
                tokens += [(_TENS[unit], None), (None, "十")]
            else:
                tokens.append((None, unit))
        elif m.group(4):
            tokens.append((_DIGIT[m.group(4)], None))
    if at != len(run):
        return None
    value = _sections(tokens)
    if value is None:
        return None
    # precision: the last written digit group at its unit
    last = re.search(r"(\d+(?:\.\d+)?)([^\d]*)$", run)
    assert last is not None
    unit = 1
    for c in last.group(2):
        unit *= _UNIT.get(c, _BIG.get(c, 1))
    places = len(last.group(1).partition(".")[2])
    return value, rounding(Fraction(last.group(1)), places) * unit


def _english(run: str) -> tuple[Fraction, int] | None:
    """'one thousand three hundred and twenty million', 'one point three billion'."""
    words = [w for w in re.split(r"[\s-]+", run.lower()) if w and w != "and"]
    if "point" in words:
        at = words.index("point")
        digits, rest = [], words[at + 1 :]
        while rest and rest[0] in WORDS and WORDS[rest[0]] < 10:
            digits.append(str(WORDS[rest.pop(0)]))
        whole = _en_int(words[:at]) if words[:at] else 0
        if not digits or whole is None or any(w not in EN_SCALES for w in rest):
            return None
        value = Fraction(whole) + Fraction(int("".join(digits)), 10 ** len(digits))
        for w in rest:
            value *= EN_SCALES[w]
        return value, max(0, len(digits) - sum(len(str(EN_SCALES[w])) - 1 for w in rest))
    number = _en_int(words)
    return (Fraction(number), 0) if number is not None else None


def _en_int(words: list[str]) -> int | None:
    """The largest scale word splits the phrase: (before or one) × scale + after."""
    if not words:
        return None
    scales = [EN_SCALES[w] for w in words if w in EN_SCALES]
    if not scales:
        if any(w not in WORDS for w in words):
            return None
        return sum(WORDS[w] for w in words)
    top = max(scales)
    at = max(i for i, w in enumerate(words) if EN_SCALES.get(w) == top)
    before = _en_int(words[:at]) if words[:at] else 1
    after = _en_int(words[at + 1 :]) if words[at + 1 :] else 0
    if before is None or after is None:
        return None
    return before * top + after


def _roman(run: str) -> Fraction | None:
    if not run or _ROMAN.fullmatch(run) is None:
        return None
    values = {"I": 1, "V": 5, "X": 10}
    total = 0
    for a, b in zip(run, [*run[1:], ""], strict=True):
        total += -values[a] if b and values[b] > values[a] else values[a]
    return Fraction(total)
