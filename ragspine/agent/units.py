"""Units a figure may be restated in: durations converted exactly, and 折 read as a discount.

* durations: a year is 12 months, a week 7 days, a day 24 hours; those convert (36个月 is
  3年). A month is not a whole number of weeks or days, and a working day (工作日) is not a
  day: those never convert, so 15个工作日 stated as 15天 is another unit;
* X折 is a price at X tenths of the original: 八折 is 80% of the price, a cut of 20%. A
  passage's 八折 states both, the level (80%) and the cut (-20%); an "80% discount" is a cut
  of 80%, which it does not state.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from ragspine.numbers import Quantity

# Each duration in the smallest unit of its family: the families never convert to each other.
_DURATIONS = {
    "YEAR": ("months", Decimal(12)),
    "MONTH": ("months", Decimal(1)),
    "WEEK": ("hours", Decimal(168)),
    "DAY": ("hours", Decimal(24)),
    "HOUR": ("hours", Decimal(1)),
}


def duration_factor(mine: str | None, theirs: str | None) -> Decimal | None:
    """What one of ``mine`` is in ``theirs``, when both are durations that convert exactly
    and differ; else None."""
    if mine == theirs or mine not in _DURATIONS or theirs not in _DURATIONS:
        return None
    (family, size), (other, unit) = _DURATIONS[mine], _DURATIONS[theirs]
    return size / unit if family == other else None


def scaled(q: Quantity, factor: Decimal) -> Quantity:
    return replace(q, value=q.value * factor, precision=q.precision * factor)


def convertible(q: Quantity, unit: str | None) -> list[Quantity]:
    """The value in every unit it could have been converted from into ``unit`` (the first,
    cheap look before contexts are read)."""
    if unit not in _DURATIONS:
        return []
    return [scaled(q, f) for u in _DURATIONS if (f := duration_factor(u, unit)) is not None]


def is_discount(q: Quantity) -> bool:
    return q.text.endswith("折")
