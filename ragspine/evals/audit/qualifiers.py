"""What a number's own words say of it beyond its value, in both languages: a comparative bound
(超过 / more than N, 近 / nearly N, 不到 / below N, 不超过 / up to N, a range's two ends), the
quantity it counts (a stock at a date, a net change, a gross flow), its span (cumulative or per
event), and the year a change is measured from (与2022年相比, 同比, the FROM value's year).

Each is read where the number is written and compared only where both sides state it: unknown
never contradicts."""

from __future__ import annotations

import re
from fractions import Fraction

_CURRENCY = r"(?:US\$|USD|HK\$|HKD|RMB|CNY|NT\$|\$|¥)?\s*"
_EN = r"(?<![A-Za-z])"
# Leftmost wins: 不超过 before 超过, 接近 before 近.
_BOUND_BEFORE = re.compile(
    rf"(?:(?P<le>不超过|不高于|不多于|至多|最多|{_EN}(?:up\s+to|at\s+most|no\s+more\s+than"
    r"|not\s+more\s+than))"
    rf"|(?P<ge>不少于|不低于|至少|{_EN}(?:at\s+least|no\s+(?:less|fewer)\s+than))"
    rf"|(?P<gt>超过|超出|逾|多于|高于|大于|突破|{_EN}(?:more\s+than|over|above|topp(?:ed|ing)|tops"
    r"|exceed(?:ed|s|ing)?|in\s+excess\s+of|upwards\s+of))"
    rf"|(?P<near>接近|将近|逼近|近|{_EN}(?:nearly|almost|close\s+to|approaching|just\s+under))"
    rf"|(?P<lt>不到|不足|低于|少于|未达|{_EN}(?:below|under|less\s+than|fewer\s+than)))"
    # a short verb may stand between the bound and its number (至少提前60天, 最多提前60天)
    rf"(?![A-Za-z])\s*(?:提前|提早|延后|推迟|达到?|需要?|须|保留|维持|保持)?"
    # …or the plan the share is of (未达预算七成: below 70% of budget; 高于上年的5.4% is a level)
    r"\s*(?:预算|目标|计划)?\s*(?:约|about\s+)?"
    rf"{_CURRENCY}$",
    re.I,
)
_BOUND_AFTER = re.compile(
    r"^(?P<gt>余|多)|^(?:个月|[个家人名项次天年%])?\s*(?:(?P<ge>以上)|(?P<le>以下))"
)
# 近三年, 近12个月: the last three years, not almost three
_RECENT_SPAN = re.compile(r"^\s*(?:个?月|年|天|日|周|期|季度?)")
# 6至8家, six to eight, between 6 and 8: a range's two ends (ascending: 由14降至9 is a change)
RANGE_JOIN = re.compile(
    r"^\s*(?:个月|[个家人名项次天年%]|stores?|shops?|days?|months?|years?)?\s*"
    r"(?:至|到|~|～|–|—|(?<![A-Za-z])(?:to|and)(?![A-Za-z]))\s*(?:约|about\s+)?" + _CURRENCY + "$",
    re.I,
)
BETWEEN = re.compile(rf"{_EN}between\s+{_CURRENCY}$", re.I)

_NET = rf"净(?:减少|增加|关闭|关店|开设|新增|开店|收缩|扩张|减|增|开)|{_EN}net(?![A-Za-z])"
_GROSS = (
    rf"新开设?|新增(?!长)|开设|开出|关闭|关店|{_EN}(?:opened|closed|new|openings|closures"
    r"|shut)(?![A-Za-z])"
)
_STOCK = rf"年末|期末|年底|截至|总数|门店数|{_EN}(?:year[\s-]end|end\s+of|total\s+of)(?![A-Za-z])"
_QUANTITY = re.compile(rf"(?P<net>{_NET})|(?P<gross>{_GROSS})|(?P<stock>{_STOCK})", re.I)
_QUANTITY_AFTER = re.compile(
    r"^\s*(?:个|家|间)?\s*(?:(?P<net>net\s+new|net\s+(?:openings|closures))|(?P<gross>new"
    r"|additional)(?![A-Za-z]))",
    re.I,
)
_SPAN = re.compile(
    rf"(?P<cumulative>累计|合计|总计|共计|{_EN}(?:in\s+total|cumulative(?:ly)?|combined"
    r"|altogether)(?![A-Za-z]))"
    rf"|(?P<per_event>每次|每场|单次|每一次|每轮|每期|{_EN}(?:per|each|every)\s+(?:event|time"
    r"|promotion|campaign|round|occasion)s?(?![A-Za-z]))",
    re.I,
)

# 与2022年相比, 较2022年, compared with 2022, over FY2022: the year a change is measured from
_BASE_YEAR = re.compile(
    r"(?:与|和|同|跟)\s*(?:FY)?(?P<a>(?:19|20)\d{2})\s*(?:财?年度?)?\s*(?:相比|比较|对比)"
    r"|(?:较|比|相较于?|相比)\s*(?:FY)?(?P<b>(?:19|20)\d{2})"
    rf"|{_EN}(?:compared\s+(?:with|to)|relative\s+to|versus|vs\.?|over|than(?:\s+in)?|since)\s+"
    r"(?:FY|fiscal\s+(?:year\s+)?)?(?P<c>(?:19|20)\d{2})",
    re.I,
)
_YEAR_ON_YEAR = re.compile(
    rf"同比|较上年|比上年|较去年|比去年|与上年相比|与去年相比|{_EN}(?:year[\s-](?:on|over)[\s-]year"
    r"|yoy|y/y|from\s+(?:the\s+)?(?:prior|previous)\s+year)(?![A-Za-z])",
    re.I,
)


def bound_of(before: str, after: str, text: str) -> str | None:
    """The comparative a number is written with: ``>`` (超过, more than), ``>=`` (至少, 以上),
    ``<`` (不到, below), ``<=`` (不超过, up to, 以下), ``~<`` (近, nearly: just under); a word
    that is itself one (过半) carries its own."""
    if text.startswith("过"):
        return ">"
    m = _BOUND_BEFORE.search(before[-24:])
    if m and not (m.group("near") == "近" and _RECENT_SPAN.match(after)):
        return {"le": "<=", "ge": ">=", "gt": ">", "near": "~<", "lt": "<"}[m.lastgroup or ""]
    a = _BOUND_AFTER.match(after)
    if a:
        return {"gt": ">", "ge": ">=", "le": "<="}[a.lastgroup or ""]
    return None


def quantity_of(near: str, after: str) -> str | None:
    """A count's quantity: ``stock`` (年末门店数为540), ``net`` (净减少20家) or ``gross``
    (关闭20家, 新开176家): the last such word before it in its clause, else one right after."""
    found = list(_QUANTITY.finditer(near))
    if found:
        return found[-1].lastgroup
    a = _QUANTITY_AFTER.match(after)
    return a.lastgroup if a else None


def span_of(clause_before: str) -> str | None:
    """``cumulative`` (全年累计不超过60天) or ``per_event`` (每次不超过60天)."""
    found = list(_SPAN.finditer(clause_before))
    return found[-1].lastgroup if found else None


def base_of(sentence_before: str, own: str | None) -> str | None:
    """The year a change is measured from, where its sentence names one: a year after 与…相比,
    较, compared with; the year before its own after 同比, year-on-year."""
    found = list(_BASE_YEAR.finditer(sentence_before))
    if found:
        m = found[-1]
        return m.group("a") or m.group("b") or m.group("c")
    if _YEAR_ON_YEAR.search(sentence_before) and own and own[:4].isdigit():
        return str(int(own[:4]) - 1)
    return None


def within_bound(bound: str | None, claim: Fraction, source: Fraction, theirs: str | None) -> bool:
    """Does a source value (with its own bound) bear out a claim written with ``bound``?

    Same bound: as stated. The claim's bound against an exact source value: on its side (近:
    under it, within 5%). An exact claim for a bounded source (below half, a range's end, more
    than N) states what the source does not, except a limit named by its value (不超过36个月 →
    36个月)."""
    if bound == theirs:
        return True
    if theirs is not None:
        implied = {">": {">="}, "<": {"<="}, "~<": {"<", "<="}, "lo": {">="}, "hi": {"<="}}
        if bound is None:
            return theirs in ("<=", ">=")
        return bound in implied.get(theirs, set())
    c, s = abs(claim), abs(source)
    return {
        None: True,
        ">": s > c,
        ">=": s >= c,
        "<": s < c,
        "<=": s <= c,
        "~<": s < c and c - s <= c * Fraction(5, 100),
        "lo": s >= c,
        "hi": s <= c,
    }[bound]


# The time base a rate is per (每年四次, four times a month, 月均): part of its unit.
_PER_BEFORE = re.compile(
    r"(?:每|年|月|周|日|季)(?=均)|每(?=年|月|周|星期|天|日|季)|"
    rf"{_EN}(?:annual|monthly|weekly|daily|quarterly)(?![A-Za-z])",
    re.I,
)
_PER_WORD = {
    "年": "year", "月": "month", "周": "week", "星": "week", "天": "day", "日": "day",
    "季": "quarter", "annual": "year", "monthly": "month", "weekly": "week", "daily": "day",
    "quarterly": "quarter",
}  # fmt: skip
_PER_AFTER = re.compile(
    r"^\s*(?:[A-Za-z-]+\s+){0,2}?(?:a|per|each|every)\s+(?P<en>year|month|week|day|quarter)"
    r"(?![A-Za-z])|^\s*(?:次|个|家|人|名)?\s*/\s*(?P<zh>年|月|周|天|日|季)|^[^,。]{0,3}(?P<ly>annually)",
    re.I,
)


def per_of(clause_before: str, after: str) -> str | None:
    """The time base a figure is per: ``year`` (每年, 年均, a year, annually), ``month``,
    ``week``, ``day``, ``quarter``; four times a year is not four times a month."""
    a = _PER_AFTER.match(after)
    if a:
        word = (a.group("en") or a.group("zh") or "").lower()
        return "year" if a.group("ly") else _PER_WORD.get(word, word)
    found = list(_PER_BEFORE.finditer(clause_before))
    if not found:
        return None
    m = found[-1]
    word = m.group().lower()
    if word == "每":
        word = clause_before[m.end() : m.end() + 1]
    return _PER_WORD.get(word)


# What a count counts: stores (家, 门店, stores) or people (名, 人, 员工, employees).
_NOUN_AFTER = re.compile(
    r"^\s*(?:(?P<store>家|间|間|(?:个|個)?门店|(?:个|個)?門店|stores?|shops?|outlets?)"
    r"|(?P<person>名|位|人(?!民)|员工|員工|employees?|staff|people|workers?))",
    re.I,
)


def noun_of(after: str) -> str | None:
    """The noun a count counts, written right after it: ``store`` or ``person``."""
    m = _NOUN_AFTER.match(after)
    return m.lastgroup if m else None
