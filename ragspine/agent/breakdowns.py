"""A breakdown asked: each part's figure, never the company's total.

"2024年各地区收入是多少?", 分地区的毛利率, "revenue by region", "each market's net profit": the
question asks one figure per part of the company. Where it names no part, the parts are the
profile's entities other than the company (as for a rank, ``ranks.parts``); answering with the
company's own figure under an assumption would be another quantity (a total for a breakdown).
A profile with no parts (one company, not cut by region) cannot give one: the question is
declined by its words, never answered with the whole.
"""

from __future__ import annotations

import re

_BREAKDOWN = re.compile(
    r"(?:各|每个|每一个|分|按)\s*(?:个)?\s*(?:地区|区域|市场|分部|业务分部|地域)|"
    r"(?<![a-z])(?:(?:by|per|for\s+each|across)\s+(?:region|market|segment|geography)s?|"
    r"(?:each|every)\s+(?:region|market|segment)|regional\s+(?:breakdown|split)|"
    r"broken\s+down\s+by\s+(?:region|market|segment))(?![a-z])"
)


def breakdown_asked(text: str) -> re.Match[str] | None:
    """The words of ``text`` (folded) asking for one figure per part of the company."""
    return _BREAKDOWN.search(text)
