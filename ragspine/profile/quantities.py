"""What kind of quantity each metric is: the base it measures and how it measures it.

收入 is a level of REVENUE; 毛利率 a margin; 同店销售增长 a growth; a derived 收入增长率
(``(REVENUE - prev(REVENUE)) / prev(REVENUE)``) is the growth of REVENUE, so a sentence that
says "收入增长11%" and one that says "收入增长率为11%" state the same quantity; a derived
``RD_EXPENSES / REVENUE`` is a ratio (share or margin) of RD_EXPENSES.
"""

from __future__ import annotations

import re

from ragspine.profile.formula import Operand
from ragspine.profile.model import DerivedMetricSpec, DomainProfile, MetricSpec

LEVEL, GROWTH, SHARE, MARGIN, PER_UNIT = "level", "growth", "share", "margin", "per_unit"

_GROWTH_WORDS = re.compile(r"增长|增速|增幅|growth|yoy|同比", re.I)
_SHARE_WORDS = re.compile(r"占比|比重|份额|share|proportion|占.*比例", re.I)
_PER_UNIT_WORDS = re.compile(r"单店|每店|每股|人均|per\s", re.I)


def metric_shapes(profile: DomainProfile) -> dict[str, tuple[str, str]]:
    """Each metric code → (base metric code, its own modifier)."""
    out: dict[str, tuple[str, str]] = {}
    specs: list[MetricSpec | DerivedMetricSpec] = [*profile.metrics, *profile.derived_metrics]
    for spec in specs:
        out[spec.code] = _shape(profile, spec)
    return out


def _shape(profile: DomainProfile, spec: MetricSpec | DerivedMetricSpec) -> tuple[str, str]:
    words = " ".join([spec.code, spec.display_name, spec.name_en or "", *spec.aliases])
    if isinstance(spec, DerivedMetricSpec):
        lagged = {o.code for o in spec.parsed.operands if o.lag}
        codes = spec.parsed.codes
        if lagged and len(codes) == 1:
            return codes[0], GROWTH  # (X - prev(X)) / prev(X): the growth of X
        if lagged:
            return spec.code, GROWTH
        tree = spec.parsed.tree
        if isinstance(tree, tuple) and tree[0] == "/" and isinstance(tree[1], Operand):
            base = tree[1].code  # 净利率 = NET_PROFIT / REVENUE: a ratio of NET_PROFIT
            return base, SHARE if _SHARE_WORDS.search(words) else MARGIN
    for pattern, modifier in (
        (_GROWTH_WORDS, GROWTH),
        (_SHARE_WORDS, SHARE),
        (_PER_UNIT_WORDS, PER_UNIT),
    ):
        if pattern.search(words) and _is_rate(profile, spec):
            return spec.code, modifier
    return spec.code, MARGIN if _is_rate(profile, spec) else LEVEL


def _is_rate(profile: DomainProfile, spec: MetricSpec | DerivedMetricSpec) -> bool:
    """A percentage or a plain ratio, rather than an amount or a count."""
    if isinstance(spec, DerivedMetricSpec):
        return spec.percent or profile.unit(spec.unit).kind in ("percent", "ratio")
    return profile.unit(spec.unit).kind in ("percent", "ratio")
