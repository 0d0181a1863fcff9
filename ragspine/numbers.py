"""One number reader for the engine: a value reads the same in every notation a model may use.

``fold_numbers`` first makes the text honest: format and bidi characters go (so what is checked
is what is shown), and every digit form (other scripts, full width, superscript) becomes ASCII;
circled and parenthesised numbers become ``(n)``. ``read_numbers`` then finds each quantity:

* Arabic numbers with thousands separators, decimals and signs: ``2,398``, ``-0.7``, ``.5``;
* scale words: ``455百万``, ``4.55亿``, ``1.2万``, ``3 million``, ``2bn``;
* CJK numerals, simple and 大写, with 万/亿/千/百 and 两: ``一百二十``, ``壹仟伍佰``, ``三点五``;
* percent and points: ``12%``, ``百分之十二``, ``两成``, ``三分之一``, ``3个百分点``;
* English number words: ``twelve percent``, ``one hundred and twenty``, ``a third``;
* multiples: ``翻倍``, ``doubled``, ``3倍``.

Each ``Quantity`` carries its value at scale and its precision (half a unit of the last digit
written), so ``4.55亿`` and ``455百万`` are the same claim and ``455亿`` is not. A year in a period
label (``FY2024``, ``2024年``, ``2024Q3``), a quarter or half number and list numbering have a
``role`` other than ``value``: they are labels, not claims.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache
from typing import Literal

Kind = Literal["number", "percent", "points", "multiple"]
Role = Literal["value", "year", "period", "list"]

_HALF = Decimal("0.5")
_SIGNS = {"－": "-", "−": "-", "‒": "-", "＋": "+", "％": "%", "．": ".", "﹪": "%"}


@dataclass(frozen=True)
class Quantity:
    value: Decimal  # at scale: 455百万 → 455000000; 12% → 12 with kind "percent"
    kind: Kind
    precision: Decimal  # half a unit of the last digit written, at scale
    start: int
    end: int
    text: str
    role: Role = "value"

    def matches(self, other: Quantity) -> bool:
        """Does ``other`` (from a source) state this value? Rounding down is fine; inventing
        precision, another scale, another sign or another kind is not."""
        if self.kind != other.kind:
            return False
        return abs(self.value - other.value) <= self.precision + other.precision / 1000


# -- folding ----------------------------------------------------------------------------------


@cache
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
    """A translate table filled on first sight of each character: folding runs at C speed."""

    def __missing__(self, code: int) -> str:
        folded = self[code] = _fold_char(chr(code))
        return folded


_FOLD_TABLE = _FoldTable()


def fold_numbers(text: str) -> str:
    """Drop format and bidi characters; every digit form to ASCII; ① → (1)."""
    if text.isascii():
        return text
    return text.translate(_FOLD_TABLE)


# -- CJK and English numerals -----------------------------------------------------------------

_CJK_DIGITS = {
    "零": 0, "〇": 0, "一": 1, "壹": 1, "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2,
    "三": 3, "叁": 3, "參": 3, "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6,
    "陸": 6, "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9, "玖": 9,
}  # fmt: skip
_CJK_SMALL = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CJK_LARGE = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
_CJK_CHARS = "".join([*_CJK_DIGITS, *_CJK_SMALL, *_CJK_LARGE, "点", "點"])


def cjk_value(text: str) -> Decimal | None:
    """一百二十 → 120, 两千三百万 → 23000000, 壹仟伍佰 → 1500, 三点五 → 3.5, 一二三 → 123."""
    whole, _, frac = text.replace("點", "点").partition("点")
    if frac and not all(c in _CJK_DIGITS for c in frac):
        return None
    if whole and all(c in _CJK_DIGITS for c in whole) and len(whole) > 1:
        number = Decimal("".join(str(_CJK_DIGITS[c]) for c in whole))
    else:
        parsed = _cjk_integer(whole)
        if parsed is None:
            return None
        number = Decimal(parsed)
    if frac:
        number += Decimal("0." + "".join(str(_CJK_DIGITS[c]) for c in frac))
    return number


def _cjk_integer(text: str) -> int | None:
    total, section, digit, last_small = 0, 0, None, 10**5
    for c in text:
        if c in _CJK_DIGITS:
            if digit is not None and digit != 0:
                return None  # two digits in a row inside a positional numeral
            digit = _CJK_DIGITS[c]
        elif c in _CJK_SMALL:
            if _CJK_SMALL[c] >= last_small or (digit is None and last_small < 10**5):
                return None  # 十百, 五千百: units fall, and only a leading 十 may drop its 一
            last_small = _CJK_SMALL[c]
            section += (1 if digit is None else digit) * _CJK_SMALL[c]
            digit = None
        elif c in _CJK_LARGE:
            size = _CJK_LARGE[c]
            section += digit or 0
            total = (total + section) * size if size > 1e4 else total + section * size
            section, digit, last_small = 0, None, 10**5
        else:
            return None
    if not text:
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


def english_value(words: str) -> Decimal | None:
    """``one hundred and twenty`` → 120; ``two million`` → 2000000."""
    total, current = 0, 0
    for word in re.split(r"[\s-]+", words.lower()):
        if word == "and" or not word:
            continue
        if word in _EN_UNITS:
            current += _EN_UNITS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in _EN_SCALES:
            total += (current or 1) * _EN_SCALES[word]
            current = 0
        else:
            return None
    return Decimal(total + current)


# -- the reader -------------------------------------------------------------------------------

_SCALE_WORDS = {
    "万亿": 10**12, "千亿": 10**11, "百亿": 10**10, "十亿": 10**9, "亿": 10**8, "億": 10**8,
    "千万": 10**7, "百万": 10**6, "十万": 10**5, "万": 10**4, "萬": 10**4, "千": 10**3,
    "百": 10**2, "trillion": 10**12, "billion": 10**9, "bn": 10**9, "million": 10**6,
    "mn": 10**6, "m": 10**6, "thousand": 10**3, "k": 10**3,
}  # fmt: skip
_SCALE = "|".join(sorted(map(re.escape, _SCALE_WORDS), key=len, reverse=True))
_PERCENT = r"%|‰|(?:percent|per\s+cent|pct)(?![a-z])"
_POINTS = r"个百分点|百分点|(?:percentage\s+points?|pp|basis\s+points?|bps)(?![a-z])"
_MULTIPLE = r"倍|(?:times|x)(?![a-z])|×"
_ARABIC = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+"
_EN_WORD = "|".join(sorted([*_EN_UNITS, *_EN_SCALES], key=len, reverse=True))
_EN_RUN = rf"(?:{_EN_WORD})(?:(?:[\s-]+(?:and[\s-]+)?)(?:{_EN_WORD}))*"
_FRACTION_WORDS: dict[str, Decimal | int] = {
    "half": 50, "a half": 50, "one half": 50, "a third": Decimal(100) / 3,
    "one third": Decimal(100) / 3, "two thirds": Decimal(200) / 3, "a quarter": 25,
    "one quarter": 25, "three quarters": 75, "一半": 50,
}  # fmt: skip
_MULTIPLE_WORDS: dict[str, Decimal | int] = {
    "翻倍": 2, "翻番": 2, "翻了一番": 2, "翻一番": 2, "减半": Decimal("0.5"), "doubled": 2,
    "double": 2, "twice": 2, "tripled": 3, "triple": 3, "halved": Decimal("0.5"),
}  # fmt: skip

_FRACTION_RE = "|".join(
    k.replace(" ", r"\s+") for k in sorted(_FRACTION_WORDS, key=len, reverse=True) if k.isascii()
)
_MULTIPLE_EN = "|".join(sorted((w for w in _MULTIPLE_WORDS if w.isascii()), key=len, reverse=True))
# Tried only where a number can start (a digit, a sign, a numeral character, the first letter
# of a word): the alternatives below are costly, and most positions in prose start nothing.
_START = rf"(?=[\d.+\-负{_CJK_CHARS}翻减百千]|(?<![a-z])[a-z])"
_TOKEN = re.compile(
    rf"""
    {_START}
    (?:
    (?P<fractionword>(?<![a-z])(?:{_FRACTION_RE})(?![a-z])|一半)
  | (?P<multword>翻了一番|翻一番|翻倍|翻番|减半|(?<![a-z])(?:{_MULTIPLE_EN})(?![a-z]))
  | (?P<percentof>百分之|千分之)(?P<pofnum>{_ARABIC}|[{_CJK_CHARS}]+)
  | (?P<fden>{_ARABIC}|[{_CJK_CHARS}]+)分之(?P<fnum>{_ARABIC}|[{_CJK_CHARS}]+)
  | (?P<sign>[-+]|负|minus\s)?
    (?:(?P<arabic>{_ARABIC})|(?P<cjk>[{_CJK_CHARS}]+)|(?P<english>(?<![a-z]){_EN_RUN}(?![a-z])))
    (?P<scale>\s?(?:{_SCALE})(?![a-z]))?
    (?P<suffix>\s?(?:{_POINTS}|{_PERCENT}|{_MULTIPLE})|成)?
    )
    """,
    re.VERBOSE | re.IGNORECASE,
)
_POINTS_RE = re.compile(_POINTS, re.I)
_PERCENT_RE = re.compile(_PERCENT, re.I)
_PERIOD_AFTER = re.compile(r"\s?(?:年|财年|年度|财政年度|fiscal|[QH][1-4]\b|/|-\d{2}\b)", re.I)
_PERIOD_BEFORE = re.compile(r"(?:FY|CY|fiscal\s|\bin\s|\bof\s|\bsince\s|\bby\s|年)\s?$", re.I)
_VALUE_CUE_BEFORE = re.compile(r"(?:为|是|达|达到|约|共|合计|:|:|was|were|reached|of|totaled)\s*$")
_QH_BEFORE = re.compile(r"(?:(?<![a-z])[QH]|第)$", re.I)
_QH_AFTER = re.compile(r"^(?:季度|财季|季|半年|半财年|季报)")
_LIST_AFTER = re.compile(r"^(?:[.、)]\s?|\s)")
# A lone CJK numeral inside a word (统一, 万一, 一些) is not a number; these words make it one.
_CLASSIFIER_AFTER = re.compile(
    r"^\s?(?:个|家|人|名|项|次|款|座|间|所|位|条|件|份|倍|成|年|月|日|天|季|元|美元|港元|"
    r"亿|万|千|百|%|百分点|个百分点|门店|店)"
)


_CITATION = re.compile(r"[((](?:来源|出处|sources?)\s*[::][^()()]*[))]|\[\d{1,2}\]", re.I)


def read_numbers(text: str) -> list[Quantity]:
    """Every quantity in folded text, in order; labels carry a role other than ``value``.

    A citation (``(来源:doc locator)``, ``[2]``) is blanked first: its numbers are lineage.
    """
    if "(" in text or "(" in text or "[" in text:
        text = _CITATION.sub(lambda m: " " * len(m.group()), text)
    out: list[Quantity] = []
    for m in _TOKEN.finditer(text):
        q = _quantity(m, text)
        if q is not None:
            out.append(q)
    return out


def _quantity(m: re.Match[str], text: str) -> Quantity | None:
    start, end, raw = m.start(), m.end(), m.group()
    if m.group("fractionword"):
        word = " ".join(m.group("fractionword").lower().split())
        value = Decimal(_FRACTION_WORDS[word])
        return Quantity(value, "percent", Decimal(1), start, end, raw)
    if m.group("multword"):
        value = Decimal(_MULTIPLE_WORDS[m.group("multword").lower()])
        return Quantity(value, "multiple", Decimal("0.05"), start, end, raw)
    if m.group("percentof"):
        number = _number(m.group("pofnum"))
        if number is None:
            return None
        value, precision = number
        if m.group("percentof") == "千分之":
            value, precision = value / 10, precision / 10
        return Quantity(value, "percent", precision, start, end, raw)
    if m.group("fden"):
        den, num = _number(m.group("fden")), _number(m.group("fnum"))
        if den is None or num is None or den[0] == 0:
            return None
        return Quantity(num[0] * 100 / den[0], "percent", _HALF, start, end, raw)
    return _plain(m, text)


def _number(token: str) -> tuple[Decimal, Decimal] | None:
    """A number token's value and precision (half a unit of its last digit)."""
    if token[0].isdigit() or token[0] == ".":
        digits = token.replace(",", "")
        try:
            value = Decimal(digits)
        except InvalidOperation:
            return None
        places = len(digits.partition(".")[2])
        return value, _HALF * Decimal(10) ** -places
    cjk = cjk_value(token)
    if cjk is None:
        return None
    places = len(token.replace("點", "点").partition("点")[2])
    return cjk, _HALF * Decimal(10) ** -places


def _plain(m: re.Match[str], text: str) -> Quantity | None:
    start, end = m.start(), m.end()
    token = m.group("arabic") or m.group("cjk") or m.group("english")
    scale_word = (m.group("scale") or "").strip().lower()
    if m.group("cjk") and not scale_word and cjk_value(token) is None:
        token, scale_word = _split_scale(token)
    suffix = (m.group("suffix") or "").strip().lower()
    after = text[end : end + 4]
    if m.group("cjk") and not _is_cjk_number(token, scale_word, suffix, after):
        return None
    if m.group("english"):
        if token.lower() == "one" and not (scale_word or suffix):
            return None  # "one of the reasons" is not a claim
        parsed = english_value(token)
        number = None if parsed is None else (parsed, _HALF)
    else:
        number = _number(token)
    if number is None:
        return None
    value, precision = number
    scale = Decimal(_SCALE_WORDS.get(scale_word, 1))
    value, precision = value * scale, precision * scale
    sign = (m.group("sign") or "").strip()
    if sign == "-" and text[max(0, start - 1) : start].isdigit():
        sign = ""  # 2019-2021: a range, not a minus
    if sign in ("-", "负", "minus"):
        value = -value
    kind: Kind = "number"
    if suffix == "成":
        kind, value, precision = "percent", value * 10, precision * 10
    elif _POINTS_RE.fullmatch(suffix):
        kind = "points"
        if suffix.startswith(("basis", "bps")):
            value, precision = value / 100, precision / 100
    elif _PERCENT_RE.fullmatch(suffix):
        kind = "percent"
        if suffix == "‰":
            value, precision = value / 10, precision / 10
    elif suffix:
        kind = "multiple"
    role = _role(m, text, token, kind, scale_word)
    return Quantity(value, kind, precision, start, end, m.group(), role)


def _split_scale(token: str) -> tuple[str, str]:
    """十百万 → (十, 百万): a numeral the greedy match ran into its scale word."""
    for word in sorted((w for w in _SCALE_WORDS if not w.isascii()), key=len, reverse=True):
        if token.endswith(word) and cjk_value(token[: -len(word)]) is not None:
            return token[: -len(word)], word
    return token, ""


def _is_cjk_number(token: str, scale: str, suffix: str, after: str) -> bool:
    if len(token) > 1 and any(c in "壹贰貳叁參肆伍陆陸柒捌玖拾佰仟" for c in token):
        return True  # 大写 numerals exist only to write numbers (one alone may be a name: 壹石通)
    if len(token) == 1 and token in _CJK_LARGE:
        return False  # 万 or 亿 alone is a word
    has_digit = any(c in _CJK_DIGITS for c in token)
    units = {**_CJK_SMALL, **_CJK_LARGE}
    # A numeral starts with a digit or 十 (十二); 万一, 千万 start with a unit: words.
    leads = token[0] in _CJK_DIGITS or token[0] in "十拾"
    positional = has_digit and leads and len(token) > 1 and any(c in units for c in token)
    return bool(scale or suffix or _CLASSIFIER_AFTER.match(after)) or positional


def _role(m: re.Match[str], text: str, token: str, kind: Kind, scale: str) -> Role:
    start, end = m.start(), m.end()
    before, after = text[max(0, start - 12) : start], text[end : end + 8]
    plain_int = kind == "number" and not scale and token.isdigit()
    quarter = not before.endswith("第") or _QH_AFTER.match(after)  # 第7高 is a rank
    if plain_int and len(token) == 1 and _QH_BEFORE.search(before) and quarter:
        return "period"  # Q3, H1, 第3季度
    if m.group("cjk") and before.endswith("第") and _QH_AFTER.match(after):
        return "period"  # 第三季度
    if token == "一" and before[-1:] in _RELATIVE_BEFORE and after[:1] in "年季月期":
        return "period"  # 上一年, 同一期: a period word, not the number one
    if plain_int and len(token) == 4 and 1900 <= int(token) <= 2100:
        if _PERIOD_AFTER.match(after) or _PERIOD_BEFORE.search(before):
            return "year"
        if not _VALUE_CUE_BEFORE.search(before) and not _CLASSIFIER_AFTER.match(after):
            return "year"
    if plain_int and len(token) <= 2 and not m.group("sign"):
        if _line_start(text, start) and _LIST_AFTER.match(after):
            return "list"
        opened = before.endswith("(") and after.startswith(")")
        if opened and _line_start(text, start - 1):
            return "list"
    return "value"


def _line_start(text: str, at: int) -> bool:
    """Nothing but blanks between a line or sentence start and ``at``: where a list number sits."""
    head = text[max(0, at - 8) : at].rstrip(" \t\u3000")
    return not head or head[-1] in _SENTENCE_ENDS


_RELATIVE_BEFORE = set("上下前后同每这那该")
_SENTENCE_ENDS = set("\n。!?;!?;")


def direction_before(text: str, start: int, window: int = 8) -> int:
    """+1 for a rise word just before a number, -1 for a fall word, 0 for neither."""
    before = text[max(0, start - window) : start].lower()
    if _LEVEL_BEFORE.search(before):
        return 0  # 下降至1320: the level reached, not the size of a change
    words = _DIRECTION.findall(before)
    if not words:
        return 0
    fall, _ = words[-1]
    return -1 if fall else 1


_LEVEL_BEFORE = re.compile(r"(?:至|到|\bto)\s*$")
_DIRECTION = re.compile(
    r"(?P<fall>下降|减少|下滑|降低|下跌|萎缩|decline|decrease|fell|down|drop|lower)"
    r"|(?P<rise>增长|增加|上升|提高|上涨|提升|grew|growth|increase|rose|up|higher)"
)
