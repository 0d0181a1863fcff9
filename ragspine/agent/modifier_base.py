"""The record of what modifies a metric word (``Modifier``), its kinds, and the verbs of change
every reader of modifiers shares: the base the modifier readers (``modifiers.py``, ``ratios.py``)
build on."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine.profile.glossary import AliasMatch

GROWTH, SHARE, PER, MARGIN = "growth", "share", "per", "margin"
RATIO, COMPOUND = "ratio", "compound"

GROWTH_VERB = re.compile(
    r"增长|增加|上升|下降|减少|下滑|变化|变动|增减|增幅|涨幅|升幅|降幅|同比|按年|提高|提升|降低|上涨|下跌|"
    r"(?<![a-z])(?:grow|grew|grown|growth|increas\w*|ris(?:e|en|ing)|rose|f[ae]ll\w*|declin\w*|"
    r"drop\w*|chang\w*|chg|gain\w*|shr[ai]nk\w*|shrunk|contract\w*|slump\w*|plung\w*|jump\w*|"
    r"surg\w*|soar\w*|slid|slide|sliding|tumbl\w*|yoy|y/y|year[\s-]+on[\s-]+year|"
    r"year[\s-]+over[\s-]+year)(?![a-z])"
)


@dataclass(frozen=True)
class Modifier:
    kind: str
    start: int
    end: int
    bare: bool = False  # 增长 / growth alone: the metric's movement; a ratio: asked as a multiple
    unit: str = ""  # per: store, employee, area, other
    whole: tuple[int, int] | None = None  # share: the span naming the whole
    remote: bool = False  # written apart from the metric: its name is built, not quoted
    other: AliasMatch | None = None  # ratio: the denominator; per: the count; share: the part
    inverted: bool = False  # ratio: ``other`` is the numerator (how many times Y was X)
    postposed: bool = False  # share: asked after the part (X是Y的百分之几): a ratio's name
    part: tuple[int, int] | None = None  # share: the part named inside it (收入里线上部分占)


# A year-on-year word with no growth noun of its own: it says which growth, not that of a growth.
_YOY_ONLY = re.compile(
    r"\s*(?:(?:同比|按年)|(?<![a-z])(?:yoy|y-o-y|y/y|year[\s-]+(?:on|over)[\s-]+year)(?![a-z]))"
    r"\s*(?:的)?\s*(?:(?:in|of)\s+)?(?:the\s+)?"
)


def restates_yoy(text: str, mod: Modifier) -> bool:
    """A year-on-year word alone beside a metric that is itself a growth (Hong Kong's yoy revenue
    growth, revenue growth yoy) restates the growth's kind: that growth, never a growth of it."""
    return _YOY_ONLY.fullmatch(text, mod.start, mod.end) is not None
