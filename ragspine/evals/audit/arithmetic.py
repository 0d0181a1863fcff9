"""One arithmetic step over supported figures (the README's rule, in the audit's own code).

A figure nothing states is still supported when it equals, within its written precision, ONE
step over figures that are themselves supported (a found fact, a cited passage's number, a
figure of the same sentence that passes) and that the sentence is about (their entity and metric
named in it, where it names any). The step must be the one the sentence's words ask for:

* a sum (合计, 共计, combined, in total): of two figures, or of all the sentence's figures;
* a difference (比…高/低, 相差, more/less than): the one named first minus the other, with the
  sign the words give it (高 / more is above, 低 / less below);
* a ratio (N倍, N times, 为…的N%): the one named first over the other, never inverted;
* an average (平均, average), of two figures or of all of them;
* a monthly or quarterly average (月均, 每月, monthly / 季均, quarterly): a year's figure ÷ 12 or 4;
* a per-unit figure (单店, 每家, per store / 人均, per employee): an amount ÷ a count stated in
  the sentence whose counted noun is the one the per-word names;
* a complement (占…的N%): 100% − a share of another channel;
* basis points (个基点, bps): a change in percentage points × 100;
* a change (增加, 净减少, rose by, fell by): the gap between two figures of one unit and metric
  (a from-to, two periods); a change of two percentages is in points, never a bare percent;
* a relative change (相对, relative): a points change over its base, the figure named first;
* a duration (小时, hours): the hours between two clock times the sentence or a cited passage
  gives (上午10点至晚上10点, 8:00-20:00);
* a per-X figure (每个配送中心, per centre): an amount ÷ a count of X stated in the sentence,
  whichever sources the two come from.

A figure and its own restatement are one figure: an average or a sum never joins them.

A product (a percent applied to an amount) is no step here: nothing in the contract asks for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import combinations

from ragspine.evals.audit.claims import Claim
from ragspine.evals.audit.context import Context, Statement
from ragspine.evals.audit.names import Lexicon
from ragspine.evals.audit.periods import find_periods
from ragspine.evals.audit.sources import Source
from ragspine.evals.audit.support import same_value

_SUM = re.compile(r"合计|共计|总计|合共|总和|加起来|combined|together|in total|a total of", re.I)
_AVERAGE = re.compile(r"(?<![月季单店人家])平均|均值|均为|average|mean", re.I)
_MONTHLY = re.compile(r"月均|每月平均|平均每月|monthly|a month|per month", re.I)
_QUARTERLY = re.compile(r"季均|每季平均|平均每季|quarterly average|per quarter", re.I)
# 同比 / 环比 name a change's base, not a comparison of two named figures
_COMPARE = re.compile(r"(?<![同环])比|相差|差距|差额|than|gap|difference", re.I)
# a change verb right before the figure it names (增加45百万, 净减少5个, rose by 5)
_CHANGE = re.compile(
    r"(?:增加|减少|增长|下降|下滑|提升|上升|净增|净减|多出|少了)了?\s*(?:约|近)?\s*$"
    r"|(?:(?:rose|fell|grew|increased|decreased|declined|dropped|up|down)\s+by"
    r"|net\s+(?:change|reduction|increase|decrease)\s+of)\s+(?:about\s+)?$",
    re.I,
)
_RELATIVE = re.compile(r"相对|relative", re.I)
_HOURS = re.compile(r"\s*(?:个)?(?:小时|钟头)|\s*(?:hours?|hrs?)\b", re.I)
# a clock time: 上午10点, 晚上10点半, 8:00, 10am, 10 p.m.
_CLOCK = (
    r"(?:(?P<{0}h>上午|早上|早晨|中午|下午|晚上|夜间)?(?P<{0}n>\d{{1,2}})(?:[:：](?P<{0}m>\d{{2}})|点(?P<{0}half>半)?)"
    r"|(?P<{0}en>\d{{1,2}})(?::(?P<{0}em>\d{{2}}))?\s*(?P<{0}ap>[ap])\.?m\.?)"
)
_CLOCK_RANGE = re.compile(
    _CLOCK.format("a") + r"\s*(?:至|到|-|–|—|~|～|\bto\b|until)\s*" + _CLOCK.format("b"), re.I
)
_PER_WORD = re.compile(
    r"每(?:个|家|座|间|名|位)?([\u4e00-\u9fff]{2})|\b(?:per|each|a)\s+([a-z]{4,})", re.I
)
_UP = re.compile(r"比[^,。]{0,20}?(?:高|多|大|领先|超出)|(?:more|higher|larger|above)\s+than", re.I)
_DOWN = re.compile(r"比[^,。]{0,20}?(?:低|少|小|落后)|(?:less|lower|smaller|below)\s+than", re.I)
_OF = re.compile(r"的\s*$|\bof\s*$|相当于\s*$", re.I)
_SHARE = re.compile(r"占|其余|其他|剩余|比重|share|the rest|remaining", re.I)
_BASIS = re.compile(r"\s*个?基点|\s*(?:bps|basis points?)", re.I)
# the counted noun a per-word names, and the words that count it after a figure
_PER = {
    "store": re.compile(r"单店|每家|每店|店均|家均|per store|each store|a store", re.I),
    "person": re.compile(r"人均|每人|每名|每位|per employee|per head|per capita", re.I),
}
_COUNTED = {
    "store": re.compile(r"\s*(?:家|间|個|个)?\s*(?:门店|門店|店)|\s*家|\s*stores?\b", re.I),
    "person": re.compile(r"\s*(?:名|人|位)|\s*(?:employees|staff|people)\b", re.I),
}


def one_step(
    st: Statement,
    text: str,
    sentence: tuple[int, int],
    pool: Sequence[Source],
    lex: Lexicon,
    cited: Sequence[str] = (),
) -> bool:
    """Whether the statement's figure is one step the sentence asks for over the pool's
    figures (see the module's rule); ``text`` is the line, ``sentence`` its sentence's span,
    ``cited`` the texts of the passages the line cites (for clock times)."""
    claim = st.claim
    if claim.value is None or claim.span is not None:
        return False
    words = text[sentence[0] : sentence[1]]
    before = text[sentence[0] : st.start]
    after = text[st.end : sentence[1]]
    ops = _relevant(pool, words, lex)
    order = _order(ops, words, lex)
    made = _results(claim, st.ctx, words, before, after, ops, order)
    if claim.kind == "number" and _HOURS.match(after):
        made = [*made, *(_made(h, "number") for t in (words, *cited) for h in durations(t))]
    return any(same_value(claim, r) for r in made)


def _results(
    claim: Claim,
    ctx: Context,
    words: str,
    before: str,
    after: str,
    ops: list[Source],
    order: dict[int, float],
) -> Iterable[Claim]:
    kind = claim.kind
    levels = [s for s in ops if not s.computed]
    if kind == "multiple" or (kind == "percent" and _OF.search(before)):
        for a, b in _ordered_pairs(levels, order):
            bv = _v(b)
            if bv and a.claim.kind == b.claim.kind:
                ratio = _v(a) / bv
                yield _made(ratio * 100 if kind == "percent" else ratio, kind)
    if kind == "percent" and _SHARE.search(words):
        for s in levels:
            if s.claim.kind == "percent" and _other_channel(s, ctx):
                yield _made(100 - _v(s), "percent")
    if _BASIS.match(after) or kind == "points":
        scale = Fraction(1, 100) if kind != "points" else Fraction(1)
        for a, b in combinations([s for s in levels if s.claim.kind == "percent"], 2):
            gap = abs(_v(a) - _v(b))
            yield _made(gap / scale, kind)
        for s in ops:
            if s.computed and s.claim.kind == "points":
                yield _made(abs(_v(s)) / scale, kind)
    if kind not in ("number", "percent"):
        return
    alike = [s for s in levels if s.claim.kind == kind]
    if _SUM.search(words):
        for group in _groups(alike):
            yield _made(sum((_v(s) for s in group), Fraction(0)), kind)
    if _AVERAGE.search(words) and not _MONTHLY.search(words):
        for group in _groups(alike):
            total = sum((_v(s) for s in group), Fraction(0))
            yield _made(total / len(group), kind)
    if kind == "percent" and _RELATIVE.search(words):
        for a, b in _ordered_pairs(alike, _at_text(alike, words)):
            if _v(a):
                yield _made(abs(_v(a) - _v(b)) / _v(a) * 100, kind)
    if kind != "number":  # a gap of two percentages is in points (the points branch above)
        return
    if _COMPARE.search(words):
        way = 1 if _UP.search(words) else -1 if _DOWN.search(words) else 0
        for a, b in _ordered_pairs(alike, order) if way else combinations(alike, 2):
            gap = _v(a) - _v(b)
            if not way or gap * way > 0:
                yield _made(abs(gap), kind)
    if _CHANGE.search(before):
        for a, b in combinations(alike, 2):
            if _one_series(a, b):
                yield _made(abs(_v(a) - _v(b)), kind)
    if kind == "number":
        for k, pattern in ((12, _MONTHLY), (4, _QUARTERLY)):
            if pattern.search(words):
                yield from (_made(_v(s) / k, kind) for s in alike)
        counts = [
            c for noun, per in _PER.items() if per.search(words) for c in _counts(ops, words, noun)
        ]
        counts += _per_counts(ops, words)
        for count in counts:
            for s in alike:
                if s is not count and _v(count):
                    yield _made(_v(s) / _v(count), kind)


def _made(value: Fraction, kind: str) -> Claim:
    return Claim("", value, kind, Fraction(0), 0)


def _groups(alike: list[Source]) -> Iterable[list[Source]]:
    """Two of the figures, or all of one metric: what a sum or an average may run over; a
    figure and its own restatement (one value, no context apart) count once."""
    for a, b in combinations(alike, 2):
        if _one_series_kind(a, b) and not _restated(a, b):
            yield [a, b]
    distinct: list[Source] = []
    for s in alike:
        if not any(_restated(s, d) for d in distinct):
            distinct.append(s)
    if len(distinct) > 2:
        yield distinct


def _one_series(a: Source, b: Source) -> bool:
    """Two figures a change may run between: one unit, metric and entity (a from-to, two
    periods), not one figure twice."""
    return (
        _same(a.ctx.unit, b.ctx.unit)
        and _same(a.ctx.metric, b.ctx.metric)
        and _same(a.ctx.entity, b.ctx.entity)
        and not _restated(a, b)
    )


def _restated(a: Source, b: Source) -> bool:
    """One figure twice: the same value, and no entity or period that tells them apart."""
    pa, pb = a.ctx.period, b.ctx.period
    return (
        _v(a) == _v(b)
        and _same(a.ctx.entity, b.ctx.entity)
        and (not pa or not pb or bool(set(pa) & set(pb)))
    )


def durations(text: str) -> list[Fraction]:
    """The hours between the two ends of each clock-time range in ``text`` (上午10点至晚上10点:
    12); an end before its start runs past midnight."""
    out = []
    for m in _CLOCK_RANGE.finditer(text):
        a, b = _clock(m, "a"), _clock(m, "b")
        if a is not None and b is not None:
            out.append((b - a) % 24 or Fraction(24))
    return out


def _clock(m: re.Match[str], end: str) -> Fraction | None:
    """A clock time in hours since midnight (下午 / 晚上 / pm after noon)."""
    g = m.groupdict()
    if g[end + "n"] is not None:
        hour, minute = int(g[end + "n"]), int(g[end + "m"] or (30 if g[end + "half"] else 0))
        late = g[end + "h"] in ("下午", "晚上", "夜间") or (g[end + "h"] == "中午" and hour < 6)
    elif g[end + "en"] is not None:
        hour, minute = int(g[end + "en"]), int(g[end + "em"] or 0)
        late = g[end + "ap"].lower() == "p"
    else:
        return None
    if hour > 24 or minute > 59:
        return None
    if late and hour < 12:
        hour += 12
    return Fraction(hour) + Fraction(minute, 60)


def _at_text(ops: Sequence[Source], words: str) -> dict[int, float]:
    """Where the sentence writes each figure: a relative change's base is the one written first."""
    out: dict[int, float] = {}
    for s in ops:
        at = words.find(s.claim.text) if s.claim.text else -1
        out[id(s)] = float(at) if at >= 0 else float("inf")
    return out


def _per_counts(ops: Sequence[Source], words: str) -> list[Source]:
    """The counts of the noun a per-word names (每个配送中心 → 9个区域配送中心; per centre → 9
    regional distribution centres): the noun within a few words after the count."""
    out = []
    for m in _PER_WORD.finditer(words):
        head = (m.group(1) or m.group(2)[:5]).lower()
        for s in ops:
            text = s.claim.text
            at = words.find(text) if text else -1
            # the noun a few characters (Chinese) or words (English) after the count
            end = at + len(text)
            if at >= 0 and head in words[end : end + (30 if head.isascii() else 8)].lower():
                out.append(s)
    return out


def _one_series_kind(a: Source, b: Source) -> bool:
    """Two figures a sum or an average may join: the same unit and metric, not the same slot."""
    return (
        _same(a.ctx.unit, b.ctx.unit)
        and _same(a.ctx.metric, b.ctx.metric)
        and (a.ctx.entity, a.ctx.period) != (b.ctx.entity, b.ctx.period)
    )


def _relevant(pool: Sequence[Source], words: str, lex: Lexicon) -> list[Source]:
    """The figures the sentence is about: their entity and metric named in it, where it names
    any; figures read at two scales kept apart only by their value."""
    entities = {f.code for f in lex.entities(words)}
    metrics = {f.code for f in lex.metrics(words)}
    out = []
    for s in pool:
        if s.claim.value is None:
            continue
        if entities and s.ctx.entity and s.ctx.entity not in entities:
            continue
        if metrics and s.ctx.metric and not any(_akin(s.ctx.metric, m, lex) for m in metrics):
            continue
        out.append(s)
    return out


def _order(ops: Sequence[Source], words: str, lex: Lexicon) -> dict[int, float]:
    """Where the sentence names each figure's entity, else its period: the one named first is
    the subject of a comparison (A比B高, A是B的N倍); a figure it names neither way comes last."""
    entities = lex.entities(words)
    periods = [p for p in find_periods(words) if p.code]
    out: dict[int, float] = {}
    for s in ops:
        at = [float(f.start) for f in entities if f.code == s.ctx.entity]
        if len({f.code for f in entities}) < 2:
            at = [float(p.start) for p in periods if p.code in s.ctx.period]
        out[id(s)] = min(at, default=float("inf"))
    return out


def _ordered_pairs(
    ops: Sequence[Source], order: dict[int, float]
) -> Iterable[tuple[Source, Source]]:
    for a in ops:
        for b in ops:
            if a is not b and order[id(a)] < order[id(b)]:
                yield a, b


def _other_channel(share: Source, ctx: Context) -> bool:
    """A complement is the other channel's share: never the share's own channel restated."""
    return share.ctx.channel is None or ctx.channel is None or share.ctx.channel != ctx.channel


def _counts(ops: Sequence[Source], words: str, noun: str) -> list[Source]:
    """The counts the sentence states of the per-word's noun (540家门店 for 单店)."""
    out = []
    for s in ops:
        text = s.claim.text
        at = words.find(text) if text else -1
        if at >= 0 and _COUNTED[noun].match(words, at + len(text)):
            out.append(s)
    return out


def _akin(a: str, b: str, lex: Lexicon) -> bool:
    return a == b or lex.related(a, b)


def _same(x: str | None, y: str | None) -> bool:
    return x is None or y is None or x == y


def _v(s: Source) -> Fraction:
    """A pool figure's value (the pool holds only figures with one)."""
    return s.claim.value if s.claim.value is not None else Fraction(0)
