"""A temporal window written on a line: its sum over a run of periods that ends where the question
says (trailing twelve months, TTM, LTM, rolling 12-month, 滚动12个月, 近十二个月, 过去四个季度).

A fact is of one fiscal period, and a profile's formulas reach one period back, so no fact and no
formula gives a window's sum: it is another quantity, declined by its whole phrase (the window's
words and the line's), never the line's level in the period the window ends in, nor that year's.
The spelled numbers inside the window name its length, not a figure the answer states.
Where a profile holds a window metric, its alias (TTM revenue) is read first as a longer word.

Written before the line (trailing-twelve-month revenue, 滚动12个月收入, 近十二个月的营收) or after
it (revenue over the last twelve months, revenue on a TTM basis, 收入(滚动12个月)). A window of
one period is that period (最近一个季度, the past quarter: the latest quarter's level); a run
of years is ``unexplained``'s multi-year sum (近两年, over the last two years).
"""

from __future__ import annotations

import re

from ragspine.profile.glossary import AliasMatch

Span = tuple[int, int]

# A length of two or more months or quarters, in words or digits.
_MANY_EN = (
    r"(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty[\s-]?four|"
    r"(?:[2-9]|1\d|2\d|3[0-6]))"
)
_MANY_ZH = r"(?:两|二|三|四|五|六|七|八|九|十|十一|十二|十八|二十四|[2-9]|1\d|2\d|3[0-6])"
_UNIT_EN = r"(?:months?|mos?|quarters?|qtrs?)"
_LEAD_EN = r"(?:trailing|rolling|last|past|preceding|previous|prior|latest|most\s+recent)"
_ABBR = r"(?:ttm|ltm|r12m|l12m)"
_WINDOW_EN = (
    rf"(?:{_ABBR}|{_LEAD_EN}[\s-]+{_MANY_EN}[\s-]+{_UNIT_EN}(?:['’]s?)?|"
    rf"{_LEAD_EN}[\s-]+(?:twelve|12)[\s-]+month|rolling[\s-]+(?:annual|12m))"
)
_WINDOW_ZH = rf"(?:滚动|过去|最近|近|往前|前推)\s*{_MANY_ZH}\s*个?\s*(?:月|季度|季)(?:内|以来|来)?"

_BEFORE = re.compile(rf"(?:(?<![a-z]){_WINDOW_EN}|{_WINDOW_ZH}|(?<![a-z]){_ABBR})\s*(?:的)?\s*$")
_AFTER = re.compile(
    rf"\s+(?:(?:over|for|in|during|across|of)\s+the\s+{_LEAD_EN}[\s-]+{_MANY_EN}[\s-]+"
    rf"{_UNIT_EN}|on\s+an?\s+{_WINDOW_EN}\s+basis|\(?{_ABBR}\)?)(?![a-z])|"
    rf"\s*[((]\s*{_WINDOW_ZH}\s*[))]|\s*[((]\s*{_ABBR}\s*[))]"
)


def window_before(text: str, m: AliasMatch, floor: int = 0) -> Span | None:
    """The window written before the metric word, up to the metric's end, or None."""
    found = _BEFORE.search(text, floor, m.start)
    return (found.start(), m.end) if found else None


def window_after(text: str, m: AliasMatch) -> Span | None:
    """The window written after the metric word, from the metric's start, or None."""
    found = _AFTER.match(text, m.end)
    return (m.start, found.end()) if found else None


def window_at(text: str, m: AliasMatch, floor: int = 0) -> Span | None:
    """The span of a line and the temporal window written on it (``window_before`` first)."""
    return window_before(text, m, floor) or window_after(text, m)
