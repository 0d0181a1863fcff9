"""A quarter named by the month that closes it: the September quarter of 2024, the quarter ended
30 September 2024, 2024年9月季度, 截至2024年9月30日止的季度.

Such a quarter is the three months ending in that month, never the year written beside it: the
September quarter is July to September, the third quarter of a calendar fiscal year (profiles
hold calendar quarters: Q1 ends in March). A month that closes no such quarter (the August
quarter) names a period no profile holds: it is kept as written, with no period, so the question
is declined by its words, never answered with the year.

This module only finds the spans (as runs of three months); ``periods`` turns them into periods.
"""

from __future__ import annotations

import re

from ragspine.profile.month_ranges import _EN_MONTH, _MONTHS, _ZH_MONTH, MonthRun, _month

_YEAR = r"(?:19|20)\d{2}"
_DAY = r"(?:\d{1,2}(?:st|nd|rd|th)?\s+)"
_EN_YEAR = rf"(?:\s*,?\s*(?:of\s+|in\s+|fy\s*)?({_YEAR}))?(?![0-9a-z])"
# the September quarter (of 2024), the Sept 2024 quarter
_EN_NAMED = re.compile(rf"(?<![a-z])({_EN_MONTH})\.?(?:\s+({_YEAR}))?\s+quarter(?![a-z]){_EN_YEAR}")
# the quarter ended (30) September (30,) 2024; the quarter to September 2024
_EN_ENDED = re.compile(
    rf"(?<![a-z])quarter\s+(?:ended|ending|to|through)\s+{_DAY}?({_EN_MONTH})(?![a-z])\.?"
    rf"(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?{_EN_YEAR}"
)
# 2024年9月季度, 9月份季度, 截至2024年9月30日止的季度, 截至9月底的季度
_ZH = re.compile(
    rf"(?:截至|截止到?|至)?\s*(?:({_YEAR})\s*年\s*)?(?<![\d一二三四五六七八九十])({_ZH_MONTH})\s*月份?"
    rf"\s*(?:\d{{1,2}}\s*[日号]|底|末)?\s*(?:止|为止)?\s*(?:的\s*)?(?:那个|这个)?\s*(?:单?季度|一季)"
)


def _run(m: re.Match[str], month: str, *years: str | None) -> MonthRun:
    last = _month(month)
    written = {int(y) for y in years if y}
    year = written.pop() if len(written) == 1 else None
    return MonthRun(m.start(), m.end(), last - 2, last, year, m.group().strip())


def quarters_by_month(folded: str) -> list[MonthRun]:
    """Every quarter named by its closing month in folded text, as the run of three months
    ending in that month (a run that starts no quarter covers no held period)."""
    found = [_run(m, m[1], m[2], m[3]) for m in _EN_NAMED.finditer(folded) if m[1] in _MONTHS]
    found += [_run(m, m[1], m[2]) for m in _EN_ENDED.finditer(folded)]
    found += [_run(m, m[2], m[1]) for m in _ZH.finditer(folded)]
    return sorted(found)
