"""What the words next to a number qualify it by, and when a source's figure bears the claim's.

A value a source states may still be misstated by the words around it. The reader (``claims``)
records, for each value:

* bound: a comparative word before it or after it: above (超过, 逾, more than, topped), below
  (不到, 低于, less than, under), near (近, 接近, nearly, almost: just under), at most (不超过,
  最多, 以内, up to, within, "36 months at most"), at least (至少, 不少于, 以上, at least);
* span: "low" or "high" for an end of a range (6至8家, six to eight, between 6 and 8);
* flow: net (净减少, 净关闭, net) or gross (关闭, 新开, opened, closed) for a change of a count;
* scope: each (每次, 单次, each) or total (累计, 合计, in total) for a limit or an amount;
* base: the period a change is measured against (与2022年相比, 较上年, than in 2023);
* per: the time base of a rate (four times a year, 每月, 年均, per week): part of its unit, so
  "four times a month" is not "four times a year".

``misqualified`` then holds a claim to a source that states its value: a bounded claim needs the
source's value on the bound's side (超过24亿 needs more than 2.4 billion; 近4.5亿 needs just
under 450 million, within 5%), or the same bound in the source; a source's bound (below half)
states no value, so a plain claim gets nothing from it; an end of a source's range supports a
range, or the top with "at most" and the bottom with "at least"; net is not gross and each is
not total where both sides say which.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ragspine.numbers import Quantity

ABOVE, BELOW, NEAR, AT_MOST, AT_LEAST = "above", "below", "near", "at_most", "at_least"
NET, GROSS, EACH, TOTAL = "net", "gross", "each", "total"
MISQUALIFIED = "misqualified"

_NEAR_SHARE = Decimal("0.05")
_EN = r"(?<![a-z])(?:{})(?![a-z])"
# Words between a bound and its value, a verb the bound governs too (至少提前60天).
_FILLER = (
    r"(?:\s|约|了|达|为|是|新开|新增|关闭|开设|增长|增加|下降|减少|the|us\$|usd|hk\$|hkd|rmb|\$"
    r"|提前|延后|召开|举行|开展|进行|保留|保持|持有|覆盖)*"
)
_BOUND_BEFORE = re.compile(
    r"(?:(?P<at_most>不超过|不多于|不高于|至多|最多|最高)"
    r"|(?P<at_least>至少|不少于|不低于|最少)"
    r"|(?P<above>超过|超出|逾|多于|过(?=半))"
    r"|(?P<below>不到|不足|低于|少于|未满)"
    r"|(?P<near>接近|将近|逼近|(?<![最附临将接])近)"
    + "|(?P<en_at_most>"
    + _EN.format(r"up\s+to|at\s+most|no\s+more\s+than|not\s+more\s+than|within")
    + ")|(?P<en_at_least>"
    + _EN.format(r"at\s+least|no\s+less\s+than|not\s+less\s+than|no\s+fewer\s+than")
    + ")|(?P<en_above>"
    + _EN.format(r"more\s+than|over|above|exceeds?|exceeded|exceeding|topped|tops|in\s+excess\s+of")
    + ")|(?P<en_below>"
    + _EN.format(r"less\s+than|fewer\s+than|below|under|short\s+of")
    + ")|(?P<en_near>"
    + _EN.format(r"nearly|almost|close\s+to|just\s+under|approaching")
    + f"))(?:{_FILLER})$",
    re.I,
)
_UNIT = r"(?:个工作日|工作日|个月|小时|家|个|天|日|周|年|%|倍|名|人|项|次|美元|港元|元)?"
# A unit in English between a value and the bound after it: "36 months at most".
_EN_UNIT = r"(?:\s*(?:working\s+|business\s+)?(?:months?|days?|years?|weeks?|hours?|times))?"
_BOUND_AFTER = re.compile(
    rf"\s?{_UNIT}{_EN_UNIT}\s?(?:(?P<at_least>以上|及以上)|(?P<at_most>以内|之内|以下|及以下|内(?![地部容]))"
    r"|(?P<en_at_least>\s*or\s+more|\s*at\s+least)|(?P<en_at_most>\s*or\s+(?:less|fewer)|\s*at\s+most))"
)
# Between the two ends of a range: 6至8家, 6家至8家, 10-15%, six to eight.
RANGE_GAP = re.compile(rf"\s*{_UNIT}\s*(?:至|到|~|～|-|–|—|(?<![a-z])to(?![a-z]))\s*")
BETWEEN = re.compile(r"(?<![a-z])between\s*$")
AND_GAP = re.compile(rf"\s*{_UNIT}\s*(?<![a-z])and(?![a-z])\s*")
_FLOW = re.compile(
    r"(?P<net>净(?:增加|增长|增|减少|减|关闭|关店|开店|新开|新增)?|" + _EN.format("net") + ")"
    r"|(?P<gross>关闭|关店|新开|开设|开业|新增门店|"
    + _EN.format("opened|closed|openings|closures|shut|shuttered")
    + ")"
)
_SCOPE = re.compile(
    r"(?P<each>每次|每场|每轮|每一次|单次|每个档期|"
    + _EN.format(r"each|per\s+(?:event|promotion|campaign|time)")
    + r")|(?P<total>累计|合计|总计|共计|总共|"
    + _EN.format(r"in\s+total|cumulative(?:ly)?|combined|altogether")
    + ")"
)


_PER_UNITS = {"年": "year", "月": "month", "周": "week", "日": "day", "天": "day", "季": "quarter"}
_PER_BEFORE = re.compile(r"(?:每|年|月|周|日|季)均|每(?:个)?(?:年|月|周|日|天|季度?)")
_PER_AFTER = re.compile(
    rf"\s?{_UNIT}{_EN_UNIT}\s*(?:(?:a|an|per|each|every)\s+(?P<en>year|month|week|day|quarter)"
    r"(?!\s+(?:ago|earlier|before|later|on))|(?P<ly>annually|monthly|weekly|daily|quarterly)"
    r"|/(?P<slash>年|月|周|日|天|季))",
    re.I,
)
_LY = {
    "annually": "year",
    "monthly": "month",
    "weekly": "week",
    "daily": "day",
    "quarterly": "quarter",
}


def per_of(view: str, left: int, start: int, end: int) -> str | None:
    """The time base of a rate: a per-time word right after the value (four times a year,
    3次/月, monthly) or, in its clause, before it (每年至少四次, 月均110)."""
    after = _PER_AFTER.match(view, end)
    if after:
        if after.group("en"):
            return after.group("en").lower()
        if after.group("ly"):
            return _LY[after.group("ly").lower()]
        return _PER_UNITS[after.group("slash")]
    found = list(_PER_BEFORE.finditer(view, left, start))
    if not found:
        return None
    word = found[-1].group()
    unit = word[0] if word.endswith("均") else word.removeprefix("每").removeprefix("个")[0]
    return _PER_UNITS[unit]


def bound_of(view: str, left: int, start: int, end: int) -> str | None:
    """The comparative word right before the value (after ``left``) or right after it."""
    before = _BOUND_BEFORE.search(view[max(left, start - 24) : start])
    found = before or _BOUND_AFTER.match(view, end)
    if found is None:
        return None
    kind = next(k for k, v in found.groupdict().items() if v is not None)
    return kind.removeprefix("en_")


def flow_of(view: str, left: int, start: int) -> str | None:
    """Net or gross, by the last such word before the value in its clause."""
    found = list(_FLOW.finditer(view, left, start))
    return None if not found else ("net" if found[-1].group("net") else "gross")


def scope_of(view: str, left: int, start: int) -> str | None:
    """Each or total, by the last such word before the value in its clause."""
    found = list(_SCOPE.finditer(view, left, start))
    return None if not found else ("each" if found[-1].group("each") else "total")


def bound_holds(bound: str | None, claim: Quantity, source: Quantity) -> bool:
    """Does a source's plain value lie on the claim's side of its bound?"""
    mark, value = abs(claim.value), abs(source.value)  # 下降超过5%: a fall of more than 5
    if bound == ABOVE:
        return value > mark
    if bound == BELOW:
        return value < mark
    if bound == NEAR:
        return value < mark and mark - value <= abs(mark) * _NEAR_SHARE
    if bound == AT_MOST:
        return value <= mark
    if bound == AT_LEAST:
        return value >= mark
    return True


def misqualified(
    claim: Quantity,
    mine: dict[str, str | None],
    source: Quantity,
    theirs: dict[str, str | None],
) -> bool:
    """Do the words qualifying the claim's value say what the source's do not (see above)?"""
    for key in ("flow", "scope"):
        if mine[key] and theirs[key] and mine[key] != theirs[key]:
            return True
    if theirs["span"] is not None and mine["span"] != theirs["span"]:
        top = theirs["span"] == "high" and mine["bound"] == AT_MOST
        bottom = theirs["span"] == "low" and mine["bound"] == AT_LEAST
        if not (top or bottom):
            return True
    if theirs["bound"] is not None:
        return mine["bound"] != theirs["bound"]
    return not bound_holds(mine["bound"], claim, source)
