"""A ratio restated per unit of its denominator: 每100美元收入能留下多少美元净利润 (net profit per
100 dollars of revenue), 每赚1元净利润要花多少元研发费用, how many dollars of net profit per 100
dollars of revenue.

Each asks X / Y, where Y is the metric after 每N元 (per N dollars of) and X the metric whose
amount is asked (多少元 X): the profile's derived metric of that formula shape, else declined by
the ratio's name, never X's or Y's level. The amount (100, 1) is the user's scale of the same
ratio, never a name: the words 每100美元 name no entity and no quantity.
"""

from __future__ import annotations

import re

from ragspine.agent.modifier_base import RATIO, Modifier
from ragspine.profile.glossary import AliasMatch

_MONEY = r"(?:元|美元|港元|港币|块钱?|人民币|dollars?|usd|rmb|yuan)"
_PER_LEAD = re.compile(
    r"每\s*(?:赚|挣|花|实现|取得|创造|产生|投入|有)?\s*(?:\d+(?:\.\d+)?|一|百|一百|千|一千)\s*"
    rf"{_MONEY}\s*(?:的)?\s*$|"
    rf"(?<![a-z])(?:per|for\s+every|every|each)\s+(?:\d+(?:\.\d+)?\s*)?{_MONEY}\s+of\s+$"
)
_PER_PHRASE = re.compile(
    r"每\s*(?:赚|挣|花|实现|取得|创造|产生|投入|有)?\s*(?:\d+(?:\.\d+)?|一|百|一百|千|一千)\s*"
    rf"{_MONEY}|(?<![a-z])(?:per|for\s+every|every|each)\s+(?:\d+(?:\.\d+)?\s*)?{_MONEY}"
    r"(?![a-z])"
)
# Between Y and X: the clause goes on (能留下, 要花, can keep) to the amount asked of X.
_ASKED_AMOUNT = re.compile(
    r"[^。??;;]{0,14}?(?:多少|几)\s*" + _MONEY + r"?\s*(?:的)?\s*$|"
    r"(?<![a-z])how\s+(?:much|many)\s+(?:" + _MONEY[3:-1] + r"\s+of\s+)?$"
)


def per_amount_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the per-unit amounts (每100美元, per 100 dollars) in folded ``text``."""
    return [m.span() for m in _PER_PHRASE.finditer(text)]


def per_amount_ratio(text: str, m: AliasMatch, metrics: list[AliasMatch]) -> Modifier | None:
    """每N元 Y … 多少元 X: the ratio X / Y on ``m`` (Y), with X as its numerator, or None."""
    lead = _PER_LEAD.search(text, 0, m.start)
    if lead is None:
        return None
    for x in metrics:
        if x.start > m.end and _ASKED_AMOUNT.search(text, m.end, x.start):
            return Modifier(RATIO, lead.start(), x.end, other=x, inverted=True)
    return None
