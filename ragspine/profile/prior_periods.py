"""The period a year before the one a question names, written as such: the comparable period a
year earlier, the prior-year period, the same period of the previous year, 上年同期, 上年可比期间.

"In the FY2024 results, what was revenue for the comparable period a year earlier?" asks FY2023,
never FY2024: the phrase moves the one period the question names back a year, keeping its part
(2024年上半年 … 上年同期: 2023H1). Only where exactly one period is named: with none there is
nothing to count from, with two the question says which itself. "Comparable" here names a
period, never comparable (same-store) sales. The named period written as the report the figures
are read in (in the FY2024 results, 2024年报中) is then that report only, not a period asked.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragspine.profile.periods import PeriodMatch

_EN_PRIOR = r"(?:prior|previous|preceding|last)[\s-]+(?:fiscal\s+|financial\s+)?year(?:['’]s)?"
_EN = re.compile(
    r"(?<![a-z])(?:the\s+)?(?:"
    rf"(?:comparable|corresponding|same|equivalent)\s+period\s+(?:a\s+year\s+(?:earlier|before|ago)"
    rf"|(?:of|in|for)\s+(?:the\s+)?{_EN_PRIOR}|last\s+year)"
    rf"|{_EN_PRIOR}\s+(?:comparable\s+|corresponding\s+|same\s+)?period"
    r")(?![a-z])"
)
_ZH = re.compile(r"(?:上一?个?财?年度?|前一个?财?年度?)(?:的)?\s*(?:同期|可比期间?|相同期间)")
# A report or results named by the period before it: the figures' source, not a period asked.
_REPORT = re.compile(
    r"\s*(?:(?:full[\s-]+year|annual|interim|quarterly|half[\s-]+year)\s+)?"
    r"(?:results|report|accounts|financial\s+statements)(?![a-z])|\s*(?:的)?\s*(?:年报|年度报告|财报|业绩|报)"
)


def prior_spans(folded: str) -> list[tuple[int, int]]:
    """Every phrase in folded text naming the period a year before the one named beside it."""
    return sorted(m.span() for pattern in (_EN, _ZH) for m in pattern.finditer(folded))


def with_prior_periods(found: list[PeriodMatch], folded: str) -> list[PeriodMatch]:
    """``found`` with each prior-period phrase read as the one period named, a year back; a
    period inside the phrase (the prior year of 'the prior year period') is the phrase's."""
    spans = prior_spans(folded)
    if not spans:
        return found
    rest = [pm for pm in found if not any(_inside(pm, s) for s in spans)]
    named = {pm.period for pm in rest if pm.period is not None}
    if len(named) != 1 or any(s < pm.end and pm.start < e for pm in rest for s, e in spans):
        return found
    anchor = next(pm for pm in rest if pm.period is not None)
    (period,) = named
    back = period._replace(period=f"{period.year - 1:04d}{period.period[4:]}")
    if all(_REPORT.match(folded, pm.end) for pm in rest if pm.period is not None):
        rest = [pm for pm in rest if pm.period is None]  # in the FY2024 results: the source
    out = rest + [
        replace(anchor, period=back, start=s, end=e, raw=folded[s:e].strip()) for s, e in spans
    ]
    return sorted(out, key=lambda pm: pm.start)


def _inside(pm: PeriodMatch, span: tuple[int, int]) -> bool:
    return span[0] <= pm.start and pm.end <= span[1]
