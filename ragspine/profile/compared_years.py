"""Years a question compares a named year with: 2021年…与上年相比 (2020), 2021年…与前两年 (2019
and 2020), 与前年 (2019), 2021 … compared with the previous year / the two prior years.

A relative year after a comparison word counts from the one year the question names, never from
today: "2021年的法定代表人与上年相比" asks about 2021 and 2020, and a 2020 report answers half
of it. Only where exactly one year is written (two named years leave nothing to count from, or
say so themselves), and never 去年 / last year, which count from the reference date.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_ZH_COUNT = {"": 1, "一": 1, "两": 2, "二": 2, "三": 3, "1": 1, "2": 2, "3": 3}
_ZH = re.compile(
    r"(?:与|和|跟|同|较|比|相比于?|对比|相较于?)\s*(?:其\s*)?"
    r"(?:上\s*一?\s*个?\s*财?\s*年度?|前\s*([一两二三123])\s*个?\s*财?\s*年度?|(前|上上)\s*财?\s*年度?)"
    r"(?!\s*[年月日季])"
)
_EN_COUNT = {"": 1, "two": 2, "three": 3, "2": 2, "3": 3}
_EN = re.compile(
    r"(?<![a-z])(?:than|with|to|versus|vs\.?|against|as|and)\s+(?:in\s+)?the\s+"
    r"(?:(?:previous|prior|preceding)\s+(?:(two|three|2|3)\s+)?(?:fiscal\s+|financial\s+)?years?"
    r"|(two|three|2|3)\s+(?:previous|prior|preceding)\s+(?:fiscal\s+|financial\s+)?years"
    r"|(?:fiscal\s+|financial\s+)?year\s+before)(?![a-z])"
)


class ComparedYears(NamedTuple):
    """The years a comparison word names by counting back from the question's one year."""

    start: int
    end: int
    years: tuple[int, ...]
    raw: str


def compared_years(folded: str) -> list[ComparedYears]:
    """Every counted-back comparison in folded text, in order; none unless one year is named."""
    named = {int(m[1]) for m in _YEAR.finditer(folded)}
    if len(named) != 1:
        return []
    (year,) = named
    found = []
    for m in _ZH.finditer(folded):
        if m[2]:  # 前年, 上上年: the one year two before, not the two years before
            found.append(ComparedYears(m.start(), m.end(), (year - 2,), m.group()))
            continue
        back = _ZH_COUNT[m[1] or ""]  # 上年: one; 前两年: two
        found.append(_span(m, year, back))
    for m in _EN.finditer(folded):
        back = _EN_COUNT[(m[1] or m[2] or "")]
        found.append(_span(m, year, back))
    return sorted(found)


def _span(m: re.Match[str], year: int, back: int) -> ComparedYears:
    years = tuple(range(year - back, year))
    return ComparedYears(m.start(), m.end(), years, m.group())


# LY / PY after a comparison word: last year / prior year, as analysts head a column.
_SHORTHAND_BEFORE = re.compile(
    r"(?<![a-z])(?:vs\.?|versus|against|over|than|compared\s+(?:with|to))\s*$"
)


def is_year_shorthand(folded: str, start: int, end: int) -> bool:
    """Is folded[start:end] LY or PY written after a comparison word (FY21 vs LY, 2021 against
    PY)? Analysts' shorthand for the last / prior year, never the place whose code the two
    letters also are (LY Libya, PY Paraguay): a comparison is made with a period there."""
    return folded[start:end] in ("ly", "py") and bool(
        _SHORTHAND_BEFORE.search(folded, max(0, start - 20), start)
    )
