"""Periods written as a run of months: 2024年10-12月, 1至6月, January to June 2024, Oct–Dec
2024, the six months ended 30 June 2024, 截至2024年6月30日止六个月.

A run of months is the period it covers exactly: three months starting a quarter are that
quarter (10-12月 is Q4), January to June or July to December a half, January to December the
year. A run that is none of these (2-4月, the nine months ended 30 September) is still a period
the question names: it is kept as written, with no period, so it is declined by its words and
never read as the year written beside it. A count of months that is a duration or an age
(12-18个月, 3-6月龄仔猪) names no period; two months joined by 'and' are two months, not a run,
unless 'between' opens them.

This module only finds the runs (span, first and last month, year if written); ``periods``
turns them into periods.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_YEAR = r"(?:19|20)\d{2}"
_CN = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
       "十": 10, "十一": 11, "十二": 12}  # fmt: skip
_ZH_MONTH = r"(?:1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])"
_TO = r"\s*(?:-|–|—|~|～|至|到)\s*"
# The month after a number is not a calendar month where an age (月龄, 月大) or a day of a
# date (6月30日) follows it.
_NOT_CALENDAR = r"(?!\s*(?:龄|大)|\s*\d{1,2}\s*[日号])"
_ZH_RANGE = re.compile(
    rf"(?:(?<!\d)({_YEAR})\s*年\s*(?:的\s*)?)?(?<![\d一二三四五六七八九十])({_ZH_MONTH})\s*(?:月份?)?"
    rf"{_TO}(?:({_YEAR})\s*年\s*)?({_ZH_MONTH})\s*月份?{_NOT_CALENDAR}"
)
_COUNT = {"三": 3, "六": 6, "九": 9, "十二": 12, "3": 3, "6": 6, "9": 9, "12": 12,
          "three": 3, "six": 6, "nine": 9, "twelve": 12}  # fmt: skip
_ZH_ENDED = re.compile(
    rf"截至\s*(?:({_YEAR})\s*年\s*)?({_ZH_MONTH})\s*月\s*(?:\d{{1,2}}\s*[日号])?\s*(?:止|为止)?\s*"
    rf"(?:的\s*)?(十二|[三六九]|12|[369])\s*个\s*月"
)
_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
    "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12,
    "dec": 12,
}  # fmt: skip
_EN_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_EN_YEAR = rf"(?:\s*,?\s*(?:of\s+|in\s+)?({_YEAR}))?(?![0-9a-z])"
_EN_RANGE = re.compile(
    rf"(?<![a-z])(?:from\s+)?({_EN_MONTH})\.?(?:\s+({_YEAR}))?"
    rf"\s*(?:-|–|—|\s(?:to|through|thru|until)\s)\s*({_EN_MONTH})(?![a-z])\.?{_EN_YEAR}"
)
_EN_BETWEEN = re.compile(
    rf"(?<![a-z])between\s+({_EN_MONTH})\.?\s+and\s+({_EN_MONTH})(?![a-z])\.?{_EN_YEAR}"
)
_DAY = r"(?:\d{1,2}(?:st|nd|rd|th)?\s+)"
_EN_ENDED = re.compile(
    rf"(?<![a-z])(three|six|nine|twelve|3|6|9|12)[\s-]+months?\s+(?:ended|ending|to|through)\s+"
    rf"{_DAY}?({_EN_MONTH})(?![a-z])\.?(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?{_EN_YEAR}"
)


class MonthRun(NamedTuple):
    """A run of months named in folded text: first and last month (1-12), its year if written."""

    start: int
    end: int
    first: int
    last: int
    year: int | None
    raw: str


def _month(word: str) -> int:
    word = word.strip(".")
    if word.isdigit():
        return int(word)
    return _CN.get(word) or _MONTHS[word]


def _year(*written: str | None) -> int | None:
    years = {int(y) for y in written if y}
    return years.pop() if len(years) == 1 else None


def month_runs(folded: str) -> list[MonthRun]:
    """Every run of months in folded text, in order, without overlaps."""
    runs: list[MonthRun] = []

    def add(m: re.Match[str], first: int, last: int, year: int | None) -> None:
        if not any(r.start < m.end() and m.start() < r.end for r in runs):
            runs.append(MonthRun(m.start(), m.end(), first, last, year, m.group().strip()))

    for m in _ZH_ENDED.finditer(folded):
        last = _month(m[2])
        add(m, last - _COUNT[m[3]] + 1, last, _year(m[1]))
    for m in _EN_ENDED.finditer(folded):
        last = _month(m[2])
        add(m, last - _COUNT[m[1]] + 1, last, _year(m[3]))
    for m in _ZH_RANGE.finditer(folded):
        add(m, _month(m[2]), _month(m[4]), _year(m[1], m[3]))
    for m in _EN_RANGE.finditer(folded):
        add(m, _month(m[1]), _month(m[3]), _year(m[2], m[4]))
    for m in _EN_BETWEEN.finditer(folded):
        add(m, _month(m[1]), _month(m[2]), _year(m[3]))
    return sorted(runs)


def covered(run: MonthRun) -> tuple[str, int] | None:
    """The held period a run covers exactly: ("Q", n), ("H", n) or ("FY", 0); else None."""
    first, last = run.first, run.last
    if (first, last) == (1, 12):
        return ("FY", 0)
    if first < 1 or last < first:
        return None
    if last - first == 2 and first % 3 == 1:
        return ("Q", (first + 2) // 3)
    if last - first == 5 and first in (1, 7):
        return ("H", 1 if first == 1 else 2)
    return None
