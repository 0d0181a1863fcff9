"""A quantity derived from held figures by a step no formula of the profile holds: the held
operands, or a change of them, never answer it. Each class is read on folded text (simplified,
lower case) and declined by its name:

- **an index on a base year**: the metric written with 指数 after it (收入指数), or "index" with
  a base (revenue index, 2022 = 100): the level divided by a base year's, times 100. A profile
  that holds an index names it by an alias, read first as a longer word.
- **the growth needed to get back to a level**: 回到 / 恢复到 / 重回 … 水平 (峰值, 高点) with 还需要
  增长 (需, 要, 得; 增长, 提升, 增加); "grow … to get back to / return to / recover": a rate from
  the latest level to a past one, never a year's growth.
- **a projection at a rate**: 推算 / 估算 / 推测 anywhere in the question, or 按 (照) … 增速
  (增长率, 速度) … 预测 / 预计 / 测算 / 算; "projected", "extrapolate", "at that (the same, its)
  rate / pace": a figure no period holds. 预测 / 预计 alone (销售预测, a plan in a document) and
  "forecast" (a model's forecast) name a document's words, not a projection asked.

Each returns the span of the question's words naming it (Chinese), or a (zh, en) name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

Span = tuple[int, int]
Asked = tuple[Span | None, tuple[str, str] | None]

_STOP = r"[^,,。;;??!!]"
_INDEX_ZH = re.compile(r"\s*(?:的)?\s*(?:定基)?指数")
_INDEX_EN = re.compile(
    r"(?<![a-z])index(?:ed)?(?![a-z])(?=.*(?:(?<![a-z])base(?:\s+year)?(?![a-z])|=\s*100))|"
    r"(?<![a-z])(?:base(?:\s+year)?|=\s*100)(?![a-z]).*(?<![a-z])index(?![a-z])"
)
_RECOVER_ZH = re.compile(
    rf"(?:回到|恢复到?|回升到?|重回|返回到?|回复到?){_STOP}{{0,16}}?(?:水平|峰值|高点|高位)"
)
_NEEDED_ZH = re.compile(r"(?:还|仍|再)?(?:需要|需|要|得)(?:再)?(?:增长|提升|增加|上涨|回升)")
_NEEDED_EN = re.compile(
    r"(?<![a-z])(?:grow|growth|increase|rise)(?![a-z])[^.?!]{0,60}?(?<![a-z])(?:to\s+)?"
    r"(?:get\s+back|return|recover|climb\s+back|regain)(?![a-z])|"
    r"(?<![a-z])(?:get\s+back|return|recover)\s+to\s+[^.?!]{0,40}?(?:level|peak|high)"
    r"(?![a-z])[^.?!]{0,40}?(?<![a-z])(?:grow|growth|increase|rise)(?![a-z])"
)
_PROJECTED_ZH = re.compile(
    rf"(?P<bare>推算|估算|推测)|(?:按照?|照|以){_STOP}{{0,16}}?(?:增速|增长率|增长速度|增幅|速度)"
    rf"{_STOP}{{0,8}}?(?P<verb>预测|预计|测算|计算|来算|算)"
)
_PROJECTED_EN = re.compile(
    r"(?<![a-z])(?:projected|projection|extrapolat\w*)(?![a-z])|"
    r"(?<![a-z])at\s+(?:that|this|the\s+same|its|their|the\s+\d{4})\s+(?:[\w-]+\s+){0,2}?"
    r"(?:rate|pace)(?![a-z])"
)


def index_on_base(text: str, metric_spans: Sequence[tuple[str, int, int]]) -> Asked:
    """An index of a held metric on a base year: the span 收入指数, or ("指数", "index")."""
    for _, start, end in metric_spans:
        after = _INDEX_ZH.match(text, end)
        if after is not None:
            return (start, after.end()), None
    if _INDEX_EN.search(text):
        return None, ("指数", "index")
    return None, None


def growth_to_recover(text: str) -> Asked:
    """The growth needed to get back to a past level: the span 还需要增长, or a name."""
    back = _RECOVER_ZH.search(text)
    needed = _NEEDED_ZH.search(text) if back else None
    if needed is not None:
        return needed.span(), None
    if _NEEDED_EN.search(text):
        return None, ("所需增长率", "growth needed")
    return None, None


def projected(text: str) -> Asked:
    """A projection at a rate: the span of its verb (推算), or ("推算", "projection")."""
    zh = _PROJECTED_ZH.search(text)
    if zh is not None:
        return zh.span("bare" if zh.group("bare") else "verb"), None
    if _PROJECTED_EN.search(text):
        return None, ("推算", "projection")
    return None, None


def derived_ask(text: str, metric_spans: Sequence[tuple[str, int, int]]) -> Asked:
    """The first derived quantity the question asks (the classes above), or (None, None)."""
    for found in (
        index_on_base(text, metric_spans),
        growth_to_recover(text),
        projected(text),
    ):
        if found != (None, None):
            return found
    return None, None
