"""A growth asked of a growth is a change of it, in points: "the growth in Hong Kong's revenue
growth", 收入增长率的增长, 增速的增幅.

A growth rate's own growth (a relative change of a percentage) is not what a reader means, nor
is it the growth itself: the question asks how the growth rate moved. So a growth word whose
object is a phrase ending in a growth word (growth in … revenue growth; 增长率 / 增速 then 的
增长 / 增幅) is a change cue: the growth rate is read in both years and their difference, in
percentage points, answers it (where a year's growth is not held, it is said so, never the
growth alone).
"""

from __future__ import annotations

import re

from ragspine.agent.shape_lookup import growth_named
from ragspine.profile import DomainProfile

Span = tuple[int, int]

_GROWTH_EN = r"growth(?:\s+rates?)?|yoy|y/y"
_OF_GROWTH_EN = re.compile(
    r"(?<![a-z])(?P<outer>growth|increase|rise|acceleration)\s+(?:in|of)\s+(?:the\s+)?"
    rf"(?:[a-z0-9'’&-]+\s+){{0,4}}?(?:{_GROWTH_EN})(?![a-z])"
)
_OF_GROWTH_ZH = re.compile(
    r"(?:增长率|增速|增幅|增长速度)\s*(?:的)?\s*(?P<outer>增长率|增长|增幅|增速|涨幅)"
)


def growth_of_growth(text: str) -> list[Span]:
    """The spans of ``text`` (folded) of each growth word asked of a growth: change cues."""
    found = [*_OF_GROWTH_EN.finditer(text), *_OF_GROWTH_ZH.finditer(text)]
    return sorted(m.span("outer") for m in found)


_VERBLESS_YOY = re.compile(r"同比\s*(?:的)?\s*(?:是|有|为)?\s*多少")


def restated_growths(
    text: str, yoy: re.Match[str], spans: list[tuple[str, int, int]], profile: DomainProfile
) -> set[str]:
    """The metrics a verbless 同比 (同比是多少) restates rather than moves: glued to a metric that
    is itself a growth (同店同比, a common shorthand of same-store sales growth; 同店销售增长同比),
    同比 says which growth it is, so its level answers. With a verb (同比增长多少) the growth's
    own movement is still asked, and a level metric's 同比 (收入同比) stays its growth rate."""
    if _VERBLESS_YOY.match(text, yoy.start()) is None:
        return set()
    return {c for c, s, e in spans if growth_named(profile.any_metric(c)) and s <= yoy.start() <= e}
