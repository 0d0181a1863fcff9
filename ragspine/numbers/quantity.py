"""A quantity as written, and when one written figure states another (the rounding rule)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

Kind = Literal["number", "percent", "points", "multiple"]
Role = Literal["value", "year", "period", "list"]

HALF = Decimal("0.5")
_SHARE_OF_SOURCE = Decimal("0.05")


@dataclass(frozen=True)
class Quantity:
    value: Decimal  # at scale: 455百万 → 455000000; 12% → 12 with kind "percent"
    kind: Kind
    precision: Decimal  # what a reader takes the written figure to carry, at scale
    start: int
    end: int
    text: str
    role: Role = "value"
    spread: bool = False  # a range in words (双位数: 10 to 99): its precision is its half-width

    def matches(self, other: Quantity) -> bool:
        """Does ``other`` (from a source) state this value?

        The rounding rule: ``|claim − source| ≤ min(precision(claim), 5% × |source|)``, where
        the claim's precision is what a reader takes the written figure to carry (half a unit
        of its last digit; trailing zeros of an integer read as rounding, so 2400 carries ±50
        and 1,000 ±500; see ``precision_of``). The 5% cap keeps a coarse figure from standing
        for a distant one: "about USD 1 billion" is not 1,320 million, "约30%" is not 27%, while
        "约1.3 billion" and "约11%" (for 10.98%) are. Words such as 约, about, 超过, nearly do
        not widen it. The source's own rounding is honoured by holding the claim to the source
        as written: "约11%" in a passage supports "11%" and not "10.98%" (a claim may round a
        source, never add precision to it); only a hair of slack (a thousandth of the
        source's precision) absorbs exact decimals stored as binary floats. Another kind
        (percent is not points), another scale (455亿 is not 455百万) or another sign never
        matches.
        """
        if self.kind != other.kind:
            return False
        if self.spread or other.spread:  # a range in words holds whatever lies in it
            return abs(self.value - other.value) <= max(self.precision, other.precision)
        allowed = min(self.precision, abs(other.value) * _SHARE_OF_SOURCE)
        return abs(self.value - other.value) <= allowed + other.precision / 1000


def precision_of(value: Decimal, places: int) -> Decimal:
    """What a figure written with ``places`` decimals carries, before its scale word: half a
    unit of its last digit; for an integer, half a unit of its last non-zero digit (trailing
    zeros read as rounding: 455 → 0.5, 540 → 5, 2400 → 50, 1000 → 500, 0 → 0.5)."""
    if places > 0:
        return HALF * Decimal(10) ** -places
    whole = abs(int(value))
    zeros = 0
    while whole and whole % 10 == 0:
        whole //= 10
        zeros += 1
    return HALF * Decimal(10) ** zeros
