"""A document's period label read back as a period, and whether it speaks of an asked one.

Documents store their period as a label (FY2020, 2024Q4, or a front matter's 2025); a label that
is not one period alone is no period (the document is then never judged by one).
"""

from __future__ import annotations

from datetime import date

from ragspine.profile.periods import HALF, QUARTER, Period, find_periods
from ragspine.text import fold

_ANY_DAY = date(2100, 1, 1)  # a label names its year: nothing in it is relative to a day


def as_period(label: str) -> Period | None:
    """A period written alone (FY2020, 2020, 2020年, 2020H1, 2024Q4, 2025), or None for anything
    else: exactly one period, naming the whole text."""
    text = fold(label).strip().lower()
    found = find_periods(text, _ANY_DAY) if text else ()
    if len(found) != 1 or (found[0].start, found[0].end) != (0, len(text)):
        return None
    return found[0].period


def months(period: Period) -> tuple[int, int, int]:
    """(year, first month, last month): FY2020 is 2020's twelve, 2020H2 its last six."""
    if period.period_type == QUARTER:
        q = int(period.period[5])
        return period.year, 3 * q - 2, 3 * q
    if period.period_type == HALF:
        h = int(period.period[5])
        return period.year, 6 * h - 5, 6 * h
    return period.year, 1, 12


def overlaps(a: Period, b: Period) -> bool:
    """Whether two periods share a month: a year's report speaks of its quarters, and a
    quarter's minutes of its year, never of another year."""
    ya, first_a, last_a = months(a)
    yb, first_b, last_b = months(b)
    return ya == yb and first_a <= last_b and first_b <= last_a
