"""Periods a question asks as a set, written as one phrase: a range of years and the parts of
a year asked to be ranked.

- A range of years (2019年到2021年, 2019至2021年, 2019-2021年, from 2019 to 2021, 2019 through
  2021) asks every year in it, where no change is asked: 2019年到2021年净利率的变化趋势 is each
  year's margin (the middle year is no less asked than the ends); 2019年到2021年净利润增长了多少
  asks a change, between the two ends, and stays two periods.
- Which quarter (half) of a year had the highest X asks every quarter (half) of that year,
  compared: 哪个季度毛利最高, which quarter of 2024 brought its highest gross profit. The year's
  own figure is another quantity (a sum of the parts asked about).
"""

from __future__ import annotations

import itertools
import re

from ragspine.profile.periods import FY, HALF, QUARTER, Period, PeriodMatch

_MAX_YEARS = 10  # a longer range is no set of years anyone reads one by one
_RANGE_JOIN = re.compile(
    r"\s*(?:年度?)?\s*(?:到|至|-|–|—|~|～|(?<![a-z])(?:to|through|thru|until)(?![a-z]))\s*"
)
_WHICH_PART = re.compile(
    r"哪(?:一|个|几)?个?(?P<zh>季度|半年度?)|(?<![a-z])(?:which|what)\s+(?P<en>quarter|half)"
    r"(?![a-z])"
)
_EXTREME = re.compile(
    r"最(?:高|低|多|少|大|小|好|差|强|弱)|(?<![a-z])(?:highest|lowest|best|worst|most|least|"
    r"biggest|smallest|largest|strongest|weakest|peak(?:ed)?|top)(?![a-z])"
)


def every_year(text: str, matches: tuple[PeriodMatch, ...], periods: list[Period]) -> list[Period]:
    """``periods`` with every year between two fiscal years written as a range (2019年到2021年),
    in order; unchanged where no such range is written."""
    years = [pm for pm in matches if pm.period is not None and pm.period.period_type == FY]
    for a, b in itertools.pairwise(years):
        assert a.period is not None and b.period is not None
        first, last = a.period.year, b.period.year
        if not 0 < last - first < _MAX_YEARS or not _RANGE_JOIN.fullmatch(text, a.end, b.start):
            continue
        span = [Period(FY, str(y)) for y in range(first, last + 1)]
        rest = [p for p in periods if p not in span]
        return [*span, *rest]
    return periods


def part_rank_words(text: str) -> tuple[int, int] | None:
    """The words asking which quarter (half) ranks first (哪个季度, which quarter), where a
    superlative asks a rank: the rank's axis, a period's kind, never a name or a qualifier of the
    metric (季度 is no unknown subject)."""
    which = _WHICH_PART.search(text)
    return which.span() if which and _EXTREME.search(text) else None


def year_of_rank(
    text: str, periods: list[Period], assumed: Period | None, latest: Period | None
) -> tuple[list[Period], Period | None]:
    """A rank of quarters (halves) that names no year (哪个季度毛利最高): the ``latest`` complete
    fiscal year's (None where the question wrote a period), assumed and said so by the caller;
    never that year's own figure, which is another quantity (the sum of the parts asked about).
    Else ``periods`` and ``assumed``."""
    if periods or latest is None or part_rank_words(text) is None:
        return periods, assumed
    return [latest], latest


def parts_ranked(text: str, periods: list[Period]) -> list[Period]:
    """Every quarter (half) of the one year asked, where the question asks which of them had the
    highest / lowest X; else ``periods`` unchanged."""
    which = _WHICH_PART.search(text)
    if which is None or not _EXTREME.search(text) or len(periods) != 1:
        return periods
    (year,) = periods
    if year.period_type != FY:
        return periods
    word = which.group("zh") or which.group("en")
    if word.startswith(("半", "half")):
        return [Period(HALF, f"{year.period}H{n}") for n in (1, 2)]
    return [Period(QUARTER, f"{year.period}Q{n}") for n in (1, 2, 3, 4)]
