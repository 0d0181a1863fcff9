"""One arithmetic step over supported figures: a careful model's computed figure.

A figure no source states is still supported when it equals, within its written precision
(``Quantity.matches``), one arithmetic step over figures the answer's sources state (its found
facts, the passages it was given) or its own sentence states, the step named by the sentence:

* a sum (合计, 总计, combined, in total) or an average (平均, average) of the figures of the
  entities the sentence names (all the found facts' entities when it names none: 两地);
* a difference (A比B高/低X, X higher/lower than): A's figure minus B's, or B's minus A's;
* a ratio (A为B的X倍, A is X times B; A为B的X%): A's figure over B's; B may be A's own prior
  year (为上年的94%);
* a complement to 100% of a share the sources state (线下占73% for 线上占27%);
* a per-unit figure (单店, per store) over a count the sentence states (按540家门店计算);
* a monthly or quarterly average (月均, monthly, 季均) of the year's figure;
* basis points for the points between two percentages of the sentence (由33.1%降至32.4%,
  下降了70个基点);
* a step over two figures of the sentence itself (``sentence_steps.py``): a change verb's
  difference or relative change between a from/to pair, hours between two clock times, a
  per-X ratio of two counts.

A, B are the entities in the order the sentence names them, for the metric and period of the
claim; operands are of the claim's kind (money with money, a rate with a rate). Any other
step (a percentage applied to a base, a rate times a count) is not one of these: wrong
arithmetic, or an unnamed step, stays unsupported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from itertools import product

from ragspine.agent.claims import PER_UNIT, SHARE, Claim
from ragspine.agent.cues import Vocabulary
from ragspine.agent.sentence_steps import in_sentence
from ragspine.agent.support import Statement, compatible, exact
from ragspine.numbers import Quantity
from ragspine.profile.periods import Period, find_periods, previous_period
from ragspine.text import fold

_SUM = re.compile(
    r"合计|总计|共计|总和|加总|(?<![a-z])(?:combined|in\s+total|together|sum)(?![a-z])"
)
_AVERAGE = re.compile(r"(?<![月季年日周])平均|均值|(?<![a-z])(?:average|mean)(?![a-z])")
_MONTHLY = re.compile(
    r"月均|每月平均|平均每月|(?<![a-z])(?:monthly|a\s+month|per\s+month)(?![a-z])"
)
_QUARTERLY = re.compile(r"季均|每季平均|平均每季|(?<![a-z])(?:quarterly|per\s+quarter)(?![a-z])")
_HIGHER = re.compile(r"比.{1,12}?(?:高|多|大)|(?<![a-z])(?:higher|more|larger|above)\s+than")
_LOWER = re.compile(r"比.{1,12}?(?:低|少|小)|(?<![a-z])(?:lower|less|smaller|below)\s+than")
_TIMES_AFTER = re.compile(r"\s?(?:倍|times)")
_OF_BEFORE = re.compile(r"的\s*(?:约|大约)?\s*$|(?<![a-z])of\s*$")
_PRIOR = re.compile(r"上年|去年|上一年|前一年|(?<![a-z])(?:prior|previous|last)\s+year")
_BASIS_POINTS = re.compile(r"\s?(?:个)?基点|\s?(?:bps?|basis\s+points?)(?![a-z])")
_HUNDRED = Decimal(100)


@dataclass(frozen=True)
class Step:
    """The sentence a computed figure stands in, and the figures it may be computed from."""

    text: str
    vocab: Vocabulary
    ref: date
    claims: Sequence[Claim]
    pool: Sequence[Statement]


def computed(step: Step, i: int) -> bool:
    """Is claim ``i`` one named arithmetic step over supported figures (see above)?"""
    claim = step.claims[i]
    q, text = claim.quantity, step.text.lower()
    if in_sentence(step.text, step.claims, i):
        return True
    if _BASIS_POINTS.match(text, q.end):
        return _basis_points(step, q)
    if q.kind == "percent" and claim.context.modifier == SHARE and _complement(step, claim):
        return True
    before = text[: q.start]
    ratio = (
        q.kind == "multiple"
        or _TIMES_AFTER.match(text, q.end)
        or (q.kind == "percent" and _OF_BEFORE.search(before))
    )
    single = claim.context.modifier == PER_UNIT or claim.context.per in ("month", "quarter")
    kinds = ("number", "percent") if ratio else ("number",) if single else (q.kind,)
    values = _operands(step, claim, kinds)
    if not values:
        return False
    if claim.context.modifier == PER_UNIT:
        counts = [c.quantity.value for c in step.claims if c.context.currency == "COUNT"]
        return any(_hit(q, a.value / n) for a in values[0] for n in counts if n)
    if _MONTHLY.search(text) or claim.context.per == "month":
        return any(_hit(q, a.value / 12) for a in values[0])
    if _QUARTERLY.search(text) or claim.context.per == "quarter":
        return any(_hit(q, a.value / 4) for a in values[0])
    if len(values) < 2:
        return False
    combos = [c for c in product(*values) if len({v.kind for v in c}) == 1]
    sums = [(c, sum((v.value for v in c), Decimal(0))) for c in combos]
    if ratio:
        scale = _HUNDRED if q.kind == "percent" else Decimal(1)
        return any(_hit(q, c[0].value / c[1].value * scale) for c in combos if c[1].value)
    if _SUM.search(text):
        return any(_hit(q, total) for _, total in sums)
    if _AVERAGE.search(text):
        return any(_hit(q, total / len(c)) for c, total in sums)
    if _LOWER.search(before):
        return any(_hit(q, c[1].value - c[0].value) for c in combos)
    if _HIGHER.search(before):
        return any(_hit(q, c[0].value - c[1].value) for c in combos)
    return False


def _hit(q: Quantity, value: Decimal) -> bool:
    return q.matches(exact(value, q.kind))


def _basis_points(step: Step, q: Quantity) -> bool:
    """Basis points: a hundred per point between two percentages (or of points) stated in
    the sentence."""
    rates = [c.quantity for c in step.claims if c.quantity.kind in ("percent", "points")]
    gaps = [abs(a.value - b.value) for a in rates for b in rates if a.kind == b.kind == "percent"]
    gaps += [abs(r.value) for r in rates if r.kind == "points"]
    return any(q.matches(exact(g * _HUNDRED, "number")) for g in gaps)


def _complement(step: Step, claim: Claim) -> bool:
    """100% less a share of the same whole the sources (or the sentence) state."""
    for s in step.pool:
        c = s.context
        if s.quantity.kind != "percent" or c.modifier != SHARE or c.metric != claim.context.metric:
            continue
        if claim.context.entity not in (None, c.entity) and c.entity is not None:
            continue
        if _hit(claim.quantity, _HUNDRED - s.quantity.value):
            return True
    return False


def _operands(step: Step, claim: Claim, kinds: tuple[str, ...]) -> list[list[Quantity]]:
    """The values of the claim's metric for each entity the sentence names, in its order (for
    one entity and a prior year: this year's, then the prior year's), in the claim's kind."""
    metric = claim.context.metric
    if metric is None:
        return []
    view = fold(step.text)
    named = [m.period for m in find_periods(view, step.ref) if m.period is not None]
    period = named[0] if named else None
    entities = list(
        dict.fromkeys(code for kind, code, *_ in _names(step.vocab, view) if kind == "entities")
    )
    slots: list[tuple[str | None, Period | None]] = [(e, period) for e in entities]
    if len(entities) <= 1 and period is not None and _PRIOR.search(view):
        one = entities[0] if entities else claim.context.entity
        slots = [(one, period), (one, previous_period(period))]
    elif not entities:
        found = [s.context.entity for s in step.pool if s.sentence is None and not s.computed]
        slots = [(e, period) for e in dict.fromkeys(found) if e is not None]
        if len(slots) < 2:
            slots = [(claim.context.entity, period)]
    out = []
    for entity, when in slots:
        values = _values(step.pool, claim, kinds, entity, when)
        if not values:
            return []
        out.append(values)
    return out


def _values(
    pool: Iterable[Statement],
    claim: Claim,
    kinds: tuple[str, ...],
    entity: str | None,
    when: Period | None,
) -> list[Quantity]:
    """The figures the sources state for the claim's metric, this entity and period: levels
    for a per-unit figure (never a count), else of the claim's modifier."""
    mine = claim.context
    per_unit = mine.modifier == PER_UNIT
    out: list[Quantity] = []
    for s in pool:
        c = s.context
        if s.computed or s.quantity.kind not in kinds or c.metric != mine.metric:
            continue
        if c.entity != entity or (when is not None and c.period != when):
            continue
        if per_unit and c.currency == "COUNT":
            continue
        if not per_unit and not compatible(mine.modifier, c.modifier):
            continue
        if mine.currency and c.currency and mine.currency != c.currency:
            continue
        if all(s.quantity.value != v.value for v in out):
            out.append(s.quantity)
    return out


def _names(vocab: Vocabulary, view: str) -> list[tuple[str, str]]:
    """(kind, code) of every known word in the folded text, in order."""
    out = []
    for kind, m in vocab.glossary.scan(view):
        kind = "entities" if kind == "external" else kind
        out.append((kind, m.code))
    return out
