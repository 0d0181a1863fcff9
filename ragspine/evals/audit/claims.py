"""The audit's own number reader: every number-like run in a text, as a claim to check.

Written apart from the engine's reader on purpose (tests pin that neither imports the other), and
over-inclusive: a number-like run it cannot parse comes back with ``value=None``, to be reported.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache


@dataclass(frozen=True)
class Claim:
    text: str
    value: Fraction | None  # None: number-like, but the audit could not read it
    kind: str  # number | percent | points | multiple
    slack: Fraction  # half a unit of the last digit written, at scale
    direction: int  # -1 fall, +1 rise, 0 unstated
    signed: bool = False  # written with + or -: a change, not a level


# -- normalising --------------------------------------------------------------------------------


def normalise(text: str) -> str:
    """NFKC (full width, superscripts, circled numbers), digits of every script to ASCII, and
    no format characters (zero-width, bidi), which would otherwise split or reorder digits."""
    if text.isascii():
        return text
    if _ENCLOSED_CHARS.search(text):
        text = text.translate(_ENCLOSED)
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    if _DIGIT_OR_FORMAT_CHARS.search(text):
        text = text.translate(_DIGITS_AND_FORMAT)
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


# -- reading ------------------------------------------------------------------------------------

_ZH_DIGIT = dict(zip("零〇一二两三四五六七八九", [0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9], strict=True))
_ZH_DIGIT.update(zip("壹贰叁肆伍陆柒捌玖", range(1, 10), strict=True))
_ZH_UNIT = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_ZH_BIG = {"万": 10**4, "亿": 10**8}
_ZH = "零〇一二两三四五六七八九壹贰叁肆伍陆柒捌玖十拾百佰千仟万亿点"
_MAGNITUDE = {
    "万亿": 10**12, "亿": 10**8, "千万": 10**7, "百万": 10**6, "十万": 10**5, "万": 10**4,
    "千": 10**3, "trillion": 10**12, "billion": 10**9, "bn": 10**9, "million": 10**6,
    "mn": 10**6, "thousand": 10**3,
}  # fmt: skip
_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
_TEENS = "fifteen sixteen seventeen eighteen nineteen"
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety"
_WORDS = {w: i for i, w in enumerate(f"{_ONES} {_TEENS}".split())}
_WORDS.update({w: 10 * i for i, w in enumerate(_TENS.split(), start=2)})
_IDIOMS: dict[str, tuple[Fraction | int, str]] = {
    "翻倍": (2, "multiple"), "翻番": (2, "multiple"), "翻一番": (2, "multiple"),
    "翻了一番": (2, "multiple"), "减半": (Fraction(1, 2), "multiple"), "一半": (50, "percent"),
    "doubled": (2, "multiple"), "twice": (2, "multiple"), "tripled": (3, "multiple"),
    "halved": (Fraction(1, 2), "multiple"), "half": (50, "percent"),
    "a third": (Fraction(100, 3), "percent"), "one third": (Fraction(100, 3), "percent"),
    "two thirds": (Fraction(200, 3), "percent"), "a quarter": (25, "percent"),
}  # fmt: skip
_EN = "|".join(sorted([*_WORDS, "hundred", "thousand", "million", "billion"], key=len)[::-1])
_EN_RUN = rf"(?<![A-Za-z])(?:{_EN})(?:[\s-]+(?:and\s+)?(?:{_EN}))*(?![A-Za-z])"
_IDIOM_RE = "|".join(sorted((re.escape(k) for k in _IDIOMS), key=len, reverse=True))
_MAG_RE = "|".join(sorted(_MAGNITUDE, key=len, reverse=True))
_SUFFIX_RE = (
    r"%|‰|PCT|个百分点|百分点|percentage points?|pp|bps|basis points?|percent|per cent|倍|成|times"
)
# A run is tried only where one can start: most positions in prose start nothing.
_START = rf"(?=[\d+\-负{_ZH}翻减]|(?<![A-Za-z])[A-Za-z])"
_RUN = re.compile(
    rf"{_START}(?:(?P<idiom>{_IDIOM_RE})"
    rf"|(?P<pct>百分之|千分之)(?P<pctnum>[\d.,]+|[{_ZH}]+)"
    rf"|(?P<den>\d+|[{_ZH}]+)分之(?P<num>\d+|[{_ZH}]+)"
    rf"|(?P<sign>[-+]|负)?(?P<body>\d[\d.,']*\d|\d|[{_ZH}]+|{_EN_RUN})"
    rf"(?P<mag>\s?(?:{_MAG_RE})(?![A-Za-z]))?"
    rf"(?P<suffix>\s?(?:{_SUFFIX_RE})(?![A-Za-z]))?)",
    re.IGNORECASE,
)
_CLASSIFIER = re.compile(
    r"^\s?(?:个|家|人|名|项|次|间|所|位|条|件|份|年|月|天|元|美元|港元|门店|店)"
)
_FALL = re.compile(
    r"(下降|减少|下滑|降低|下跌|降幅|fell|declin\w*|decreas\w*|dropp?\w*|down)\W{0,4}\w{0,4}\W{0,2}$",
    re.I,
)
_RISE = re.compile(
    r"(增长|增加|上升|提高|上涨|增幅|grew|grow\w*|increas\w*|rose|up)\W{0,4}\w{0,4}\W{0,2}$", re.I
)


def _zh_value(run: str) -> Fraction | None:
    whole, _, frac = run.partition("点")
    if frac and not all(c in _ZH_DIGIT for c in frac):
        return None
    if len(whole) > 1 and all(c in _ZH_DIGIT for c in whole):
        value = Fraction(int("".join(str(_ZH_DIGIT[c]) for c in whole)))
    else:
        total = section = 0
        digit: int | None = None
        for c in whole:
            if c in _ZH_DIGIT:
                digit = _ZH_DIGIT[c]
            elif c in _ZH_UNIT:
                section += (1 if digit is None else digit) * _ZH_UNIT[c]
                digit = None
            elif c in _ZH_BIG:
                section += digit or 0
                if _ZH_BIG[c] == 10**8:
                    total = (total + section) * 10**8
                else:
                    total += section * 10**4
                section, digit = 0, None
            else:
                return None
        if not whole:
            return None
        value = Fraction(total + section + (digit or 0))
    if frac:
        value += Fraction(int("".join(str(_ZH_DIGIT[c]) for c in frac)), 10 ** len(frac))
    return value


def _en_value(run: str) -> Fraction | None:
    total = current = 0
    for word in re.split(r"[\s-]+", run.lower()):
        if word == "and":
            continue
        if word in _WORDS:
            current += _WORDS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in ("thousand", "million", "billion"):
            total += (current or 1) * _MAGNITUDE[word]
            current = 0
        else:
            return None
    return Fraction(total + current)


_ARABIC = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")


def _arabic(body: str) -> tuple[Fraction, Fraction] | None:
    """Value and half-unit slack of '2,398', '4.55', '1 234'; None for '1.2.3' or '12,34'."""
    if _ARABIC.fullmatch(body) is None:
        return None
    digits = body.replace(",", "")
    places = len(digits.partition(".")[2])
    return Fraction(digits), Fraction(1, 2 * 10**places)


def read_claims(text: str) -> list[tuple[int, int, Claim]]:
    """(start, end, claim) for every number-like run in normalised text, labels included."""
    out = []
    for m in _RUN.finditer(text):
        claim = _claim(m, text)
        if claim is not None:
            out.append((m.start(), m.end(), claim))
    return out


def _claim(m: re.Match[str], text: str) -> Claim | None:
    raw = m.group()
    way = _direction(text[max(0, m.start() - 10) : m.start()])
    if m.group("idiom"):
        amount, kind = _IDIOMS[m.group("idiom").lower()]
        return Claim(raw, Fraction(amount), kind, Fraction(1, 2), way)
    if m.group("pct"):
        v = _any_value(m.group("pctnum"))
        scale = Fraction(1, 10) if m.group("pct") == "千分之" else Fraction(1)
        return Claim(raw, v[0] * scale if v else None, "percent", (v[1] if v else 1) * scale, way)
    if m.group("den"):
        den, num = _any_value(m.group("den")), _any_value(m.group("num"))
        if not den or not num or den[0] == 0:
            return Claim(raw, None, "percent", Fraction(1), way)
        return Claim(raw, num[0] * 100 / den[0], "percent", Fraction(1, 2), way)
    body = m.group("body")
    mag = (m.group("mag") or "").strip().lower()
    suffix = (m.group("suffix") or "").strip().lower()
    if not body[0].isdigit():
        lone = len(body) == 1 or all(c in _ZH_UNIT or c in _ZH_BIG for c in body)
        if all(c in _ZH_BIG for c in body):
            return None  # 万元, 亿元: a unit word, no number in it
        if body[0] in _ZH and lone and not (mag or suffix or _CLASSIFIER.match(text[m.end() :])):
            return None  # 统一, 万一, 千万: a numeral character inside a word
        if body.lower() in ("one", "一") and not (mag or suffix):
            return None  # "one of", 一个, 一些: the article, not a claim
    parsed = _any_value(body)
    value: Fraction | None = parsed[0] if parsed else None
    slack = parsed[1] if parsed else Fraction(1, 2)
    scale = Fraction(_MAGNITUDE.get(mag, 1))
    kind = "number"
    if suffix in ("%", "percent", "per cent", "pct"):
        kind = "percent"
    elif suffix == "‰":
        kind, scale = "percent", scale / 10
    elif suffix == "成":
        kind, scale = "percent", scale * 10
    elif suffix in ("bps", "basis point", "basis points"):
        kind, scale = "points", scale / 100
    elif suffix:
        kind = "multiple" if suffix in ("倍", "times") else "points"
    sign = m.group("sign")
    if sign == "-" and text[m.start() - 1 : m.start()].isdigit():
        sign = None  # 2019-2021: a range dash
    if value is not None and sign in ("-", "负"):
        value = -value
    scaled = None if value is None else value * scale
    return Claim(raw, scaled, kind, slack * scale, way, signed=bool(sign))


@lru_cache(maxsize=4096)
def _any_value(body: str) -> tuple[Fraction, Fraction] | None:
    # Cached: parsing into Fractions is most of the audit's time, and figures recur (years,
    # the same few amounts in every answer about a metric).
    if body[0].isdigit():
        return _arabic(body)
    value = _zh_value(body) if body[0] in _ZH else _en_value(body)
    if value is None:
        return None
    places = len(body.partition("点")[2])
    return value, Fraction(1, 2 * 10**places)


def _direction(before: str) -> int:
    tail = before[-10:]
    if _LEVEL.search(tail):
        return 0  # 增至455: a level, whatever the word before it
    fall, rise = _FALL.search(tail), _RISE.search(tail)
    if fall and (not rise or fall.start() > rise.start()):
        return -1
    return 1 if rise else 0


_LEVEL = re.compile(r"(至|到|to)\s*$")
_YEAR_BEFORE = re.compile(r"(FY|CY|财年|fiscal\s?)$", re.I)
_YEAR_AFTER = re.compile(r"(年|财年|[QH][1-4]|fiscal)", re.I)
_VALUE_BEFORE = re.compile(r"(为|是|达|约|共|:|:|was|of|reached)\s*$")
_QH_BEFORE = re.compile(r"(?<![A-Za-z])[QH]$|第$", re.I)
_LIST_AFTER = re.compile(r"[.、)]")


def is_label(text: str, start: int, end: int, claim: Claim) -> bool:
    """A period label's year, a quarter or half number, or a list number: not a claim."""
    raw = claim.text if claim.signed else claim.text.lstrip("+-")
    if not (raw.isdigit() or raw in "一二三四"):
        return False
    before, after = text[max(0, start - 6) : start], text[end : end + 4]
    if len(raw) == 4 and raw[:2] in ("19", "20"):
        if _YEAR_BEFORE.search(before) or _YEAR_AFTER.match(after):
            return True
        if not _VALUE_BEFORE.search(before) and not _CLASSIFIER.match(after):
            return True
    if len(raw) == 1 and raw in "1234" and _QH_BEFORE.search(before):
        return not before.endswith("第") or after.startswith(("季", "半年"))  # 第2高: a rank
    if raw in "一二三四" and before.endswith("第") and after.startswith("季"):
        return True
    if len(raw) > 2 or not _LIST_AFTER.match(after):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    return text[line_start:start].strip() in ("", "(")
