"""The quantity a question asks for: a metric with what modifies it, read as one whole phrase.

A modifier changes the quantity: growth (增长率, 增速, 同比, YoY, growth), share (占比, 比重,
占…的比重, share of, penetration), per unit (单店, 店均, 人均, per store, per square metre),
margin (…率 after an amount, margin, ratio). The base metric's level is never the answer to any
of them: the question is mapped to the profile's derived metric that means it, recognised by its
formula's shape, so a profile need not alias every combination:

    growth of X        (X − prev(X)) / prev(X)
    share of the group X / X[entity=HOME]
    channel share      X[channel=C] / X[channel=DEFAULT]
    per store          X / a count metric of stores   (per employee, per square metre alike)
    margin             X / the profile's revenue

Where the profile has no such metric, the quantity is declined by the name the question gives
it. A percentage metric followed by 率 is the same metric (同店销售增长率 is 同店销售增长).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ragspine.profile import DomainProfile, MetricSpec
from ragspine.profile.glossary import AliasMatch
from ragspine.profile.vocabulary import named_shapes

GROWTH, SHARE, PER, MARGIN, SAME = "growth", "share", "per", "margin", "same"

_GAP = r"\s*(?:的)?\s*"
_GROWTH_AFTER = re.compile(
    _GAP
    + r"(?P<explicit>(?:同比|环比)?(?:增长率|增长速度|增速|增幅|增长幅度|涨幅|降幅|跌幅|下降幅度|"
    r"下降率|下滑幅度|变动率|变化率|变动幅度|变化幅度|增减率|增减幅度|增长比例|增长百分比)|"
    r"(?<![a-z])(?:growth\s+rate|yoy|y-o-y|year[\s-]+on[\s-]+year(?:\s+(?:growth|change|increase))?|"
    r"year[\s-]+over[\s-]+year(?:\s+(?:growth|change))?|(?:percentage|percent|%)\s+change|"
    r"rate\s+of\s+change)(?![a-z]))|"
    r"(?P<yoy>同比(?:增长|增加|增减|变动|变化|下降|减少|下滑)?)|"
    r"(?P<bare>增长(?![了率速幅])|(?<![a-z])(?:growth|change)(?![a-z]))"
)
_GROWTH_BEFORE = re.compile(
    r"(?<![a-z])(?:(?:yoy|year[\s-]+on[\s-]+year|year[\s-]+over[\s-]+year)(?:\s+growth)?"
    r"(?:\s+(?:in|of))?|growth\s+rate\s+(?:of|in)|(?:percentage|percent|%)\s+change\s+in|"
    r"(?P<bare>growth\s+(?:in|of)))\s+(?:the\s+)?$"
)
_SHARE_AFTER = re.compile(
    _GAP + r"(?:占比|比重|份额|占有率|渗透率|贡献占比|贡献率)|"
    r"\s*(?:的)?\s*占\s*(?P<whole>[^,,。??;;]{0,16}?)\s*(?:的)?\s*"
    r"(?:比重|比例|百分比|份额|占比|比率|几成|多少|%)|"
    r"(?:'s)?\s+(?:share|mix|penetration)(?![a-z])(?:\s+of\s+(?P<whole_en>(?:[a-z'&-]+\s+){0,3}?"
    r"(?:revenue|sales|total|group)))?|"
    r"\s+as\s+a\s+(?:percentage|share|proportion|%)\s+of\s+(?P<whole_as>(?:[a-z'&-]+\s*){1,4})"
)
_SHARE_BEFORE = re.compile(
    r"(?<![a-z])(?:share|percentage|proportion|portion|fraction|contribution|%)\s+(?:of|to)\s+"
    r"(?P<whole>(?:[a-z'&-]+\s+){0,3}?)$"
)
_UNITS = {
    "store": r"(?:门店|店铺|店|stores?|shops?|outlets?)",
    "employee": r"(?:员工|职工|雇员|employees?|heads?|staff|workers?|capita)",
    "area": r"(?:面积|平方米|平米|square\s+(?:metres?|meters?|feet|foot)|sq\.?\s*m|sqm|m2)",
}
_PER_BEFORE = [
    ("store", re.compile(r"(?:单店|店均|(?:平均)?每(?:家|间|个)?门?店(?:的)?(?:平均)?|(?<![a-z])"
                         r"(?:per[\s-](?:store|shop|outlet)|average\s+store))\s*$")),
    ("employee", re.compile(r"(?:人均|每(?:名|位|个)?(?:员工|职工)(?:的)?|(?<![a-z])per[\s-]"
                            r"(?:employee|head|capita))\s*$")),
    ("area", re.compile(r"(?:每平方米|每平米|单位面积)(?:的)?\s*$")),
]  # fmt: skip
_PER_AFTER = [
    (unit, re.compile(rf"\s*(?:per|/|每)\s*(?:家|间|个|名|位)?\s*{pattern}(?![a-z])"))
    for unit, pattern in _UNITS.items()
]
_HOW_FAST = re.compile(r"(?<![a-z])how\s+fast|增长(?:得)?(?:有)?多快|增速如何|增长速度如何")
_MARGIN_AFTER = re.compile(r"率|\s+(?:margin|ratio)(?![a-z])")
_REVENUE_WORDS = ("营业收入", "收入", "营收", "revenue", "sales")


@dataclass(frozen=True)
class Modifier:
    kind: str
    start: int
    end: int
    bare: bool = False  # 增长 / growth alone: in a why-question, the metric's movement
    unit: str = ""  # per: store, employee, area
    whole: tuple[int, int] | None = None  # share: the span naming the whole


@dataclass
class Reading:
    """What the metric words of a question ask for."""

    metrics: list[str] = field(default_factory=list)
    declined: tuple[int, int] | None = None  # the span naming a quantity the profile lacks
    declined_id: str | None = None  # its shipped phrase group, when it is one
    wholes: list[tuple[int, int]] = field(default_factory=list)  # spans naming a share's whole
    fixed_channel: bool = False  # a channel share: the query's channel is the default
    change: bool = False  # a change in points of a percentage: two periods, their difference


def read_quantities(
    text: str,
    scan: list[tuple[str, AliasMatch]],
    profile: DomainProfile,
    *,
    change: bool = False,
    narrative: bool = False,
) -> Reading:
    """The metric codes the question asks for, or the quantity it names that the profile lacks.

    ``change``: the question asks how much something moved (增长了多少): its level in two
    periods and their difference answer it, so growth words are that movement. ``narrative``:
    a why-question, where a bare 增长 / growth is the metric's movement being explained."""
    out = Reading()
    taken_until = -1
    named = [(k, m) for k, m in scan if k in ("metrics", "quantity")]
    for i, (kind, m) in enumerate(named):
        if m.start < taken_until:
            continue
        floor = named[i - 1][1].end if i else 0
        if kind == "quantity":
            out.declined = out.declined or (m.start, m.end)
            out.declined_id = out.declined_id or m.code
            continue
        spec = profile.any_metric(m.code)
        mod = _modifier(text, m, change, floor)
        if mod is None and not change and not out.metrics:
            fast = _HOW_FAST.search(text)  # how fast did revenue grow: a growth rate
            mod = Modifier(GROWTH, fast.start(), fast.start()) if fast else None
        if mod is None or spec is None:
            out.metrics.append(m.code)
            following = named[i + 1][1] if i + 1 < len(named) else None
            whole = following is not None and _is_share(m.code, profile)
            if whole and _OF_WHOLE.fullmatch(text, m.end, following.start):  # type: ignore[union-attr]
                taken_until = following.end  # type: ignore[union-attr]  # online share of sales
            continue
        taken_until = max(m.end, mod.end)
        if mod.whole is not None:
            out.wholes.append(mod.whole)
        if mod.kind == GROWTH and mod.bare and narrative:
            out.metrics.append(m.code)  # 为什么收入增长: the verb; the level, then why
            continue
        code = _mapped(text, m, mod, spec, scan, profile, out)
        span = (min(m.start, mod.start), max(m.end, mod.end))
        if code is not None:
            out.metrics.append(code)
        elif mod.kind == GROWTH and change:
            out.metrics.append(m.code)  # how much it moved: its levels and their difference
        elif mod.kind == GROWTH and _is_percent(spec, profile):
            out.metrics.append(m.code)  # a percentage's change: in points, from two periods
            out.change = True
        elif out.declined is None:
            out.declined = span
    out.metrics = list(dict.fromkeys(out.metrics))
    return out


_OF_WHOLE = re.compile(r"\s+(?:of|in)\s+(?:the\s+)?(?:group'?s?\s+|total\s+)?|\s*(?:占|在)")


def _is_share(code: str, profile: DomainProfile) -> bool:
    return any(c == code and s[0].endswith("share") for s, c in named_shapes(profile).items())


def _modifier(text: str, m: AliasMatch, change: bool, floor: int = 0) -> Modifier | None:
    """The modifier right after the metric word, or right before it (after ``floor``)."""
    g = _GROWTH_AFTER.match(text, m.end)
    if g and not (change and not g.group("explicit")):
        return Modifier(GROWTH, g.start(), g.end(), bare=g.group("bare") is not None)
    g = _GROWTH_BEFORE.search(text, floor, m.start)
    if g and not change:
        return Modifier(GROWTH, g.start(), g.end(), bare=g.group("bare") is not None)
    s = _SHARE_AFTER.match(text, m.end)
    if s:
        name = next((n for n in ("whole", "whole_en", "whole_as") if s.group(n)), None)
        return Modifier(SHARE, s.start(), s.end(), whole=s.span(name) if name else None)
    s = _SHARE_BEFORE.search(text, floor, m.start)
    if s:
        return Modifier(SHARE, s.start(), s.end(), whole=s.span("whole"))
    for unit, pattern in _PER_AFTER:
        p = pattern.match(text, m.end)
        if p:
            return Modifier(PER, p.start(), p.end(), unit=unit)
    for unit, pattern in _PER_BEFORE:
        p = pattern.search(text, floor, m.start)
        if p:
            return Modifier(PER, p.start(), p.end(), unit=unit)
    r = _MARGIN_AFTER.match(text, m.end)
    if r:
        return Modifier(MARGIN, r.start(), r.end())
    return None


def _is_percent(spec: object, profile: DomainProfile) -> bool:
    if getattr(spec, "percent", False):
        return True
    unit = getattr(spec, "unit", "")
    return profile.unit(unit).kind == "percent" if unit else False


def _mapped(
    text: str,
    m: AliasMatch,
    mod: Modifier,
    spec: object,
    scan: list[tuple[str, AliasMatch]],
    profile: DomainProfile,
    out: Reading,
) -> str | None:
    """The derived metric the modified phrase means, or None (the quantity is not held)."""
    shapes = named_shapes(profile)
    code = m.code
    if mod.kind == MARGIN and _is_percent(spec, profile):
        return code  # 同店销售增长率 is 同店销售增长: a percentage named with 率
    if not isinstance(spec, MetricSpec):
        return None  # a derived metric does not take another modifier
    if mod.kind == GROWTH:
        return shapes.get(("growth", code))
    if mod.kind == MARGIN:
        revenue = revenue_metric(profile)
        return shapes.get(("ratio", code, revenue)) if revenue and revenue != code else None
    if mod.kind == PER:
        pattern = re.compile(_UNITS[mod.unit])
        for denominator in profile.metrics:
            if profile.unit(denominator.unit).kind != "count":
                continue
            if any(pattern.search(a.lower()) for a in denominator.aliases):
                found = shapes.get(("ratio", code, denominator.code))
                if found:
                    return found
        return None
    # A share: of another metric (研发费用占营业收入的比例), of the group, or of a channel.
    inside = [
        (k, w) for k, w in scan if mod.whole is not None and mod.whole[0] <= w.start < mod.whole[1]
    ]
    other = next((w.code for k, w in inside if k == "metrics" and w.code != code), None)
    if other is not None:
        return shapes.get(("ratio", code, other))
    outside = [(k, w) for k, w in scan if not (mod.start <= w.start < mod.end) and w != m]
    channel = next(
        (w.code for k, w in outside if k == "channels" and w.code != profile.default_channel),
        None,
    )
    if channel is not None:
        out.fixed_channel = True
        return shapes.get(("channel_share", code, channel, profile.default_channel))
    home = profile.home_entity_code
    entity = next((w.code for k, w in outside if k == "entities" and w.code != home), None)
    if entity is not None:
        return shapes.get(("entity_share", code, home))
    return None


def revenue_metric(profile: DomainProfile) -> str | None:
    """The profile's revenue: the first metric named by a revenue word."""
    for word in _REVENUE_WORDS:
        for spec in profile.metrics:
            if any(a.lower() == word for a in spec.aliases):
                return spec.code
    return None
