"""The quantity a question asks for: a metric with what modifies it, read as one whole phrase.

A modifier changes the quantity: growth (增长率, 增速, 同比, YoY, growth; 增长了百分之多少, by what
percentage), share (占比, 比重, 占…的比重, share of, penetration; what proportion of X were Y),
per unit (单店, 店均, 人均, per store, per square metre, per transaction), margin (…率 after an
amount, margin, ratio), a ratio to another metric (X与Y的比值, ratio of X to Y), a head noun or
a line qualifier that makes another quantity of it (净利润现金含量, 应交所得税). The base metric's
level is never the answer to any of them: the question is mapped to the profile's derived metric
that means it, recognised by its formula's shape, so a profile need not alias every combination:

    growth of X        (X − prev(X)) / prev(X)   (X may be a sum written out: 负债合计)
    share of the group X / X[entity=HOME]
    channel share      X[channel=C] / X[channel=DEFAULT]
    per store          X / a count metric of stores   (per employee, per square metre alike)
    margin             X / the profile's revenue
    X to Y, Y's part X X / Y      (Y may be a sum of metrics: 负债合计, 三项费用)

Where the profile has no such metric, the quantity is declined by the name the question gives
it (or, where the modifier is written apart from the metric or a growth's words hold whose it
is, by a name built from the metric's: 门店数增长率, net margin growth rate). A percentage metric
followed by 率 is the same metric (同店销售增长率 is 同店销售增长), and so is a growth metric
followed by its growth (comp-store sales growth).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date

from ragspine.agent import quantity_names as qn
from ragspine.agent.coordinated import distributed_growth
from ragspine.agent.elided import elided_at
from ragspine.agent.modifier_base import (
    COMPOUND,
    GROWTH,
    MARGIN,
    PER,
    RATIO,
    Modifier,
    restates_yoy,
)
from ragspine.agent.modifiers import (
    how_fast,
    is_denominator,
    modifier_at,
    part_after,
    per_anywhere,
    unheld_growth,
    whole_before,
    whole_of_share,
)
from ragspine.agent.phrases import in_one_phrase
from ragspine.agent.ratios import elided_share
from ragspine.agent.shape_lookup import (
    growth_named,
    is_percent,
    is_share,
    per_unit,
    ratio_of,
    revenue_metric,
)
from ragspine.profile import DomainProfile, MetricSpec
from ragspine.profile.glossary import AliasMatch, glossary_for
from ragspine.profile.periods import find_periods
from ragspine.profile.vocabulary import group_key, named_shapes, sum_expansions

# Between two quantities a list joins (收入和坪效): each is asked; anything else (an explanation
# in brackets, X over Y) is the declined quantity's own words.
_LISTED = re.compile(
    r"[、,,;;]|和|及|以及|还有|另外|(?<![a-z])(?:and|as\s+well\s+as|plus)(?![a-z])"
)


@dataclass
class Reading:
    """What the metric words of a question ask for."""

    metrics: list[str] = field(default_factory=list)
    declined: tuple[int, int] | None = None  # the span naming a quantity the profile lacks
    declined_id: str | None = None  # its shipped phrase group, when it is one
    declined_name: tuple[str, str] | None = None  # (zh, en) built where no span names it
    wholes: list[tuple[int, int]] = field(default_factory=list)  # spans naming a share's whole
    owners: list[tuple[int, int]] = field(default_factory=list)  # a qualified line's owners
    fixed_channel: bool = False  # a channel share: the query's channel is the default
    change: bool = False  # a change in points of a percentage: two periods, their difference
    spans: list[tuple[str, int, int]] = field(default_factory=list)  # each metric's words


def read_quantities(
    text: str,
    scan: list[tuple[str, AliasMatch]],
    profile: DomainProfile,
    *,
    change: bool = False,
    narrative: bool = False,
    rate: tuple[int, int] | None = None,
) -> Reading:
    """The metric codes the question asks for, or the quantity it names that the profile lacks.

    ``change``: the question asks how much something moved (增长了多少): its level in two
    periods and their difference answer it, so growth words are that movement. ``narrative``:
    a why-question, where a bare 增长 / growth is the metric's movement being explained.
    ``rate``: the span asking for a change as a percentage (增长了百分之多少): every metric
    without a modifier of its own is asked as a growth rate."""
    out = Reading()
    taken_until = -1
    named = [(k, m) for k, m in scan if k in ("metrics", "quantity")]
    metrics = [m for k, m in named if k == "metrics"]
    entities = [m for k, m in scan if k == "entities"]
    parts = [m for k, m in scan if k in ("entities", "channels")]  # what 不含…的 may leave out
    used: list[tuple[int, int]] = []  # modifier spans read with one metric
    unheld = _unheld(text, named)
    for i, (kind, m) in enumerate(named):
        if m.start < taken_until:
            continue
        if unheld is not None and m is unheld[1]:  # 收入的年复合增长率, 环比, 增长贡献
            spec = profile.any_metric(_base_of_growth(m.code, profile))
            if out.declined is None:
                out.declined = (min(m.start, unheld[2]), max(m.end, unheld[3]))
                out.declined_name = qn.unheld_name(unheld[0], spec, m.code)
            continue
        shared = elided_share(text, m, metrics, entities) if kind == "metrics" else None
        m = shared.other if shared and shared.other else m  # 是收入的百分之几: the part's share
        floor = named[i - 1][1].end if i else 0
        following = named[i + 1][1] if i + 1 < len(named) else None
        key = (group_key(m.code, profile) or _summed(m.code)) if kind == "quantity" else None
        if kind == "quantity" and key is None:
            _decline(out, qn.unheld_share(text, m, metrics), m.code)  # 分红的比例
            continue
        spec = profile.any_metric(m.code)
        count = kind == "metrics" and profile.unit(getattr(spec, "unit", "")).kind == "count"
        if count and is_denominator(text, m, following):
            continue  # 研发人员人均研发费用: the unit of the next metric
        if following is not None and whole_before(text, following, [m]) is not None:
            continue  # 职工中研发人员的占比: the whole of the next metric's share
        mod = shared or modifier_at(text, m, metrics, entities, change, floor, count, parts)
        if mod is None and kind == "metrics":  # revenue and gross profit growth: both growths
            mod = distributed_growth(text, named[i:], metrics, entities, change, parts)
        if mod is None:
            mod = _remote(text, scan, out, used, change, rate)
        elif rate is not None and mod.kind == GROWTH:
            mod = replace(mod, remote=True)  # 门店数同比增长了百分之多少: its growth rate
        around = whole_of_share(text, m) if mod is None else None
        if around is not None:  # the whole of a share of something no metric names
            _decline(out, around, m.code)
            out.declined_id = None
            continue
        if mod is None or (spec is None and key is None):
            if key is not None:
                _decline(out, (m.start, m.end), m.code)
                continue
            out.metrics.append(m.code)
            out.spans.append((m.code, m.start, m.end))
            whole = following is not None and is_share(m.code, profile)
            if whole and _OF_WHOLE.fullmatch(text, m.end, following.start):  # type: ignore[union-attr]
                taken_until = following.end  # type: ignore[union-attr]  # online share of sales
            continue
        if not mod.remote:
            used.append((mod.start, mod.end))
        # a modifier written apart (毛利比收入增长得快, 收入和毛利增长了百分之多少) spans the
        # metrics after this one: each is read on its own
        taken_until = m.end if mod.remote else max(m.end, mod.end)
        if mod.whole is not None:  # a share's whole; a line's owners (归属于上市公司股东的)
            (out.owners if mod.kind == COMPOUND else out.wholes).append(mod.whole)
        if mod.kind == GROWTH and mod.bare and narrative:
            out.metrics.append(m.code)  # 为什么收入增长: the verb; the level, then why
            out.spans.append((m.code, m.start, m.end))
            continue
        base = key or m.code
        code, until = _mapped(text, m, base, mod, spec, scan, profile, out)
        taken_until = taken_until if mod.remote else max(taken_until, until)
        span = (m.start, m.end) if mod.remote else (min(m.start, mod.start), max(m.end, mod.end))
        if code is not None:
            out.metrics.append(code)
            out.spans.append((code, *span))
        elif mod.kind == RATIO and mod.bare and mod.other is not None:
            out.metrics += [m.code, mod.other.code]  # X是Y的几倍, no ratio held: both levels
            out.spans += [(m.code, *span), (mod.other.code, *span)]
        elif mod.kind == GROWTH and change:
            out.metrics.append(m.code)  # how much it moved: its levels and their difference
            out.spans.append((m.code, *span))
        elif out.declined is None:  # a growth rate of a percentage (净利率增长率) is not held
            out.declined = (span[0], max(span[1], until)) if not mod.remote else span
            owned = any(out.declined[0] <= e.start < out.declined[1] for e in entities)
            if mod.remote and in_one_phrase(text, (mod.start, mod.end), (m.start, m.end), scan):
                out.declined = (min(m.start, mod.start), max(m.end, mod.end))  # 人均可支配收入
            elif (
                mod.remote  # by the metric's name: growth of Hong Kong's net margin
                or (mod.kind == GROWTH and owned)
                or (mod.kind in (GROWTH, PER) and elided_at(text, m))  # 门店数及其增长率
            ):
                out.declined_name = qn.built_name(mod, spec, text[m.start : m.end])
    out.metrics = list(dict.fromkeys(out.metrics))
    if out.declined is not None:
        _keep_listed(text, out)
    return out


def _unheld(
    text: str, named: list[tuple[str, AliasMatch]]
) -> tuple[str, AliasMatch, int, int] | None:
    """A growth no formula expresses (modifiers.unheld_growth), outside every metric's own words,
    and the metric nearest it that it is asked of."""
    found = unheld_growth(text)
    if found is None:
        return None
    kind, start, end = found
    if any(m.start <= start < m.end for _, m in named):
        return None  # a metric's own name holds the words: the profile has it
    metrics = [m for k, m in named if k == "metrics"]
    if not metrics:
        return None
    near = min(metrics, key=lambda m: min(abs(start - m.end), abs(m.start - end)))
    return kind, near, start, end


def _base_of_growth(code: str, profile: DomainProfile) -> str:
    """revenue growth's CAGR is revenue's: a growth metric named in an unheld growth is its base."""
    return next((s[1] for s, c in named_shapes(profile).items() if c == code and s[0] == "growth"),
                code)  # fmt: skip


def _summed(code: str) -> str | None:
    """A sum the question lists (sums.py: A+B+C, named by ``sum_key``): its own key."""
    return code if "+" in code else None


def _decline(out: Reading, span: tuple[int, int], group: str) -> None:
    if out.declined is None:
        out.declined, out.declined_id = span, group


def _remote(
    text: str,
    scan: list[tuple[str, AliasMatch]],
    out: Reading,
    used: list[tuple[int, int]],
    change: bool,
    rate: tuple[int, int] | None,
) -> Modifier | None:
    """A modifier the question writes apart from the metric: a percentage change asked of it,
    how fast it grew, a per-store phrase no other metric took."""
    if rate is not None:
        return Modifier(GROWTH, *rate, remote=True)
    fast = how_fast(text)
    if fast and not change and not out.metrics:
        return Modifier(GROWTH, fast.start(), fast.start(), remote=True)
    words = [(w.start, w.end) for k, w in scan if k in ("metrics", "quantity")]
    for unit, start, end in per_anywhere(text):
        if not any(s < end and start < e for s, e in [*used, *words]):
            return Modifier(PER, start, end, unit=unit, remote=True)
    return None


def _keep_listed(text: str, out: Reading) -> None:
    """Beside a quantity declined, only the metrics listed with it are asked (收入和坪效); a metric
    inside its explanation (cash received from sales over operating revenue) is not."""
    start, end = out.declined or (0, 0)
    kept = []
    for code, s, e in out.spans:
        between = text[e:start] if e <= start else text[end:s]
        if _LISTED.search(between) and "(" not in between and "(" not in between:
            kept.append(code)
    out.metrics = [c for c in out.metrics if c in kept]


_OF_WHOLE = re.compile(r"\s+(?:of|in)\s+(?:the\s+)?(?:group'?s?\s+|total\s+)?|\s*(?:占|在)")


def _mapped(
    text: str,
    m: AliasMatch,
    code: str,
    mod: Modifier,
    spec: object,
    scan: list[tuple[str, AliasMatch]],
    profile: DomainProfile,
    out: Reading,
) -> tuple[str | None, int]:
    """The derived metric the modified phrase means, or None (the quantity is not held), and
    where the words it read end."""
    shapes = named_shapes(profile)
    if mod.kind == MARGIN and is_percent(spec, profile):
        return m.code, mod.end  # 同店销售增长率 is 同店销售增长: a percentage named with 率
    if mod.kind == GROWTH and (mod.bare or restates_yoy(text, mod)) and growth_named(spec):
        return m.code, mod.end  # comp-store sales growth, yoy revenue growth: named with its growth
    if (
        spec is not None
        and not isinstance(spec, MetricSpec)
        and code not in sum_expansions(profile)
    ):
        return None, mod.end  # a derived metric (but a sum: 负债合计) takes no other modifier
    if mod.kind == COMPOUND:
        return None, mod.end
    if mod.kind == GROWTH:  # of a sum the profile names (负债合计): its parts' growth
        whole = sum_expansions(profile).get(code, code)
        return shapes.get(("growth", code)) or shapes.get(("growth", whole)), mod.end
    if mod.kind == MARGIN:
        revenue = revenue_metric(profile)
        return (ratio_of(code, revenue, profile) if revenue and revenue != code else None), mod.end
    if mod.kind == RATIO and mod.other is not None and mod.inverted:
        return ratio_of(mod.other.code, code, profile), mod.end  # how many times Y was X: X / Y
    if mod.kind == RATIO and mod.other is not None:
        return ratio_of(code, mod.other.code, profile), mod.end
    if mod.kind == PER:
        return per_unit(code, mod, profile), mod.end
    return _share(text, m, code, mod, scan, profile, out)


_ANY_DAY = date(2000, 1, 1)  # periods are compared, not resolved: any reference day will do
# A share's whole that is a period (全年, the full year): a part of the year, which no entity or
# channel share means.
_PERIOD_WHOLE = re.compile(
    r"\s*(?:全年|整年|全年度|本年度|年度|当年|(?:the\s+)?(?:full|whole)[\s-]+year|annual)"
)


def _share(
    text: str,
    m: AliasMatch,
    code: str,
    mod: Modifier,
    scan: list[tuple[str, AliasMatch]],
    profile: DomainProfile,
    out: Reading,
) -> tuple[str | None, int]:
    """A share: of another metric (研发费用占营业收入的比例), of a whole named before (职工中研发
    人员的占比) or after (what proportion of employees were R&D staff), of the group, or of a
    channel."""
    if mod.whole is not None and _PERIOD_WHOLE.match(text, mod.whole[0]):
        return None, mod.end  # 上半年收入占全年的比重: a share of a longer period, not of a whole
    metrics = [w for k, w in scan if k == "metrics" or (k == "quantity" and _summed(w.code))]
    inside = [
        (k, w) for k, w in scan if mod.whole is not None and mod.whole[0] <= w.start < mod.whole[1]
    ]
    after = mod.whole is not None and mod.whole[0] >= m.end  # not share of Hong Kong's revenue
    if after and _of_another(text, mod, inside, scan, profile):
        if mod.postposed and out.declined is None:  # 收入是台湾收入的百分之几
            out.declined_name = qn.ratio_name(text, m, mod.whole or (0, 0), profile)
        return None, mod.end  # 香港收入占台湾收入的比重, 收入是2023年的百分之几: no formula
    other = next((w for k, w in inside if k == "metrics" and w.code != m.code), None)
    if other is not None:
        ratio = ratio_of(code, other.code, profile)
        if ratio is None and mod.postposed and out.declined is None:  # 财务费用是管理费用的百分之几
            out.declined_name = qn.ratio_name(text, m, other, profile)
        return ratio, mod.end
    whole = whole_before(text, m, metrics)
    if whole is not None:
        return ratio_of(code, whole.code, profile), mod.end
    if mod.end <= m.start:  # share of X …: X is the whole, when a part is named after it
        parts, until = part_after(text, m, metrics)
        for part in parts:
            held = part in profile.metric_codes or _summed(part)
            found = part if held else _composed(part, text, m, profile)
            if found is not None:
                return ratio_of(found, code, profile), until
        if out.declined is None:  # what share of employees worked in production: named so
            out.declined_name = qn.part_share_name(text, mod, m) or out.declined_name
    inner = mod.part or (0, 0)  # 收入里线上部分占: the part inside the modifier is read with it
    outside = [
        (k, w)
        for k, w in scan
        if (not (mod.start <= w.start < mod.end) or inner[0] <= w.start < inner[1]) and w != m
    ]
    channel = next(
        (w.code for k, w in outside if k == "channels" and w.code != profile.default_channel),
        None,
    )
    if channel is not None:
        out.fixed_channel = True
        shape = ("channel_share", code, channel, profile.default_channel)
        held = named_shapes(profile).get(shape)
        if held is None and out.declined is None:  # share of revenue … offline: whose share
            out.declined_name = qn.channel_share_name(channel, code, profile)
        return held, mod.end
    home = profile.home_entity_code
    entity = next((w.code for k, w in outside if k == "entities" and w.code != home), None)
    if entity is not None:
        return named_shapes(profile).get(("entity_share", code, home)), mod.end
    return None, mod.end


def _of_another(
    text: str,
    mod: Modifier,
    inside: list[tuple[str, AliasMatch]],
    scan: list[tuple[str, AliasMatch]],
    profile: DomainProfile,
) -> bool:
    """A whole that is another part (台湾收入: an entity neither the home company nor the part's
    own) or another period (2023年的) than the part's: a ratio between two parts or two periods,
    which no share formula holds (a share of the group fixes the home entity as its whole)."""
    assert mod.whole is not None
    start, end = mod.whole
    outside = {w.code for k, w in scan if k == "entities" and not start <= w.start < end}
    others = {w.code for k, w in inside if k == "entities"} - outside - {profile.home_entity_code}
    if others:
        return True
    whole = {pm.period for pm in find_periods(text, _ANY_DAY) if start <= pm.start < end}
    rest = {pm.period for pm in find_periods(text, _ANY_DAY) if not start <= pm.start < end}
    return bool(whole - rest)


def _composed(word: str, text: str, m: AliasMatch, profile: DomainProfile) -> str | None:
    """'current' with the whole's noun (total liabilities): the metric current liabilities."""
    noun = text[m.start : m.end].split()[-1]
    return glossary_for(profile).normalize_metric(f"{word} {noun}")
