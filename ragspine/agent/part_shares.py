"""A share asked of a part named INSIDE its whole: 收入里线上部分占了百分之几, 收入中线上的占比,
集团收入当中香港占多少.

The metric word is the whole; the words after 里 / 中 / 当中 / 之中 / 里面 / 内 name the part (a
channel, an entity; 部分 / 渠道 are the part's head, no name of their own), then a share word
(占比, 比重, 份额, 占…百分之几 / 多少 / 比例). It is the part's share of the whole: X[part] / X,
the same formula as 线上收入占比. The part's span is kept on the modifier (``part``), so the
share is read with its channel or entity (``quantity._share``), which a share written around
its part never hides.
"""

from __future__ import annotations

import re

from ragspine.agent.modifier_base import SHARE, Modifier
from ragspine.profile.glossary import AliasMatch

_PART_SHARE = re.compile(
    r"\s*(?:的)?\s*(?:里面|当中|之中|里|中|内)\s*(?:的)?\s*"
    r"(?P<part>[^\s,,。??;;的占]{1,8}?)\s*(?:的)?\s*(?:部分|渠道)?\s*(?:的)?\s*"
    r"(?:占比|比重|份额|占\s*(?:了)?\s*(?:多大)?\s*(?:的)?\s*"
    r"(?:比重|比例|百分比|份额|占比|几成|几分之几|百分之\s*(?:几|多少)|多少|%))"
)


def part_share_after(text: str, m: AliasMatch, taken: list[AliasMatch]) -> Modifier | None:
    """The share of a part written inside the whole ``m`` names (收入里线上部分占了百分之几),
    or None. ``taken``: the glossary's matches: the part must be one of them (a channel, an
    entity), never words nothing names (收入中会员占多少 is no channel's share)."""
    s = _PART_SHARE.match(text, m.end)
    if s is None:
        return None
    start, end = s.span("part")
    if not any(start <= w.start and w.end <= end for w in taken if w is not m):
        return None
    return Modifier(SHARE, s.start(), s.end(), part=(start, end))
