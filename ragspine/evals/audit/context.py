"""Each number of a text with its context: the audit's reading of section 1 of the contract.

A claim's entity is the nearest entity name before it in its sentence, else the first after it
in its clause (not a place: 在香港总部召开); its period the nearest period before it (上年 names
only the first figure after it in its clause; the FROM value of a from-to pair is the year
before the sentence's own), else
the first after it in its clause, else the sentence's own; its metric the nearest metric name
before it in its sentence; its channel a channel word in its clause; its unit the currency or
count word written at it; its modality, direction, role and modifier the words before it in its
clause (a change word right before the metric's name, 新开门店数, makes an amount a change).
Where the text says nothing, the backdrop (a passage's headings and document, the answer's
heading, a table's row and column) speaks; where that says nothing, it is unknown.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from ragspine.evals.audit import words as w
from ragspine.evals.audit.claims import Claim, is_label, read_claims
from ragspine.evals.audit.names import Found, Lexicon
from ragspine.evals.audit.periods import Mention, find_periods, shifted, with_part


@dataclass(frozen=True)
class Context:
    entity: str | None = None
    period: tuple[str, ...] = ()  # () unknown; a change computed between two periods has both
    metric: str | None = None
    modifier: str | None = None  # level | growth | share | ratio | per_unit | change
    channel: str | None = None
    unit: str | None = None  # a currency code, or COUNT
    modality: str = "actual"  # actual | target | forecast
    direction: int = 0  # -1 down, +1 up, 0 unstated
    role: str | None = None  # from | to | change | level


@dataclass(frozen=True)
class Backdrop:
    """What a text's own sentences fall back on where they name nothing."""

    entity: str | None = None
    period: str | None = None
    metric: str | None = None
    channel: str | None = None


@dataclass(frozen=True)
class Statement:
    start: int
    end: int
    claim: Claim
    ctx: Context


SENTENCE = re.compile(r"[。!?;\n]|\.(?=\s|$)")
_CLAUSE = re.compile(r"(?<!\d),|,(?!\d)")
_MASK = "\u25a1"
_BY_YEAR = re.compile(
    r"^[^,]{0,12}?(?:(?<![A-Za-z])by\s+|(?<![增升降减涨跌达提长加少低])到)\s*(?:19|20)\d{2}", re.I
)


def read(
    text: str, lex: Lexicon, backdrop: Backdrop | None = None, breaks: Collection[int] = ()
) -> list[Statement]:
    """Every claim of a normalised text (labels left out, unparsed kept) with its context.
    ``breaks``: where a sentence starts that no stop marks (two quoted sentences joined by a
    comma)."""
    claims = [
        (s, e, c) for s, e, c in read_claims(text) if c.value is None or not is_label(text, s, e, c)
    ]
    if not claims:
        return []
    back = backdrop or Backdrop()
    metrics = lex.metrics(text)
    entities = [f for f in lex.entities(text) if not _overlaps(f, metrics)]
    channels = [f for f in lex.channels(text) if not _overlaps(f, metrics)]
    named = [*metrics, *entities, *channels]
    # a number inside a name (600201, 三费比重) is part of the name
    claims = [x for x in claims if not any(f.start <= x[0] and x[1] <= f.end for f in named)]
    masked = _masked(text, metrics)
    periods = find_periods(text)
    out: list[Statement] = []
    for s0, s1 in _broken(_cuts(text, SENTENCE, 0, len(text)), breaks):
        mine = [x for x in claims if s0 <= x[0] < s1]
        if not mine:
            continue
        clauses = _cuts(text, _CLAUSE, s0, s1)
        spoken = [p for p in periods if s0 <= p.start and p.end <= s1]
        own = next((p.code for p in spoken if p.code), None) or back.period
        roles = _flows(text, metrics, mine, _roles(masked, mine, clauses), s0)
        mine = _pair_scales(mine, roles, clauses)
        first = len(out)
        for i, (s, e, claim) in enumerate(mine):
            c0, c1 = next(((a, b) for a, b in clauses if a <= s < b), (s0, s1))
            role, direction, from_at = roles[i]
            metric = _before(metrics, s, s0) or back.metric
            ctx = Context(
                entity=_before(entities, s, s0)
                or _owner_after(text, entities, e, c1)
                or back.entity,
                period=_period(spoken, mine, i, (c0, c1), own, role, from_at),
                metric=metric,
                modifier=_modifier(masked, mine, i, c0, role, metric, lex),
                channel=_before(channels, s, c0) or _after(channels, e, c1) or back.channel,
                unit=w.unit_after(text[e : e + 16]) or w.unit_before(text[c0:s]),
                modality=_modality(masked[c0:s], masked[e:c1]),
                direction=direction,
                role=role,
            )
            out.append(Statement(s, e, claim, ctx))
        listing = _RESPECTIVELY.search(text, s0, s1)
        if listing:
            out[first:] = _respective(out[first:], listing, s0, spoken, entities, metrics)
    return out


_RESPECTIVELY = re.compile(r"分别|各自|respectively", re.I)


def _respective(
    statements: list[Statement],
    listing: re.Match[str],
    s0: int,
    spoken: Sequence[Mention],
    entities: Sequence[Found],
    metrics: Sequence[Found],
) -> list[Statement]:
    """香港2023年和2024年收入分别为410和455百万美元: the i-th figure after 分别 (before
    "respectively") has the i-th period, entity, metric named before them; where the counts
    differ, what the list names is unknown for each."""
    english = listing.group().lower() == "respectively"
    figures = [
        st
        for st in statements
        if (st.end <= listing.start() if english else st.start >= listing.end())
    ]
    if len(figures) < 2:
        return statements
    bound = figures[0].start
    listed = {
        "period": _distinct(p.code for p in spoken if p.code and s0 <= p.start and p.end <= bound),
        "entity": _distinct(f.code for f in entities if s0 <= f.start and f.end <= bound),
        "metric": _distinct(f.code for f in metrics if s0 <= f.start and f.end <= bound),
    }
    last = figures[-1].claim
    out = []
    for st in statements:
        if st not in figures:
            out.append(st)
            continue
        i = figures.index(st)
        ctx = st.ctx
        pick = {k: (v[i] if len(v) == len(figures) else None) for k, v in listed.items()}
        if len(listed["period"]) >= 2:
            ctx = replace(ctx, period=(pick["period"],) if pick["period"] else ())
        if len(listed["entity"]) >= 2:
            ctx = replace(ctx, entity=pick["entity"])
        if len(listed["metric"]) >= 2:
            ctx = replace(ctx, metric=pick["metric"])
        claim = st.claim
        if claim.scale == 1 and last.scale != 1 and claim.kind == last.kind and claim.value:
            k = last.scale  # 410和455百万美元: the list's scale word is written once, at its end
            claim = replace(claim, value=claim.value * k, slack=claim.slack * k, scale=k)
            ctx = replace(ctx, unit=ctx.unit or figures[-1].ctx.unit)
        out.append(Statement(st.start, st.end, claim, ctx))
    return out


def _distinct(codes: Iterable[str | None]) -> list[str]:
    return list(dict.fromkeys(c for c in codes if c))


def _cuts(text: str, pattern: re.Pattern[str], start: int, end: int) -> list[tuple[int, int]]:
    out, at = [], start
    for m in pattern.finditer(text, start, end):
        out.append((at, m.end()))
        at = m.end()
    out.append((at, end))
    return [(a, b) for a, b in out if b > a]


def _broken(cuts: list[tuple[int, int]], breaks: Collection[int]) -> list[tuple[int, int]]:
    out = []
    for a, b in cuts:
        for at in sorted(x for x in breaks if a < x < b):
            out.append((a, at))
            a = at
        out.append((a, b))
    return out


def _overlaps(f: Found, others: Sequence[Found]) -> bool:
    return any(o.start < f.end and f.start < o.end for o in others)


def _masked(text: str, metrics: Sequence[Found]) -> str:
    """Metric names blanked: the 增长 of 同店销售增长 says nothing of the number after it."""
    chars = list(text)
    for f in metrics:
        chars[f.start : f.end] = _MASK * (f.end - f.start)
    return "".join(chars)


def _before(found: Sequence[Found], at: int, floor: int) -> str | None:
    near = [f for f in found if floor <= f.start and f.end <= at]
    return near[-1].code if near else None


def _after(found: Sequence[Found], at: int, ceiling: int) -> str | None:
    near = [f for f in found if at <= f.start and f.end <= ceiling]
    return near[0].code if near else None


def _owner_after(text: str, found: Sequence[Found], at: int, ceiling: int) -> str | None:
    """The first entity named after a figure in its clause, unless it names where something
    took place (12月12日在集团香港总部召开): a place, not whose the figure is."""
    near = [f for f in found if at <= f.start and f.end <= ceiling]
    if not near or text[at : near[0].start].rstrip().endswith("在"):
        return None
    return near[0].code


Claims = Sequence[tuple[int, int, Claim]]


def _period(
    spoken: Sequence[Mention],
    mine: Claims,
    i: int,
    clause: tuple[int, int],
    own: str | None,
    role: str | None,
    from_at: int | None,
) -> tuple[str, ...]:
    """The nearest period before it in its clause, else the first after it in its clause, else
    the nearest before it in its sentence, else the sentence's own (or the backdrop's)."""
    s, e, _ = mine[i]
    code, near, found = None, False, False
    before = [p for p in spoken if p.end <= s]
    in_clause = [p for p in before if p.start >= clause[0]]
    later = [p for p in spoken if p.start >= e and p.end <= clause[1] and p.code]
    for p in reversed(in_clause if in_clause or later else before):
        if p.code is None and p.shift:
            # 上年的2370: the first figure after it in its clause, not a change measured from it
            between = any(p.end <= x[0] < s for x in mine)
            if p.start >= clause[0] and role != "change" and not between:
                code, near, found = shifted(own, p.shift), True, True
                break
            continue
        code, found = p.code or with_part(own, p.part), True
        near = from_at is not None and p.start >= from_at
        break
    if not found:
        code = later[0].code if later else None
        # from USD 1,400 million in FY2023: a period right after the figure is its own
        near = bool(later) and not any(e <= x[0] < later[0].start for x in mine)
        if code is None:
            earlier = [p for p in before if p.code]
            code = earlier[-1].code if earlier and in_clause else own
    if role == "from" and not near:
        code = shifted(code, -1) if code and len(code) == 4 else None
    return (code,) if code else ()


def _roles(
    masked: str, mine: Claims, clauses: Sequence[tuple[int, int]]
) -> list[tuple[str | None, int, int | None]]:
    """(role, direction, where the from-word starts) for each claim of a sentence."""
    out: list[tuple[str | None, int, int | None]] = []
    for i, (s, e, _claim) in enumerate(mine):
        c0 = next((a for a, b in clauses if a <= s < b), 0)
        prev = [x for x in mine[:i] if x[0] >= c0]
        near = masked[prev[-1][1] if prev else c0 : s]
        before = masked[c0:s]
        role: str | None = None
        direction, from_at = 0, None
        if m := w.FROM.search(near):
            role, from_at = "from", s - len(near) + m.start()
        elif w.UP_TO.search(near):
            pass
        elif m := w.TO.search(before):
            role, direction = "to", _way(m.group())
        elif prev and out[i - 1][0] == "from" and w.TO_AFTER_FROM.search(near):
            role = "to"
        elif m := w.CHANGE.search(near):
            role, direction = "change", _way(m.group())
        elif a := w.CHANGE_AFTER.match(masked[e : e + 16]):
            role, direction = "change", -1 if a.group("fall") else 1
        out.append((role, direction, from_at))
    # a from-to pair shares its verb: 由410增至455, fell from 455 to 410, rose to 455 from 410
    for i, (role, _, from_at) in enumerate(out):
        if role != "from":
            continue
        c0, c1 = next(((a, b) for a, b in clauses if a <= mine[i][0] < b), (0, 0))
        pair = [out[j][1] for j in range(len(mine)) if c0 <= mine[j][0] < c1 and out[j][0] == "to"]
        way = next((d for d in pair if d), 0) or _way(masked[c0 : from_at or c0])
        out[i] = (role, way, from_at)
    for i, (role, direction, from_at) in enumerate(out):
        if role == "to" and not direction and i and out[i - 1][0] == "from":
            out[i] = (role, out[i - 1][1], from_at)
    return out


def _flows(
    text: str,
    metrics: Sequence[Found],
    mine: Claims,
    roles: list[tuple[str | None, int, int | None]],
    s0: int,
) -> list[tuple[str | None, int, int | None]]:
    """新开门店数:540: an amount whose metric's name follows a change word is a change of it."""
    out = list(roles)
    for i, (s, _e, claim) in enumerate(mine):
        near = [f for f in metrics if s0 <= f.start and f.end <= s]
        if (
            out[i][0] is None
            and claim.kind == "number"
            and near
            and w.FLOW.search(text[max(s0, near[-1].start - 8) : near[-1].start])
        ):
            out[i] = ("change", 0, None)
    return out


def _pair_scales(
    mine: Claims,
    roles: Sequence[tuple[str | None, int, int | None]],
    clauses: Sequence[tuple[int, int]],
) -> list[tuple[int, int, Claim]]:
    """from 455 to 410 million: the FROM value written bare takes its pair's scale word."""
    out = list(mine)
    for i, (s, e, claim) in enumerate(mine):
        if roles[i][0] != "from" or claim.scale != 1 or claim.value is None:
            continue
        c1 = next((b for a, b in clauses if a <= s < b), s)
        pair = [x for j, x in enumerate(mine) if j > i and x[0] < c1 and roles[j][0] == "to"]
        if pair and pair[0][2].scale != 1 and pair[0][2].kind == claim.kind:
            k = pair[0][2].scale
            out[i] = (s, e, replace(claim, value=claim.value * k, slack=claim.slack * k, scale=k))
    return out


def _way(text: str) -> int:
    """The direction of the last direction word in ``text``."""
    rise = [m.start() for m in w.RISE.finditer(text)]
    fall = [m.start() for m in w.FALL.finditer(text)]
    if not rise and not fall:
        return 0
    return 1 if max(rise, default=-1) > max(fall, default=-1) else -1


def _modifier(
    masked: str, mine: Claims, i: int, c0: int, role: str | None, metric: str | None, lex: Lexicon
) -> str | None:
    s, e, claim = mine[i]
    clause = masked[c0:s]
    prev = [x for x in mine[:i] if x[0] >= c0]
    near = masked[prev[-1][1] if prev else c0 : s]
    after = masked[e : e + 24]
    if w.PER_UNIT.search(clause) or w.PER_UNIT.match(after.lstrip()):
        return "per_unit"
    percent = claim.kind == "percent"
    if percent and (w.SHARE.search(clause) or w.SHARE_AFTER.match(after)):
        return "share"
    if w.GROWTH.search(near) and percent:
        return "growth"
    if percent and role == "change" and not lex.percent_metric(metric):
        return "growth"  # 收入增长11%: a percentage change of an amount is its growth
    if percent and w.RATIO.search(near):
        return "ratio"
    if role == "change" and claim.kind in ("number", "points"):
        return "change"
    return None


def _modality(before: str, after: str) -> str:
    target = [m.end() for m in w.TARGET.finditer(before)]
    forecast = [m.end() for m in w.FORECAST.finditer(before)]
    if target or forecast:
        return "target" if max(target, default=-1) > max(forecast, default=-1) else "forecast"
    return "target" if _BY_YEAR.match(after) else "actual"
