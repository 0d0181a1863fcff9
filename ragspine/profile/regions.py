"""Country and region codes: TW is Taiwan, HKG Hong Kong, SG Singapore.

An entity of a profile is often a country or region (its ``geography``: TW, HK, CN, SEA), and
people write its code for it ("TW net profit FY24?"). The codes come from the entity itself: its
geography when that is a code of two or three letters, and the ISO 3166 alpha-2 and alpha-3 codes
of the country its geography or English name is (pycountry, the ISO tables kept up to date), so
a profile need not list them. A code two entities would share names neither. Every ISO country
code is also known, so a code the profile holds no entity for (SG in a profile without
Singapore) is read as a place the fact table cannot give, never as the group.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ragspine.profile.model import DomainProfile

_CODE = re.compile(r"[A-Za-z]{2,3}")


def _country(name: str | None) -> Any | None:
    """The ISO 3166 country a code or English name is (Taiwan, TW, TWN), or None."""
    import pycountry

    if not name or not name.strip():
        return None
    try:
        return pycountry.countries.lookup(name.strip())
    except LookupError:
        return None


def entity_codes(profile: DomainProfile) -> dict[str, list[str]]:
    """Entity code → the country and region codes naming it, in capitals (ACME_TW: TW, TWN)."""

    def build() -> dict[str, list[str]]:
        owners: dict[str, set[str]] = {}
        for e in profile.entities:
            geo = (e.geography or "").strip()
            codes = {geo.upper()} if _CODE.fullmatch(geo) else set()
            country = _country(geo) or _country(e.name_en)
            if country is not None:
                codes |= {country.alpha_2, country.alpha_3}
            for code in codes:
                owners.setdefault(code, set()).add(e.code)
        out: dict[str, list[str]] = {}
        for code, entities in sorted(owners.items()):
            if len(entities) == 1:  # a code two entities share names neither
                out.setdefault(next(iter(entities)), []).append(code)
        return out

    return profile.memo("entity_codes", build)


@cache
def country_codes() -> frozenset[str]:
    """Every ISO 3166 alpha-2 and alpha-3 country code, in capitals."""
    import pycountry

    return frozenset(code for c in pycountry.countries for code in (c.alpha_2, c.alpha_3))
