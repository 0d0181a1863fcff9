"""The audit's own number reader: every number-like run in a text, as a claim to check.

Written apart from the engine's reader on purpose (tests pin that neither imports the other), and
over-inclusive: a number-like run it cannot parse comes back with ``value=None``, to be reported.
What is not a claim is decided by ``is_label``: a year in a period label, a quarter or half
number, list numbering (1. at a line's start, ① inline), a section number in prose (第3节,
section 4.2), a citation marker ([1]).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ragspine.evals.audit.normal import normalise
from ragspine.evals.audit.numerals import EN_SCALES, WORDS, ZH, ZH_DIGITS, ZH_UNITS, value_of

__all__ = ["Claim", "is_label", "normalise", "read_claims"]


@dataclass(frozen=True)
class Claim:
    text: str
    value: Fraction | None  # None: number-like, but the audit could not read it
    kind: str  # number | percent | points | multiple
    slack: Fraction  # the precision it is written with (section 4), at scale
    direction: int  # -1 fall, +1 rise, 0 unstated
    signed: bool = False  # written with + or -: a change, not a level
    scale: Fraction = Fraction(1)  # the scale word written with it (百万, billion)
    span: tuple[Fraction, Fraction] | None = None  # a count in words of a range (双位数: 10–99)


# -- reading ------------------------------------------------------------------------------------

_MAGNITUDE = {
    "万亿": 10**12, "亿": 10**8, "千万": 10**7, "百万": 10**6, "十万": 10**5, "万": 10**4,
    "千": 10**3, "trillion": 10**12, "billion": 10**9, "bn": 10**9, "million": 10**6,
    "mn": 10**6, "thousand": 10**3,
}  # fmt: skip
_IDIOMS: dict[str, tuple[Fraction | int, str]] = {
    "翻倍": (2, "multiple"), "翻番": (2, "multiple"), "翻一番": (2, "multiple"),
    "翻了一番": (2, "multiple"), "减半": (Fraction(1, 2), "multiple"), "一半": (50, "percent"),
    "doubled": (2, "multiple"), "twice": (2, "multiple"), "tripled": (3, "multiple"),
    "halved": (Fraction(1, 2), "multiple"), "half": (50, "percent"),
    "a third": (Fraction(100, 3), "percent"), "one third": (Fraction(100, 3), "percent"),
    "two thirds": (Fraction(200, 3), "percent"), "a quarter": (25, "percent"),
    "半数": (50, "percent"), "过半": (50, "percent"), "a dozen": (12, "number"),
    "half a dozen": (6, "number"), "a score": (20, "number"),
    "双位数": (10, "span"), "两位数": (10, "span"), "double-digit": (10, "span"),
    "double digit": (10, "span"), "三位数": (100, "span"), "triple-digit": (100, "span"),
    "个位数": (0, "span"), "single-digit": (0, "span"), "single digit": (0, "span"),
}  # fmt: skip
# a count in words of a range: 双位数 is any magnitude from 10 to 99, 个位数 from 0 to 9
_SPANS = {
    0: (Fraction(0), Fraction(9)),
    10: (Fraction(10), Fraction(99)),
    100: (Fraction(100), Fraction(999)),
}
# 过半年, 过半个月: past half a span of time, not more than half of a whole
_TIME_AFTER = re.compile(r"^(?:年|月|天|日|个|小时|周)")
# English half is a share only where it is not a part of a period or a unit
_HALVES = {"half", "a half", "one half"}
_PART_BEFORE = re.compile(r"\b(?:first|second|1st|2nd|latter|former|back|front)[\s-]*$", re.I)
_UNIT_AFTER = re.compile(r"^[\s-]*(?:year|yearly|annual|month|day|hour|dozen|time|way|term)", re.I)
_SCORE_OF = re.compile(r"^\s+of\s+(?![\d$])", re.I)
_EN = "|".join(sorted([*WORDS, *EN_SCALES], key=len)[::-1])
_DIGIT_WORD = "|".join(w for w, v in WORDS.items() if v < 10)
_AND = "|".join(f"(?<={w} )" for w in EN_SCALES)  # "three hundred and twenty", not "one and two"
_EN_RUN = (
    rf"(?<![A-Za-z])(?:{_EN})(?:[\s-]+(?:(?:{_AND})and\s+)?(?:{_EN})"
    rf"|\s+point(?=\s+(?:{_DIGIT_WORD})(?![A-Za-z])))*(?![A-Za-z])"
)
_ROMAN = r"(?-i:(?<![A-Za-z])(?=[IVX]{2,}(?![A-Za-z]))X{0,3}(?:IX|IV|V?I{0,3})(?![A-Za-z]))"
_ZH_UNIT_CHARS = f"{ZH_UNITS}万亿"
_COMPOUND = (
    rf"\d+(?:\.\d+)?[{_ZH_UNIT_CHARS}](?:零?(?:\d+(?:\.\d+)?|[{ZH_DIGITS}])[{_ZH_UNIT_CHARS}])+"
)
_IDIOM_RE = "|".join(sorted((re.escape(k) for k in _IDIOMS), key=len, reverse=True))
_MAG_RE = "|".join(sorted(_MAGNITUDE, key=len, reverse=True))
_SUFFIX_RE = (
    r"%|‰|PCT|个百分点|百分点|percentage points?|pp|bps|basis points?|percent|per cent|倍|成|times"
    r"|折(?![合旧算扣叠价射返线])"  # 五折让利, 八折现价: 折 then a word is still X折
)
# A run is tried only where one can start: most positions in prose start nothing.
_START = rf"(?=[\d+\-负{ZH}翻减双半过个]|(?<![A-Za-z])[A-Za-z])"
_RUN = re.compile(
    rf"{_START}(?:(?P<idiom>{_IDIOM_RE})"
    rf"|(?P<pct>百分之|千分之)(?P<pctnum>[\d.,]+|[{ZH}]+)"
    rf"|(?P<den>\d+|[{ZH}]+)分之(?P<num>\d+|[{ZH}]+)"
    rf"|(?P<sign>[-+]|负)?(?P<body>{_COMPOUND}|\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?(?!\d)"
    rf"|\d+(?:[.']\d+)*|[{ZH}]+|{_ROMAN}|{_EN_RUN})"
    rf"(?P<mag>\s?(?:{_MAG_RE})(?![A-Za-z]))?"
    rf"(?P<suffix>(?:\s|-(?=[A-Za-z]))?(?:{_SUFFIX_RE})(?![A-Za-z]))?)",
    re.IGNORECASE,
)
CLASSIFIER = re.compile(
    r"^\s?(?:个|家|人|名|项|次|间|所|位|条|件|份|年|月|天|周|星期|小时|元|美元|港元|门店|店)"
)
_EN_UNIT = re.compile(
    r"^\s?(?:stores?|shops?|outlets?|employees|people|persons|staff|members|customers|units"
    r"|items|days|sq|square|km|dollars|USD|HKD|RMB|CNY|yuan)(?![A-Za-z])",
    re.I,
)
_VALUE_BEFORE = re.compile(r"(为|是|达|约|共|:|:|was|of|reached)\s*$", re.I)
_ROMAN_VALUE_BEFORE = re.compile(r"(为|是|达|约|共|:|:|was|were|of|reached|by|to|at)\s*$", re.I)
_FALL = re.compile(
    r"(下降|减少|下滑|降低|下跌|降幅|fell|declin\w*|decreas\w*|dropp?\w*|down)\W{0,4}\w{0,4}\W{0,2}$",
    re.I,
)
_RISE = re.compile(
    r"(增长|增加|上升|提高|上涨|增幅|grew|grow\w*|increas\w*|rose|up)\W{0,4}\w{0,4}\W{0,2}$", re.I
)


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
        idiom = m.group("idiom").lower()
        amount, kind = _IDIOMS[idiom]
        if idiom == "a score" and not _SCORE_OF.match(text[m.end() :]):
            return None  # a score of new stores is 20; a test score is not
        if idiom in _HALVES and (
            _PART_BEFORE.search(text[: m.start()]) or _UNIT_AFTER.match(text[m.end() :])
        ):
            return None  # the first half of 2024, a half-year report, a half-dozen: no share
        if idiom == "过半" and _TIME_AFTER.match(text[m.end() :]):
            return None  # 过半年后: after half a year, no share
        if kind == "span":
            lo, hi = _SPANS[int(amount)]
            return Claim(raw, lo, "number", Fraction(1, 2), way, span=(lo, hi))
        return Claim(raw, Fraction(amount), kind, Fraction(1, 2), way)
    if m.group("pct"):
        v = value_of(m.group("pctnum").strip(".,")) if m.group("pctnum").strip(".,") else None
        scale = Fraction(1, 10) if m.group("pct") == "千分之" else Fraction(1)
        return Claim(raw, v[0] * scale if v else None, "percent", (v[1] if v else 1) * scale, way)
    if m.group("den"):
        den, num = value_of(m.group("den")), value_of(m.group("num"))
        if not den or not num or den[0] == 0:
            return Claim(raw, None, "percent", Fraction(1), way)
        return Claim(raw, num[0] * 100 / den[0], "percent", Fraction(1, 2), way)
    body = m.group("body")
    mag = (m.group("mag") or "").strip().lower()
    suffix = (m.group("suffix") or "").strip().lstrip("-").lower()
    after = text[m.end() :]
    if not body[0].isdigit():
        lone = len(body) == 1 or all(c in _ZH_UNIT_CHARS for c in body)
        if all(c in "万亿" for c in body) or (len(body) > 1 and body in _MAGNITUDE):
            return None  # 万元, 亿元, (百万美元): a unit word, no number in it
        if body[0] in ZH and lone and not (mag or suffix or CLASSIFIER.match(after)):
            return None  # 统一, 万一, 千万: a numeral character inside a word
        if body.lower() in ("one", "一") and not (mag or suffix):
            return None  # "one of", 一个, 一些: the article, not a claim
        if body.isupper() and body.isalpha() and body.isascii():
            unit = mag or suffix or CLASSIFIER.match(after) or _EN_UNIT.match(after)
            before = text[max(0, m.start() - 12) : m.start()]
            if not unit and not _ROMAN_VALUE_BEFORE.search(before):
                return None  # Phase II, World War II: a Roman numeral read only as an amount
    parsed = value_of(body)
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
    elif suffix == "折":  # 八折: 80% of the price; 八五折, 7.5折: 85%, 75%
        kind, scale = "percent", scale * (10 if value is not None and value < 10 else 1)
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
    # "four hundred and ten million", 4亿5500万: the scale word is inside the run, its value
    # already at scale; the claim still carries a scale word (a from-to pair's bare FROM value
    # or a list's figures take the scale of one written without any)
    written = scale * _inner_scale(body)
    return Claim(raw, scaled, kind, slack * scale, way, signed=bool(sign), scale=written)


def _inner_scale(body: str) -> Fraction:
    """The scale word a run ends with: million in "three hundred and eighty million", 万 in
    一千四百万; 1 where its last word is a digit or a place (百, hundred)."""
    if body[-1] in _BIG_UNITS:
        return Fraction(_BIG_UNITS[body[-1]])
    last = re.split(r"[\s-]+", body.lower())[-1]
    return Fraction(EN_SCALES[last]) if EN_SCALES.get(last, 1) >= 1000 else Fraction(1)


_BIG_UNITS = {"万": 10**4, "亿": 10**8}


def _direction(before: str) -> int:
    tail = before[-10:]
    if _LEVEL.search(tail):
        return 0  # 增至455: a level, whatever the word before it
    fall, rise = _FALL.search(tail), _RISE.search(tail)
    if fall and (not rise or fall.start() > rise.start()):
        return -1
    return 1 if rise else 0


# -- labels -------------------------------------------------------------------------------------

_LEVEL = re.compile(r"(至|到|to)\s*$")
_YEAR_BEFORE = re.compile(r"(FY|CY|财年|fiscal\s?)$", re.I)
_YEAR_AFTER = re.compile(r"(年|财年|[QH][1-4]|fiscal)", re.I)
_QH_BEFORE = re.compile(r"(?<![A-Za-z])[QH]$|第$", re.I)
_LIST_AFTER = re.compile(r"[.、)]")
_SECTION_AFTER = re.compile(r"^(?:节|章|条|款|部分|篇|页|段|卷|编)")
_SECTION_BEFORE = re.compile(
    r"(?<![A-Za-z])(?:sections?|sec\.|chapters?|parts?|items?|notes?|clauses?|articles?"
    r"|paragraphs?|para\.?|pages?|p\.|appendix|annex|figures?|fig\.|tables?|slides?|steps?"
    r"|phases?|stages?|scope|tiers?|grades?)\s*$|§\s*$",
    re.I,
)
_PART_OF_YEAR = re.compile(
    r"(?<![A-Za-z])(?:start|end|beginning|middle|outset|close|course|rest|half|quarter)\s+of"
    r"\s+(?:the\s+)?$",
    re.I,
)
_LIST_OF_LABELS = re.compile(
    r"(?<![A-Za-z])(?:sections?|chapters?|parts?|items?|notes?|clauses?|articles?|scopes?|tiers?"
    r"|phases?|stages?|steps?)\s*\d+(?:\s*(?:,|、|和|与|and|or|&)\s*\d+)*\s*(?:,|、|和|与|and|or|&)\s*$",
    re.I,
)
_COUNTED = re.compile(
    r"^\s?(?:个|家|人|名|项|次|间|所|位|条|件|份|天|元|美元|港元|[%‰]|百万|亿|万|千)"
)
_AMOUNT_AFTER = re.compile(rf"^\s?(?:[\d%‰]|{_SUFFIX_RE})", re.I)


def is_label(text: str, start: int, end: int, claim: Claim) -> bool:
    """A period label's year, a quarter or half number, a list or section number, a citation
    marker: not a claim."""
    raw = claim.text if claim.signed else claim.text.lstrip("+-")
    before, after = text[max(0, start - 12) : start], text[end : end + 4]
    if re.fullmatch(r"\d+(?:\.\d+)*", raw) and (
        (before.endswith("第") and _SECTION_AFTER.match(after)) or _SECTION_BEFORE.search(before)
    ):
        return True  # 第3节, section 4.2, Scope 3
    if not (raw.isdigit() or raw in "一二三四"):
        return False
    if (
        len(raw) <= 2
        and _wrapped(text, start, end, "()")
        and (not _COUNTED.match(text[end + 1 :]) or _in_a_list(text, start - 1, raw))
    ):
        return True  # ① inline, read as (1): a list number
    if len(raw) <= 2 and _wrapped(text, start, end, "[]"):
        return True  # [1]: a citation marker
    if len(raw) == 4 and raw[:2] in ("19", "20") and _PART_OF_YEAR.search(before):
        return True  # the start of 2024, the first half of 2023: a date, not an amount
    if _LIST_OF_LABELS.search(text[max(0, start - 24) : start]):
        return True  # Scope 1 and 2, sections 3 and 4: the list's later numbers are labels too
    before = before[-6:]
    if len(raw) == 4 and raw[:2] in ("19", "20"):
        if _YEAR_BEFORE.search(before) or _YEAR_AFTER.match(after):
            return True
        if not _VALUE_BEFORE.search(before) and not _unit_after(text[end : end + 16]):
            return True
    if len(raw) == 1 and raw in "1234" and _QH_BEFORE.search(before):
        return not before.endswith("第") or after.startswith(("季", "半年"))  # 第2高: a rank
    if raw in "一二三四" and before.endswith("第") and after.startswith("季"):
        return True
    if len(raw) > 2 or not _LIST_AFTER.match(after):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    return text[line_start:start].strip() in ("", "(")


def _in_a_list(text: str, at: int, raw: str) -> bool:
    """(2) in a run of list numbers ((1) before it; or (1) with a (2) after it): a list number,
    whatever word follows it (②位于…). 门店(12)家 alone is an amount."""
    if not raw.isdigit() or int(raw) < 1:
        return False
    n = int(raw)
    return f"({n - 1})" in text[:at] if n > 1 else "(2)" in text[at:]


def _wrapped(text: str, start: int, end: int, pair: str) -> bool:
    return text[start - 1 : start] == pair[0] and text[end : end + 1] == pair[1]


def _unit_after(after: str) -> bool:
    return bool(CLASSIFIER.match(after) or _EN_UNIT.match(after) or _AMOUNT_AFTER.match(after))
