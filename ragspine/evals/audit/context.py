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
from ragspine.evals.audit.periods import Mention, find_periods
from ragspine.evals.audit.qualifiers import (
    base_of,
    bound_of,
    noun_of,
    per_of,
    quantity_of,
    span_of,
)
from ragspine.evals.audit.roles import flows, pair_scales, period_of, ranges, roles_of


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
    bound: str | None = None  # > >= < <= ~< (近), lo / hi (a range's ends): see qualifiers
    quantity: str | None = None  # stock | net | gross
    span: str | None = None  # cumulative | per_event
    base: str | None = None  # the year a change is measured from
    per: str | None = None  # the time base of a rate: year | month | week | day | quarter
    noun: str | None = None  # what a count counts: store | person


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
    label: str = ""  # the words that say what it is (see labels)
    sentence: int = -1  # which sentence of its text it is in


SENTENCE = re.compile(r"[。!?;\n]|\.(?=\s|$)")
_CLAUSE = re.compile(r"(?<!\d),|,(?!\d)")
_MASK = "\u25a1"
_BY_YEAR = re.compile(
    r"^[^,]{0,12}?(?:(?<![A-Za-z])by\s+|(?<![增升降减涨跌达提长加少低])到)\s*(?:19|20)\d{2}", re.I
)


def read(
    text: str,
    lex: Lexicon,
    backdrop: Backdrop | None = None,
    breaks: Collection[int] = (),
    carry: bool = False,
) -> list[Statement]:
    """Every claim of a normalised text (labels left out, unparsed kept) with its context.
    ``breaks``: where a sentence starts that no stop marks (two quoted sentences joined by a
    comma). ``carry`` (a passage): a sentence that names no entity is about the one the
    sentence before it named first (a paragraph keeps its subject: …served by 14 centres. By year
    end we had consolidated them into 9), before the passage's backdrop. Read once per text,
    backdrop and lexicon (the lexicon's memo)."""
    back = backdrop or Backdrop()
    key = (text, back, tuple(breaks), carry)
    return list(lex.readings.get(key, lambda: tuple(_read(text, lex, back, breaks, carry))))


def _read(
    text: str, lex: Lexicon, back: Backdrop, breaks: Collection[int], carry: bool
) -> list[Statement]:
    claims = [
        (s, e, c) for s, e, c in read_claims(text) if c.value is None or not is_label(text, s, e, c)
    ]
    if not claims:
        return []
    metrics = lex.metrics(text)
    entities = [f for f in lex.entities(text) if not _overlaps(f, metrics)]
    channels = [f for f in lex.channels(text) if not _overlaps(f, metrics)]
    named = [*metrics, *entities, *channels]
    # a number inside a name (600201, 三费比重) is part of the name
    claims = [x for x in claims if not any(f.start <= x[0] and x[1] <= f.end for f in named)]
    claims = [x for x in claims if not _counts_its_list(text, *x)]
    masked = _masked(text, metrics)
    periods = find_periods(text)
    out: list[Statement] = []
    subject = None
    for s0, s1 in _broken(_cuts(text, SENTENCE, 0, len(text)), breaks):
        mine = [x for x in claims if s0 <= x[0] < s1]
        named_here = [f for f in entities if s0 <= f.start < s1]
        fallback = (subject if carry and not named_here else None) or back.entity
        subject = named_here[0].code if named_here else subject
        if not mine:
            continue
        clauses = _cuts(text, _CLAUSE, s0, s1)
        spoken = [p for p in periods if s0 <= p.start and p.end <= s1]
        own = next((p.code for p in spoken if p.code), None) or back.period
        roles = flows(text, metrics, mine, roles_of(masked, mine, clauses), s0)
        mine = pair_scales(mine, roles, clauses)
        ends = ranges(text, mine, roles)
        first = len(out)
        for i, (s, e, claim) in enumerate(mine):
            c0, c1 = next(((a, b) for a, b in clauses if a <= s < b), (s0, s1))
            role, direction, from_at = roles[i]
            metric = _before(metrics, s, s0) or back.metric
            near = text[max(c0, mine[i - 1][1] if i else c0) : s]
            period = period_of(text, spoken, mine, i, (c0, c1), own, role, from_at, back.period)
            modifier = _modifier(masked, mine, i, c0, role, metric, lex)
            change = role == "change" or modifier == "growth"
            ctx = Context(
                entity=_before(entities, s, s0) or _owner_after(text, entities, e, c1) or fallback,
                period=period,
                metric=metric,
                modifier=modifier,
                channel=_before(channels, s, c0) or _after(channels, e, c1) or back.channel,
                unit=w.unit_after(text[e : e + 16]) or w.unit_before(text[c0:s]),
                modality=_modality(masked[c0:s], masked[e:c1], masked[s0:c0]),
                direction=direction,
                role=role,
                bound=ends.get(i) or bound_of(near, text[e : e + 8], claim.text),
                quantity=quantity_of(near, text[e : e + 16]) if claim.kind == "number" else None,
                span=span_of(text[c0:s]),
                per=per_of(text[c0:s], text[e : e + 24]),
                noun=noun_of(text[e : e + 8]) if claim.kind == "number" else None,
                base=_base(text, s0, s, mine, roles, i, period) if change else None,
            )
            label = text[mine[i - 1][1] if i else s0 : s]
            out.append(Statement(s, e, claim, ctx, label, s0))
        listing = _RESPECTIVELY.search(text, s0, s1)
        if listing:
            out[first:] = _respective(out[first:], listing, s0, spoken, entities, metrics, text)
    return out


_RESPECTIVELY = re.compile(r"分别|各自|respectively", re.I)


def _respective(
    statements: list[Statement],
    listing: re.Match[str],
    s0: int,
    spoken: Sequence[Mention],
    entities: Sequence[Found],
    metrics: Sequence[Found],
    text: str,
) -> list[Statement]:
    """香港2023年和2024年收入分别为410和455百万美元: the i-th figure after 分别 (before
    "respectively") has the i-th period, entity, metric named before them; where the counts
    differ, what the list names is unknown for each. Its label is the i-th item listed."""
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
    items = _items(text[s0:bound], len(figures))
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
        label = items[i] if items else st.label
        out.append(Statement(st.start, st.end, claim, ctx, label, st.sentence))
    return out


_CONJ = re.compile(r"以及|、|和|与|及|(?<![A-Za-z])and(?![A-Za-z])|&", re.I)


def _items(lead: str, count: int) -> list[str] | None:
    """The items a 分别 / respectively list names before its figures, one per figure."""
    parts = [p for p in _CONJ.split(lead) if p.strip()]
    return parts if len(parts) == count else None


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


_ITEM_COUNT = re.compile(r"^\s*(?:项|个|者|类|种|大|方面|家)")
_CLAUSE_START = re.compile(r"[,;:。!?(]")


def _counts_its_list(text: str, s: int, e: int, claim: Claim) -> bool:
    """坪效和门店EBITDA率两项, 春节、618、双11和年终四个节点: a count of the items listed right
    before it is what the sentence itself shows, not a claim."""
    if claim.value is None or claim.kind != "number" or not 2 <= claim.value <= 9:
        return False
    if not _ITEM_COUNT.match(text[e : e + 3]):
        return False
    lead = text[:s]
    cut = max((m.end() for m in _CLAUSE_START.finditer(lead)), default=0)
    items = _items(lead[cut:], int(claim.value))
    return items is not None and int(claim.value) >= 2


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


def _modifier(
    masked: str, mine: Claims, i: int, c0: int, role: str | None, metric: str | None, lex: Lexicon
) -> str | None:
    s, e, claim = mine[i]
    clause = masked[c0:s]
    prev = [x for x in mine[:i] if x[0] >= c0]
    near = masked[prev[-1][1] if prev else c0 : s]
    after = masked[e : e + 24]
    percent = claim.kind == "percent"
    if percent and (w.DISCOUNT.search(near) or w.DISCOUNT_AFTER.match(after)):
        return "discount"  # marked down by 20%, 20% off: a cut of the price, not its share
    # the nearer word says what it is: 坪效和EBITDA率合计占总分的50% is a share
    per = [m.start() for m in w.PER_UNIT.finditer(clause)]
    share = [m.start() for m in w.SHARE.finditer(clause)] if percent else []
    if share and max(share) > max(per, default=-1):
        return "share"
    if per or w.PER_UNIT.match(after.lstrip()):
        return "per_unit"
    if percent and (share or w.SHARE_AFTER.match(after)):
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


def _modality(before: str, after: str, lead: str = "") -> str:
    """Target or forecast words before it in its clause, else after it (by 2030), else in a
    lead clause of its sentence that holds no figure (按2025年目标,…): it frames the rest."""
    target = [m.end() for m in w.TARGET.finditer(before)]
    forecast = [m.end() for m in w.FORECAST.finditer(before)]
    if target or forecast:
        return "target" if max(target, default=-1) > max(forecast, default=-1) else "forecast"
    if _BY_YEAR.match(after):
        return "target"
    if lead and not _FIGURE.search(_YEARS.sub("", lead)) and not _ACTUAL.search(before):
        return _modality(lead, "")
    return "actual"


_FIGURE = re.compile(r"\d")
_YEARS = re.compile(r"(?:19|20)\d{2}")
_ACTUAL = re.compile(r"实际|(?<![A-Za-z])actual", re.I)


def _base(
    text: str,
    s0: int,
    s: int,
    mine: Claims,
    roles: Sequence[tuple[str | None, int, int | None]],
    i: int,
    period: tuple[str, ...],
) -> str | None:
    """The year a change is measured from: named in its sentence (与2022年相比, 同比), else the
    year of the FROM value of a from-to pair before it in its sentence."""
    own = period[-1] if period else None
    named = base_of(text[s0:s], own)
    if named or not own or not own[:4].isdigit():
        return named
    if any(roles[j][0] == "from" for j in range(i)):
        return str(int(own[:4]) - 1)
    return None
