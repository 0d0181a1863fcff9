"""The reader: every quantity in folded text, at scale, with labels told apart from claims."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal, InvalidOperation

from ragspine.numbers.numerals import (
    CJK_CHARS,
    CJK_UNITS,
    DAXIE,
    EN_WORDS,
    cjk_value,
    english_reading,
    mixed_value,
    roman_value,
)
from ragspine.numbers.quantity import HALF, Kind, Quantity, Role, precision_of
from ragspine.numbers.words import COUNT_WORDS, ZHE, count_word, in_a_link, links, zhe

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
# Thousands: a comma or full-width comma followed by exactly three digits each time; a thin,
# narrow no-break, no-break or plain space likewise, after a group nothing is glued to.
_SPACED = r"(?<![0-9A-Za-z_.,])\d{1,3}(?:[\x20\u00a0\u2009\u202f]\d{3})+(?!\d|,\d)(?:\.\d+)?"
_ARABIC = rf"{_SPACED}|\d{{1,3}}(?:[,，]\d{{3}})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+"
_ARABIC_SEPARATORS = re.compile(r"[,，\x20\u00a0\u2009\u202f]")
# 4亿5500万, 1千3百20万, 1万2000: digits and CJK units in turn (a bare last group is not a year).
_MIXED = (
    rf"\d+(?:\.\d+)?[{CJK_UNITS}]+(?:\d+(?:\.\d+)?[{CJK_UNITS}]+)*"
    rf"(?:\d+(?:\.\d+)?[{CJK_UNITS}]+|\d+(?![\d.]|\s?[年月日季号]))"
)
_EN_WORD = "|".join(sorted(EN_WORDS, key=len, reverse=True))
_EN_RUN = rf"(?:{_EN_WORD})(?:[\s-]+(?:(?:and|point)[\s-]+)?(?:{_EN_WORD}))*"
_ROMAN = r"(?-i:(?<![A-Za-z])[IVXLCDM]{2,}(?![A-Za-z]))"
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
_START = rf"(?=[\d.+\-负{CJK_CHARS}翻减百千双半过个]|(?<![a-z])[a-z])"
_NUMBER = rf"""
    (?P<sign>[-+]|负|minus\s)?
    (?:(?P<mixed>{{mixed}})|(?P<arabic>{_ARABIC})|(?P<cjk>[{CJK_CHARS}]+)
      |(?P<english>(?<![a-z]){_EN_RUN}(?![a-z]))|(?P<roman>{_ROMAN}))
    (?P<scale>\s?(?:{_SCALE})(?![a-z]))?
    (?P<suffix>\s?(?:{_POINTS}|{_PERCENT}|{_MULTIPLE})|成)?
"""
_TOKEN_BODY = rf"""
    {_START}
    (?:
    (?P<countword>{COUNT_WORDS})
  | (?P<zhe>{ZHE})
  | (?P<fractionword>(?<![a-z])(?:{_FRACTION_RE})(?![a-z])|一半)
  | (?P<multword>翻了一番|翻一番|翻倍|翻番|减半|(?<![a-z])(?:{_MULTIPLE_EN})(?![a-z]))
  | (?P<percentof>百分之|千分之)(?P<pofnum>{_ARABIC}|[{CJK_CHARS}]+)
  | (?P<fden>{_ARABIC}|[{CJK_CHARS}]+)分之(?P<fnum>{_ARABIC}|[{CJK_CHARS}]+)
  | {_NUMBER}
    )
"""
_TOKEN = re.compile(_TOKEN_BODY.replace("{mixed}", _MIXED), re.VERBOSE | re.IGNORECASE)
# The same without compound amounts: a span that looked like one and is not is read again.
_TOKEN_PLAIN = re.compile(_TOKEN_BODY.replace("{mixed}", "(?!)"), re.VERBOSE | re.IGNORECASE)
_POINTS_RE = re.compile(_POINTS, re.I)
_PERCENT_RE = re.compile(_PERCENT, re.I)
_PERIOD_AFTER = re.compile(r"\s?(?:年|财年|年度|财政年度|fiscal|[QH][1-4]\b|/|-\d{2}\b)", re.I)
_PERIOD_BEFORE = re.compile(r"(?:FY|CY|fiscal\s|\bin\s|\bof\s|\bsince\s|\bby\s|年)\s?$", re.I)
_FY_BEFORE = re.compile(r"(?:FY|CY)\s?$", re.I)
_VALUE_CUE_BEFORE = re.compile(r"(?:为|是|达|达到|约|共|合计|:|:|was|were|reached|of|totaled)\s*$")
_STRONG_CUE_BEFORE = re.compile(r"(?:为|是|达|达到|约|共|合计|增至|降至|was|were|reached)\s*$")
_QH_BEFORE = re.compile(r"(?:(?<![a-z])[QH]|第)$", re.I)
_QH_AFTER = re.compile(r"^(?:季度|财季|季|半年|半财年|季报)")
_LIST_AFTER = re.compile(r"^(?:[.、)]\s?|\s)")
# Section, page and note numbers: 第3节, 3.1节, section 4.2, page 12, 附注5.
_LABEL_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:sections?|chapters?|paras?|paragraphs?|pages?|notes?|appendix|tables?"
    r"|slides?|figures?|fig\.|items?|parts?|steps?|phases?|clauses?|articles?|scopes?)|§|附注|附录"
    r"|如表|见表|如图|见图)\s*[=:]?\s*$",
    re.I,
)
_LABEL_AFTER = re.compile(r"^(?:节|章)")
_ORDINAL_LABEL_AFTER = re.compile(r"^(?:节|章|条|款|部分|段|页|篇|册|卷|项|点|步|阶段|轮|期)")
# A lone CJK numeral inside a word (统一, 万一, 一些) is not a number; these words make it one.
_CLASSIFIER_AFTER = re.compile(
    r"^\s?(?:个|家|人|名|项|次|款|座|间|所|位|条|件|份|倍|成|年|月|日|天|季|元|美元|港元|"
    r"亿|万|千|百|%|百分点|个百分点|门店|店)"
)
_AMOUNT_AFTER = re.compile(r"^\s?(?:%|‰|家|个|元|美元|港元|万|亿|百万|个百分点|百分点)")
# A four-digit number with a count or unit after it is a value, not a year: 1999 stores.
_UNIT_AFTER = re.compile(
    r"^\s?(?:家|间|个|人|名|门店|店|元|美元|港元|人民币|万|亿|百万|千|"
    r"(?:points?|pts|stores?|outlets?|shops?|people|persons?|employees|staff|members|customers|units"
    r"|usd|hkd|rmb|cny|dollars?|yuan|million|billion|thousand)(?![a-z]))",
    re.I,
)

# A citation is lineage, not a claim, only when well formed: (来源:DOC LOCATOR、DOC LOCATOR)
# or [n]. DOC is a file name; LOCATOR is exactly a locator. Anything else inside the
# parentheses makes it text, read like any other.
_LOCATOR_PART = (
    r"(?:section=\d+(?:\.\d+)*|(?:para|part|page|slide|table)=\d+|year=\d{4}"
    r"|(?:row|col|sheet)=[^\s,()()、;;]+)"
)
LOCATOR = rf"{_LOCATOR_PART}(?:,{_LOCATOR_PART})*"
DOC = r"[\w\-.]+\.[A-Za-z][A-Za-z0-9]{1,4}(?![\w.])"
_ITEM = rf"{DOC}(?:\s*·?\s*{LOCATOR})?"
CITATION = re.compile(
    rf"[((]\s*(?:来源|出处|sources?)\s*[::]\s*(?P<body>{_ITEM}(?:\s*[、;;]\s*{_ITEM})*)\s*[))]"
    r"|\[(?P<n>\d{1,2})\]",
    re.I,
)


def read_numbers(text: str) -> list[Quantity]:
    """Every quantity in folded text, in order; labels carry a role other than ``value``.

    A well-formed citation (``(来源:doc locator)``, ``[2]``) is blanked first: its numbers are
    lineage. A malformed one is read as text.
    """
    if "(" in text or "(" in text or "[" in text:
        text = CITATION.sub(lambda m: " " * len(m.group()), text)
    text, linked = links(text)
    out: list[Quantity] = []
    for m in _TOKEN.finditer(text):
        q = _quantity(m, text)
        if q is not None and linked and in_a_link(q, linked):
            continue
        if q is None:
            if m.group("mixed"):
                again = _TOKEN_PLAIN.finditer(text, m.start(), m.end())
                out += [p for p in (_quantity(a, text) for a in again) if p is not None]
            continue
        if out and _listed_label(out[-1], q, text):
            q = replace(q, role="list")  # Scope 1 and 2, sections 3 and 4: both labels
        out.append(q)
    return out


_LISTED_LABEL = re.compile(r"\s*(?:和|与|及|、|,|,|&|and|or|to|-|–)\s*", re.I)


def _listed_label(last: Quantity, q: Quantity, text: str) -> bool:
    """A bare number listed right after a label is a label too."""
    if last.role != "list" or q.role != "value" or q.kind != "number":
        return False
    bare = re.fullmatch(r"\d+(?:\.\d+)*", q.text.strip()) is not None
    return bare and _LISTED_LABEL.fullmatch(text, last.end, q.start) is not None


# "half" names a part of a period or a unit ("the first half of 2024", "a half-year report",
# "half-hourly", "a half-dozen") as often as a share; only the share is a quantity.
_HALF_OF_TIME = re.compile(r"(?:first|second|1st|2nd|latter|former|back|front)[\s-]*$", re.I)
_HALF_THEN_TIME = re.compile(
    r"[\s-]*(?:year|yearly|annual|month|day|hour|dozen|time|way|term|point)", re.I
)


def _quantity(m: re.Match[str], text: str) -> Quantity | None:
    start, end, raw = m.start(), m.end(), m.group()
    if m.group("countword"):
        return count_word(m, text)
    if m.group("zhe"):
        return zhe(m)
    if m.group("fractionword"):
        word = " ".join(m.group("fractionword").lower().split())
        if word.endswith("half") and (
            _HALF_OF_TIME.search(text, 0, start) or _HALF_THEN_TIME.match(text, end)
        ):
            return None  # the first half of 2024, a half-year, half-dozen: no share
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
        return Quantity(num[0] * 100 / den[0], "percent", HALF, start, end, raw)
    return _plain(m, text)


def _number(token: str) -> tuple[Decimal, Decimal] | None:
    """A number token's value and precision (see ``precision_of``)."""
    if token[0].isdigit() or token[0] == ".":
        digits = _ARABIC_SEPARATORS.sub("", token)
        try:
            value = Decimal(digits)
        except InvalidOperation:
            return None
        return value, precision_of(value, len(digits.partition(".")[2]))
    cjk = cjk_value(token)
    if cjk is None:
        return None
    places = len(token.replace("點", "点").partition("点")[2])
    return cjk, precision_of(cjk, places)


def _plain(m: re.Match[str], text: str) -> Quantity | None:
    start, end = m.start(), m.end()
    token = m.group("mixed") or m.group("arabic") or m.group("cjk") or m.group("english")
    token = token or m.group("roman")
    scale_word = (m.group("scale") or "").strip().lower()
    if m.group("cjk") and not scale_word and cjk_value(token) is None:
        token, scale_word = _split_scale(token)
    suffix = (m.group("suffix") or "").strip().lower()
    after = text[end : end + 4]
    if m.group("cjk") and not _is_cjk_number(token, scale_word, suffix, after):
        return None
    number = _token_number(m, token, scale_word, suffix, text)
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


def _token_number(
    m: re.Match[str], token: str, scale: str, suffix: str, text: str
) -> tuple[Decimal, Decimal] | None:
    if m.group("mixed"):
        mixed = mixed_value(token)
        return None if mixed is None else (mixed, precision_of(mixed, 0))
    if m.group("roman"):
        roman = roman_value(token)
        before, after = text[max(0, m.start() - 6) : m.start()], text[m.end() : m.end() + 8]
        cued = scale or suffix or _CLASSIFIER_AFTER.match(after) or _UNIT_AFTER.match(after)
        if roman is None or not (cued or _STRONG_CUE_BEFORE.search(before)):
            return None  # MD&A, CD, Phase II: letters, not a number
        return Decimal(roman), HALF
    if m.group("english"):
        if token.lower() == "one" and not (scale or suffix):
            return None  # "one of the reasons" is not a claim
        words, places = english_reading(token)
        if words is None:
            return None
        return words, precision_of(words, places if words != int(words) else 0)
    return _number(token)


def _split_scale(token: str) -> tuple[str, str]:
    """十百万 → (十, 百万): a numeral the greedy match ran into its scale word."""
    for word in sorted((w for w in _SCALE_WORDS if not w.isascii()), key=len, reverse=True):
        if token.endswith(word) and cjk_value(token[: -len(word)]) is not None:
            return token[: -len(word)], word
    return token, ""


def _is_cjk_number(token: str, scale: str, suffix: str, after: str) -> bool:
    if len(token) > 1 and any(c in DAXIE for c in token):
        return True  # 大写 numerals exist only to write numbers (one alone may be a name: 壹石通)
    if len(token) == 1 and token in "万萬亿億":
        return False  # 万 or 亿 alone is a word
    digits = set(CJK_CHARS) - set(CJK_UNITS) - set("点點")
    has_digit = any(c in digits for c in token)
    if token[0] in CJK_UNITS and token[0] not in "十拾" and not suffix:
        return False  # 万一, 千万, 百万美元 (a unit note): a numeral starts with a digit or 十
    leads = token[0] in digits or token[0] in "十拾"
    positional = has_digit and leads and len(token) > 1 and any(c in CJK_UNITS for c in token)
    tens = token[0] in "廿卅卌" and len(token) <= 3
    return bool(scale or suffix or _CLASSIFIER_AFTER.match(after)) or positional or tens


def _role(m: re.Match[str], text: str, token: str, kind: Kind, scale: str) -> Role:
    start, end = m.start(), m.end()
    before, after = text[max(0, start - 12) : start], text[end : end + 8]
    unsigned = not m.group("sign")
    plain = kind == "number" and not scale
    plain_int = plain and token.isdigit()
    quarter = not before.endswith("第") or _QH_AFTER.match(after)  # 第7高 is a rank
    if before.endswith("[^") and after.startswith("]"):
        return "list"  # a markdown footnote marker [^1]: where to look, not how much
    if plain_int and len(token) == 1 and _QH_BEFORE.search(before) and quarter:
        return "period"  # Q3, H1, 第3季度
    if m.group("cjk") and before.endswith("第") and _QH_AFTER.match(after):
        return "period"  # 第三季度
    if m.group("cjk") and len(token) == 4 and _CJK_YEAR.match(token) and after[:1] == "年":
        return "year"  # 二〇二四年
    if token == "一" and before[-1:] in _RELATIVE_BEFORE and after[:1] in "年季月期":
        return "period"  # 上一年, 同一期: a period word, not the number one
    if plain and unsigned and m.group("arabic") and re.fullmatch(r"\d+(?:\.\d+)*", token):
        if _LABEL_BEFORE.search(before) or _LABEL_AFTER.match(after):
            return "list"  # section 4.2, 3.1节, 附注5: where to look, not how much
        if before.endswith("第") and _ORDINAL_LABEL_AFTER.match(after):
            return "list"  # 第3节
    if plain_int and len(token) == 4 and 1900 <= int(token) <= 2100:
        if _PERIOD_AFTER.match(after) or _FY_BEFORE.search(before):
            return "year"
        if _UNIT_AFTER.match(after) or _CLASSIFIER_AFTER.match(after):
            return "value"  # 1999 stores, 2024家门店
        if _PERIOD_BEFORE.search(before) or not _VALUE_CUE_BEFORE.search(before):
            return "year"
    if plain_int and unsigned and len(token) <= 2:
        if _line_start(text, start) and _LIST_AFTER.match(after):
            return "list"
        if before.endswith("(") and after.startswith(")"):
            listed = _line_start(text, start - 1) or not _STRONG_CUE_BEFORE.search(before[:-1])
            if listed and not _AMOUNT_AFTER.match(after[1:]):
                return "list"  # ①②③ inline, (1) (2): numbering, not amounts
    return "value"


def _line_start(text: str, at: int) -> bool:
    """Nothing but blanks between a line or sentence start and ``at``: where a list number sits."""
    head = text[max(0, at - 8) : at].rstrip(" \t\u3000")
    return not head or head[-1] in _SENTENCE_ENDS


_CJK_YEAR = re.compile("[一二][〇零九][〇零一二三四五六七八九]{2}$")
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
