"""The context reader: every number a text shows is a claim with what it is a number of.

One reader for both sides of the guard: the model's prose (claims) and a cited passage (what
a source states), so that the two are read alike. For each value ``read_numbers`` finds:

* entity: the nearest profile entity (or the home company; a company the profile names as
  external is another entity) before it in its sentence, else the first after it in its clause
  ("27% of group revenue": the whole after "of"); none when the nearest is one of a list
  ("香港和东南亚收入分别增长…": which figure is whose, the reader cannot tell);
* period: the nearest period expression before it in its sentence, else the first after it in
  its clause; 上年/去年/prior year is the period before the statement's own (the sentence's
  first named period, else its frame's); a comparison base (上年的X, 较2022年的X) is the period
  of the one value after it in its clause, and of no change ("较上年增长11%" is this year's);
  the FROM value of "由410增至455" is the period before the one the sentence names; a target's
  period is its "到2030年 / by 2030"; an opening period ("at the start of 2024", 年初) is the one
  before (all read from ``period_marks``);
* metric and modifier: the nearest metric phrase before it (the glossary matches whole names,
  longest first, so 同店销售增长 is SSSG, not 销售; a line item the profile knows without facts
  is another metric), with level | growth | share | margin | per_unit from the words between
  them (增长, 占, 单店, …) or the metric's own nature (毛利率 is a margin, 同店销售增长 a growth);
* channel: a channel word in its clause; currency or unit: the word right after it (美元, 港元,
  元, 家, stores) or before it (USD, HK$); modality: target/forecast words in its clause before
  it (目标, 计划, 预计, target, expect, by 2030), else actual; direction: a rise or fall word
  right before it (下降约5.7%, fell by 3%; never one inside a metric's name), or the verb of its
  from-to pair ("由410增至455", "from 410 to 455", "rose to 455 from 410") with its role in it.

What the sentence does not say comes from its ``Frame`` (a passage's heading path and
document, a table's row and column, a heading in the answer), else stays unknown: unknown never
contradicts. Text is read folded (``fold_numbers``); the glossary's view is ``fold``ed too.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, replace
from datetime import date
from typing import NamedTuple

from ragspine.agent.cues import (
    CHANGE,
    CHANGE_AFTER,
    CHANGE_BEFORE_NAME,
    CLAUSE_END,
    CURRENCY_AFTER,
    CURRENCY_BEFORE,
    DIRECTION,
    FILLER,
    FORECAST_WORDS,
    FROM_MARK,
    JOINED,
    LANGUAGE_SWITCH,
    OF_WHOLE,
    PER_UNIT_WORDS,
    SENTENCE_END,
    SHARE_WORDS,
    TARGET_WORDS,
    TO_BEFORE,
    TO_MARK,
    Vocabulary,
    currency_word,
)
from ragspine.agent.frames import NO_FRAME, Frame
from ragspine.agent.labels import counts_a_list, label_of, range_ends, respectively
from ragspine.agent.period_marks import PeriodMarks, earlier_entity
from ragspine.agent.qualifiers import bound_of, flow_of, per_of, scope_of
from ragspine.numbers import Quantity, read_numbers
from ragspine.profile.periods import Period
from ragspine.text import fold, fold_with_index

ACTUAL, TARGET, FORECAST = "actual", "target", "forecast"
LEVEL, GROWTH, SHARE, MARGIN, PER_UNIT = "level", "growth", "share", "margin", "per_unit"


@dataclass(frozen=True)
class Context:
    entity: str | None = None
    period: Period | None = None
    metric: str | None = None  # the base metric: REVENUE for 收入增长率 too
    modifier: str | None = None
    channel: str | None = None
    currency: str | None = None  # USD, HKD, CNY, TWD, or COUNT for 家/stores
    modality: str = ACTUAL
    direction: int = 0  # +1 up, -1 down
    role: str | None = None  # "from" or "to" in a from-to pair
    earlier: bool = False  # 上年, or a FROM value: before the statement's own period
    bound: str | None = None  # 超过, 近, 不到, 不超过, 至少 (see ``qualifiers``)
    span: str | None = None  # "low" or "high": an end of a range (6至8家)
    flow: str | None = None  # "net" or "gross"
    scope: str | None = None  # "each" or "total"
    base: Period | None = None  # what a change is measured against (与2022年相比)
    per: str | None = None  # a rate's time base: year, month, week, day, quarter


@dataclass(frozen=True)
class Claim:
    quantity: Quantity
    context: Context
    label: frozenset[str] = frozenset()  # the words naming it (see ``labels``)
    sentence: int = 0  # where its sentence starts


# -- the reader ---------------------------------------------------------------------------------


def read_claims(text: str, vocab: Vocabulary, ref: date, frame: Frame = NO_FRAME) -> list[Claim]:
    """Every value ``text`` (folded by ``fold_numbers``) shows, each with its context."""
    return Claims(text, vocab, ref, frame).read()


class Claims:
    """A text's values at once, their contexts when first asked for: a number no source
    states at all fails on its value, and most of a hostile text's do."""

    def __init__(self, text: str, vocab: Vocabulary, ref: date, frame: Frame = NO_FRAME) -> None:
        self.text, self.vocab, self.ref, self.frame = text, vocab, ref, frame
        found = read_numbers(text)
        self.quantities = [q for q in found if q.role == "value" and not counts_a_list(text, q)]
        self._claims: list[Claim] | None = None

    def read(self) -> list[Claim]:
        if self._claims is None:
            reading = _Reading(self.text, self.vocab, self.ref, self.frame)
            self._claims = reading.claims(self.quantities) if self.quantities else []
        return self._claims


class _Reading:
    """One text's names, periods and boundaries, found once for all its numbers."""

    def __init__(self, text: str, vocab: Vocabulary, ref: date, frame: Frame) -> None:
        view = fold(text)
        self.to_view: list[int] | None = None
        if len(view) != len(text):
            view, index = fold_with_index(text)
            self.to_view = [len(view)] * (len(text) + 1)
            for v in range(len(view) - 1, -1, -1):
                self.to_view[index[v]] = v
        self.view, self.vocab, self.ref, self.frame = view, vocab, ref, frame
        glossary = vocab.glossary.scan
        self.names = [(_kind(k), _code(k, m.code), m.start, m.end) for k, m in glossary(view)]
        self.metric_spans = [(s, e) for k, _, s, e in self.names if k == "metrics"]
        self.at = (lambda i: i) if self.to_view is None else self.to_view.__getitem__
        switched = [self.at(m.end()) for m in LANGUAGE_SWITCH.finditer(text)]  # …,For 2025
        self.sentences = sorted({0, *(m.end() for m in SENTENCE_END.finditer(view)), *switched})
        self.clauses = [0] + [m.end() for m in CLAUSE_END.finditer(view)]

    def claims(self, quantities: list[Quantity]) -> list[Claim]:
        spans = [(self.at(q.start), self.at(q.end)) for q in quantities]
        self.spans = spans
        self.marks = PeriodMarks(self.view, self.ref, spans, self.clauses, self.frame.period)
        pairs = self._pairs(spans)
        ends = range_ends(self.view, spans, self.clauses, set(pairs))
        listed = respectively(self.view, spans, self.sentences)
        out: list[Claim] = []
        for i, (q, (start, end)) in enumerate(zip(quantities, spans, strict=True)):
            previous = spans[i - 1][1] if i else 0
            context = self._context(q, start, end, previous, pairs.get(i))
            if i in listed:  # 新开和关闭的门店分别为20家和35家: each its own word
                way = listed[i]
                context = replace(context, modifier=GROWTH, direction=way, flow=None)
            elif i and i not in pairs and self._joined(previous, start):
                last = out[-1].context  # 分别增长11%和16%: the second is a growth too
                context = replace(context, modifier=last.modifier, direction=last.direction)
            if ends.get(i) == "high":  # 新开6至8家: the high end is what the low end is
                last = out[-1].context
                context = replace(
                    context, modifier=last.modifier, direction=last.direction, flow=last.flow
                )
            context = replace(context, span=ends.get(i))
            s0, _ = self._bounds(self.sentences, start)
            left = max(self._bounds(self.clauses, start)[0], previous)
            out.append(Claim(q, context, label_of(self.view, left, start), s0))
        return out

    # -- the text as a whole ---------------------------------------------------------------------

    def _bounds(self, cuts: list[int], start: int) -> tuple[int, int]:
        i = bisect_right(cuts, start) - 1
        return cuts[i], cuts[i + 1] if i + 1 < len(cuts) else len(self.view)

    def _pairs(self, spans: list[tuple[int, int]]) -> dict[int, _Pair]:
        """The two values of a from-to pair in one clause: 由410增至455, from 410 to 455, rose
        to 455 from 410."""
        view, out = self.view, {}
        for i in range(len(spans) - 1):
            (s1, e1), (s2, _) = spans[i], spans[i + 1]
            c0, c1 = self._bounds(self.clauses, s1)
            if s2 >= c1 or s2 - e1 > 30:
                continue
            before, between = view[max(c0, s1 - 14) : s1], view[e1:s2]
            marks = list(FROM_MARK.finditer(before))
            if marks and (TO_MARK.search(between) or _BECAME.search(between)):
                start = s1 - len(before) + marks[-1].start()
                way = self._direction(c0, s2)
                out[i], out[i + 1] = _Pair("from", way, start, e1), _Pair("to", way, start, e1)
            elif TO_BEFORE.search(before) and FROM_MARK.search(between):
                way = self._direction(c0, s1)
                out[i], out[i + 1] = _Pair("to", way, s1, s1), _Pair("from", way, s1, s1)
        return out

    def _direction(self, start: int, end: int, *, near: bool = False) -> int:
        """The last rise or fall word in [start, end), never one inside a metric's name;
        ``near``: only one right before ``end`` (下降约5.7%, fell by 3%, 降至1320), not one
        that governs other words ("reduce Scope 1 and 2 emissions")."""
        way, last = 0, None
        for m in DIRECTION.finditer(self.view, start, end):
            if not any(s <= m.start() < e for s, e in self.metric_spans):
                way, last = (-1 if m.group("down") else 1), m
        if near and last is not None and not FILLER.fullmatch(self.view, last.end(), end):
            return 0
        return way

    # -- one value -------------------------------------------------------------------------------

    def _context(
        self, q: Quantity, start: int, end: int, previous: int, pair: _Pair | None
    ) -> Context:
        s0, _ = self._bounds(self.sentences, start)
        c0, c1 = self._bounds(self.clauses, start)
        frame = self.frame
        way = pair.direction if pair else self._direction(max(c0, previous), start, near=True)
        entity = self._name("entities", s0, start, end, c1)
        if q.kind == "percent" and entity is None:
            whole = OF_WHOLE.match(self.view, end)
            if whole:  # 27% of group revenue: the whole comes after
                entity = self._first("entities", whole.end(), whole.end() + 1)
        code = self._name("metrics", s0, start, end, min(c1, end + 8))
        metric, modifier, changed = self._metric(q, code, max(c0, previous), start, end, pair)
        modality = self._modality(c0, start, s0)
        channel = self._channel(c0, c1, start)
        if channel is None and frame.source and (metric or frame.metric) is not None:
            channel = self.vocab.default_channel  # a source's unqualified figure: the total
        period, earlier = self.marks.period(
            s0,
            (c0, c1),
            (start, end),
            target=modality != ACTUAL,
            changed=changed,
            pair=(pair.role, pair.start, pair.from_end) if pair else None,
        )
        if frame.source and entity is None:
            entity = earlier_entity(self.names, s0)
        left = max(c0, previous)
        return Context(
            entity=entity or frame.entity,
            period=period,
            metric=metric or frame.metric,
            modifier=modifier,
            channel=channel,
            currency=self._currency(start, end) or (frame.currency if q.kind == "number" else None),
            modality=modality,
            direction=way,
            role=pair.role if pair else None,
            earlier=earlier,
            bound=bound_of(self.view, left, start, end),
            flow=flow_of(self.view, left, start),
            scope=scope_of(self.view, c0, start),
            per=per_of(self.view, c0, start, end),
            base=self.marks.base(s0, start) if changed and pair is None else None,
        )

    def _name(self, kind: str, s0: int, start: int, end: int, after_until: int) -> str | None:
        """The nearest name of this kind before the value in its sentence, else the first
        after it before ``after_until``; none for one of a list ("香港和东南亚收入分别增长…":
        which is whose, the reader cannot tell)."""
        found = [(s, e, code) for k, code, s, e in self.names if k == kind and s0 <= s]
        before = [n for n in found if n[1] <= start]
        if not before:
            return self._first(kind, end, after_until)
        if len(before) > 1 and self._joined(before[-2][1], before[-1][0]):
            return None
        return before[-1][2]

    def _joined(self, end: int, start: int) -> bool:
        """Two names one after the other, joined by 和, 与, 、, and …"""
        return JOINED.fullmatch(self.view, end, start) is not None

    def _first(self, kind: str, start: int, until: int) -> str | None:
        for k, code, s, _ in self.names:
            if k == kind and start <= s < until:
                return code
        return None

    def _metric(
        self, q: Quantity, code: str | None, left: int, start: int, end: int, pair: _Pair | None
    ) -> tuple[str | None, str | None, bool]:
        """The base metric, the modifier (share, per-unit, growth, else the metric's own), and
        whether the words make the value a change (增长11%, 净减少20家)."""
        base, own = self.vocab.shapes.get(code or "", (code, None))
        view = self.view
        c0 = self._bounds(self.clauses, start)[0]
        if q.kind == "percent" and (
            SHARE_WORDS.search(view, c0, start) or OF_WHOLE.match(view, end)
        ):
            return base, SHARE, False
        named = left  # where the metric's name starts: 新开门店数 is a change, not a count
        for s, e in self.metric_spans:  # the words between the metric and the value
            if left <= s and e <= start:
                named, left = s, e
        gap = view[left:start]
        worded = CHANGE.search(gap) or CHANGE_BEFORE_NAME.search(view, max(c0, named - 4), named)
        changed = pair is None and not TO_BEFORE.search(gap) and worded is not None
        if changed or CHANGE_AFTER.match(view, end):
            return base, GROWTH, True  # a change of a per-unit figure is a change too
        if PER_UNIT_WORDS.search(view, c0, start):
            return base, PER_UNIT, False
        if code is None:
            return None, None, False
        return base, own or LEVEL, False

    def _channel(self, c0: int, c1: int, start: int) -> str | None:
        found = [
            (abs(s - start), code)
            for k, code, s, _ in self.names
            if k == "channels" and c0 <= s < c1
        ]
        return min(found)[1] if found else self.frame.channel

    def _modality(self, c0: int, start: int, s0: int) -> str:
        """Target or forecast words in the value's clause, or in a leading clause of its
        sentence that holds no value of its own (按2025年目标,…分别约为20家和35家)."""
        lead = c0
        if not any(s0 <= s < c0 for s, _ in self.spans):
            lead = s0
        if TARGET_WORDS.search(self.view, lead, start):
            return TARGET
        if FORECAST_WORDS.search(self.view, lead, start):
            return FORECAST
        return ACTUAL

    def _currency(self, start: int, end: int) -> str | None:
        after = CURRENCY_AFTER.match(self.view, end)
        if after:
            return currency_word(after.group(1))
        before = CURRENCY_BEFORE.search(self.view, max(0, start - 4), start)
        return currency_word(before.group(1)) if before else None


# The TO of a from-to pair written as what the FROM became: 由14个整合为9个, 由3家合并为1家.
_BECAME = re.compile(r"(?:整合|合并|调整|缩减|精简|压缩|减少|增加|扩大|提升|提高|降低|变)为|变成")


class _Pair(NamedTuple):
    role: str  # "from" or "to"
    direction: int
    start: int  # where the pair starts (由 / from)
    from_end: int  # where its FROM value ends


def _kind(kind: str) -> str:
    """A company the profile names as external is another entity; a line item it knows but
    has no facts for (递延所得税负债) another metric."""
    return {"external": "entities", "unsupported": "metrics"}.get(kind, kind)


def _code(kind: str, code: str) -> str:
    return f"~{code}" if kind in ("external", "unsupported") else code  # never a profile code
