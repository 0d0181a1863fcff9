"""A year named by the year beside it: 2021年的上一年度, 2021年前一年, the year before 2021, the
prior year of 2021, 2021's previous year (2020); 2021年的下一年度, the year after 2021 (2022).

A relative year written right against a named year counts from that year, never from today:
2021年的上一年度 is 2020, whatever the date. Only the words joined to the year (的, 's, of, to,
before) anchor it; 2021年比上一年 or 2021 and the prior year compare two years, and
``compared_years`` reads them (counted from the one year named).
"""

from __future__ import annotations

import re
from typing import NamedTuple

_YEAR = r"(?:19|20)\d{2}"
_ZH_BEFORE = r"上一?个?财?年度?|前一个?财?年度?"
_ZH_AFTER = r"下一?个?财?年度?|后一个?财?年度?|次年度?"
_ZH = re.compile(
    rf"(?<!\d)({_YEAR})\s*(?:财政年度|财年|年度|年)\s*(?:的\s*)?(?:({_ZH_BEFORE})|({_ZH_AFTER}))"
)
_EN_YEAR = r"(?:fiscal\s+|financial\s+)?year"
_EN = re.compile(
    rf"(?<![a-z])the\s+{_EN_YEAR}\s+(?:(before|prior\s+to|preceding)|(after|following))\s+"
    rf"(?:fy\s*)?({_YEAR})(?!\d)"
    rf"|(?<![a-z])the\s+(?:(prior|previous|preceding)|(next|following))\s+{_EN_YEAR}\s+"
    rf"(?:of|to|before|after)\s+(?:fy\s*)?({_YEAR})(?!\d)"
    rf"|(?<!\d)({_YEAR})['’]s\s+(?:(prior|previous|preceding)|(next|following))\s+{_EN_YEAR}"
    rf"(?![a-z])"
)


class AnchoredYear(NamedTuple):
    """A year written as the one before or after a named year."""

    start: int
    end: int
    year: int
    raw: str


def anchored_years(folded: str) -> list[AnchoredYear]:
    """Every year named by the year beside it, in order."""
    found = []
    for m in _ZH.finditer(folded):
        found.append(AnchoredYear(m.start(), m.end(), int(m[1]) + (-1 if m[2] else 1), m.group()))
    for m in _EN.finditer(folded):
        if m[3]:  # the year before 2021
            year, step = int(m[3]), -1 if m[1] else 1
        elif m[6]:  # the prior year of 2021
            year, step = int(m[6]), -1 if m[4] else 1
        else:  # 2021's prior year
            year, step = int(m[7]), -1 if m[8] else 1
        found.append(AnchoredYear(m.start(), m.end(), year + step, m.group()))
    return sorted(found)
