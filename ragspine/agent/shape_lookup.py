"""The profile's derived metric of a formula shape, looked up for a modified metric: the ratio
a / b (either a sum written out), the per-unit ratio over a count metric of that unit, and the
facts about a metric a modifier needs (a share, a growth, a percentage, the revenue)."""

from __future__ import annotations

import re

from ragspine.agent.modifier_base import Modifier
from ragspine.agent.modifiers import UNITS
from ragspine.profile import DomainProfile
from ragspine.profile.vocabulary import named_shapes, sum_expansions

_REVENUE_WORDS = ("营业收入", "收入", "营收", "revenue", "sales")


def is_share(code: str, profile: DomainProfile) -> bool:
    return any(c == code and s[0].endswith("share") for s, c in named_shapes(profile).items())


def growth_named(spec: object) -> bool:
    """A metric that is itself a growth (同店销售增长, same-store sales growth)."""
    names = (getattr(spec, "display_name", ""), getattr(spec, "name_en", None) or "")
    return any(n.endswith(("增长", "growth")) for n in names)


def is_percent(spec: object, profile: DomainProfile) -> bool:
    if getattr(spec, "percent", False):
        return True
    unit = getattr(spec, "unit", "")
    return profile.unit(unit).kind == "percent" if unit else False


def ratio_of(a: str, b: str, profile: DomainProfile) -> str | None:
    """The metric of shape a / b, either of them a sum written out (负债合计 = 流动 + 非流动)."""
    shapes, sums = named_shapes(profile), sum_expansions(profile)
    for top in dict.fromkeys([a, sums.get(a, a)]):
        for bottom in dict.fromkeys([b, sums.get(b, b)]):
            if top != bottom and ("ratio", top, bottom) in shapes:
                return shapes[("ratio", top, bottom)]
    return None


def per_unit(code: str, mod: Modifier, profile: DomainProfile) -> str | None:
    if mod.other is not None:
        return ratio_of(code, mod.other.code, profile)  # 研发人员人均: over that count
    if mod.unit not in UNITS:
        return None  # a unit no profile counts (per vaccine dose): no ratio gives it
    pattern = re.compile(UNITS[mod.unit])
    for denominator in profile.metrics:
        if profile.unit(denominator.unit).kind != "count":
            continue
        if any(pattern.search(a.lower()) for a in denominator.aliases):
            found = ratio_of(code, denominator.code, profile)
            if found:
                return found
    return None


def revenue_metric(profile: DomainProfile) -> str | None:
    """The profile's revenue: the first metric named by a revenue word."""
    for word in _REVENUE_WORDS:
        for spec in profile.metrics:
            if any(a.lower() == word for a in spec.aliases):
                return spec.code
    return None
