"""One arithmetic step over figures the sentence itself states (beside ``arithmetic.py``).

A careful model restates two figures and works one step out of them in the same sentence; the
two figures are claims of the sentence, each judged on its own, so only the step is checked
here, and only when the sentence names it:

* a change verb's difference between a from/to pair (由410增至455,增加45; 由14个整合为9个,
  净减少5个): the later figure minus the earlier, with the verb's sign (增加 needs a rise);
* a relative change from a pair and its base (由33.1%降至32.4%,相对降幅约2.1%: 0.7 / 33.1),
  named by a change or relative word (降幅, 增幅, 相对, relative);
* a duration between two clock times the sentence states (上午10点至晚上10点: 12小时;
  8:00–20:00; 10 a.m. to 10 p.m.), in hours;
* a per-X ratio of two counts the sentence states, the first over the second in its order
  (按540家门店和9个配送中心计算,平均每个配送中心服务约60家), named by 每个 / per / each.

Anything else (another verb's sign, a base inverted, a duration in other units) is not one of
these and stays unsupported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from ragspine.agent.claims import Claim
from ragspine.numbers import Quantity

_HUNDRED = Decimal(100)
_SOFT = r"(?:了|约|大约|近|about|around|roughly|some|\s)*"
_UP = re.compile(
    r"(?:净?(?:增加|增长|上升|提高|提升|增多|多了|增)|增幅|涨幅|"
    r"(?<![a-z])(?:rose|grew|increased|climbed|up|(?:an?\s+)?(?:net\s+)?(?:increase|rise|gain)"
    r"\s+of)(?:\s+by)?)" + _SOFT + "$"
)
_DOWN = re.compile(
    r"(?:净?(?:减少|下降|降低|减了|少了|减)|降幅|跌幅|"
    r"(?<![a-z])(?:fell|declined|decreased|dropped|down|(?:an?\s+)?(?:net\s+)?"
    r"(?:decrease|reduction|decline|fall|drop)\s+of)(?:\s+by)?)" + _SOFT + "$"
)
_RELATIVE = re.compile(r"相对|幅|(?<![a-z])(?:relative|relatively|in\s+relative\s+terms)")
_PER = re.compile(r"(?:平均)?每(?:个|家|间|座|名|位)|(?<![a-z])(?:per|for\s+each|each)\s+\S+")
_HOURS_AFTER = re.compile(r"\s?(?:个)?(?:小时|钟头)|\s?(?:hours?|hrs?)(?![a-z])")
_CLOCK = re.compile(
    r"(?P<part>上午|早上|早晨|中午|下午|晚上|傍晚|夜间|凌晨)?\s*"
    r"(?:(?P<h>\d{1,2})\s*(?:点|时)(?:(?P<half>半)|(?P<m>\d{1,2})\s*分)?"
    r"|(?P<h2>\d{1,2})[::](?P<m2>\d{2})(?:\s*(?P<ap>[ap])\.?m\.?)?"
    r"|(?P<h3>\d{1,2})\s*(?P<ap3>[ap])\.?m\.?(?![a-z]))"
)
_AFTERNOON = ("下午", "晚上", "傍晚", "夜间")


def in_sentence(text: str, claims: Sequence[Claim], i: int) -> bool:
    """Is claim ``i`` one step (above) over two other figures of its own sentence?"""
    q, view = claims[i].quantity, text.lower()
    clause = view[: q.start].rsplit(",", 1)[-1].rsplit(",", 1)[-1]
    if _HOURS_AFTER.match(view, q.end) and _clock_hours(view, q):
        return True
    others = [c.quantity for j, c in enumerate(claims) if j != i and c.quantity.role == "value"]
    pairs = [(a, b) for a in others for b in others if a.start < b.start]
    up, down = _UP.search(view[: q.start]), _DOWN.search(view[: q.start])
    if up or down:
        sign = Decimal(1) if up else Decimal(-1)
        for a, b in pairs:
            if a.kind != b.kind:
                continue
            if q.kind == a.kind == "number" and _hit(q, (b.value - a.value) * sign):
                return True
            if q.kind == "points" and a.kind == "percent" and _hit(q, (b.value - a.value) * sign):
                return True
            relative = q.kind == "percent" and a.value and _RELATIVE.search(clause) is not None
            if relative and _hit(q, (b.value - a.value) / a.value * _HUNDRED * sign):
                return True
        return False
    if q.kind == "number" and _PER.search(clause):
        numbers = [(a, b) for a, b in pairs if a.kind == b.kind == "number" and b.value]
        return any(a.end <= q.start and _hit(q, a.value / b.value) for a, b in numbers)
    return False


def _hit(q: Quantity, value: Decimal) -> bool:
    return value >= 0 and q.matches(Quantity(value, q.kind, Decimal("1e-9"), 0, 0, ""))


def _clock_hours(view: str, q: Quantity) -> bool:
    """The hours between the first two clock times the sentence states (past midnight wraps)."""
    times = [t for t in (_time(m) for m in _CLOCK.finditer(view)) if t is not None]
    if len(times) < 2:
        return False
    span = (times[1] - times[0]) % 24
    return q.kind == "number" and _hit(q, span)


def _time(m: re.Match[str]) -> Decimal | None:
    hour = m.group("h") or m.group("h2") or m.group("h3")
    if hour is None:
        return None
    minutes = m.group("m") or m.group("m2") or ("30" if m.group("half") else "0")
    h = Decimal(hour)
    if h > 24 or Decimal(minutes) >= 60:
        return None
    ap = m.group("ap") or m.group("ap3")
    if (m.group("part") in _AFTERNOON or ap == "p") and h < 12:
        h += 12
    if ap == "a" and h == 12:
        h = Decimal(0)
    return h + Decimal(minutes) / 60
