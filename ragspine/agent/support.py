"""What a claim may rely on, and when a source statement supports it.

Source statements, each a quantity with its context, read by the same reader as the claims:

* a found fact (and a derived metric's operands): its slots are its context (metric, entity,
  period, channel; its unit gives the currency or count; modality actual), as written (1320
  USD_M) and at scale (1,320,000,000);
* a value computed from two found facts of one series, the later minus the earlier: the
  difference and the growth rate carry that series' context, the growth modifier and the later
  period;
* a cited passage: each number in it with its own sentence's context, and the passage's frame
  (heading path, then document) where its sentence is silent.

The rule: a claim is supported by a statement with the same kind, the same value within the
claim's precision (``Quantity.matches``; a change written with a fall word is a negative
change, so "下降5.7%" is -5.7), and, for every context dimension (entity, period, metric and
modifier, channel, currency, modality, direction and from/to role), the same value or an
unknown on either side. Unknown never contradicts; stated and different always does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from functools import lru_cache
from itertools import combinations

from ragspine.agent.claims import (
    ACTUAL,
    GROWTH,
    LEVEL,
    Claim,
    Context,
    read_claims,
)
from ragspine.agent.cues import Vocabulary
from ragspine.agent.frames import passage_frame
from ragspine.agent.qualifiers import MISQUALIFIED, misqualified
from ragspine.agent.query_tools import FoundResult, ToolResult
from ragspine.agent.units import duration_factor, is_discount, scaled
from ragspine.numbers import Kind, Quantity, fold_numbers
from ragspine.profile import DomainProfile
from ragspine.profile.periods import Period
from ragspine.retrieval.base import NarrativeHit

UNSUPPORTED = "unsupported"
WRONG_ENTITY, WRONG_PERIOD, WRONG_METRIC = "wrong_entity", "wrong_period", "wrong_metric"
WRONG_CHANNEL, WRONG_CURRENCY = "wrong_channel", "wrong_currency"
REVERSED, TARGET_AS_RESULT = "reversed", "target_as_result"

_EXACT = Decimal("0.0000005")
_SHARE_OF_SOURCE = Decimal("0.05")
_SCALES = {"_K": Decimal(10**3), "_M": Decimal(10**6), "_B": Decimal(10**9), "_BN": Decimal(10**9)}
_RATIOS = {"share", "margin"}  # a margin is a share of revenue: the two may name one figure


@dataclass(frozen=True)
class Statement:
    """A number a source states, with its context; ``computed`` for a change worked out from
    two facts, whose sign is the arithmetic's (a sentence without a direction word may give
    its size)."""

    quantity: Quantity
    context: Context
    computed: bool = False
    label: frozenset[str] = frozenset()  # the words naming it in its sentence
    sentence: tuple[int, int] | None = None  # its passage and sentence, for ``crossed``


def verdict(claim: Claim, sources: Iterable[Statement]) -> str | None:
    """None when some source supports the claim; else why not: ``unsupported`` when none
    states its value, else the dimension in which the ones that do differ."""
    return judged(claim, sources)[0]


def backing(claim: Claim, sources: Iterable[Statement]) -> Statement | None:
    """The first source that supports the claim, whose context may say what the claim's
    leaves unsaid (the period of "由380百万美元增至410百万美元" quoted from the FY2023 review)."""
    return judged(claim, sources)[1]


def judged(claim: Claim, sources: Iterable[Statement]) -> tuple[str | None, Statement | None]:
    found = supporters(claim, sources, first=True)
    return (None, found[0]) if isinstance(found, list) else (found, None)


def supporters(
    claim: Claim, sources: Iterable[Statement], *, first: bool = False
) -> list[Statement] | str:
    """Every source that supports the claim (the first only, with ``first``); when none
    does, why not: ``unsupported`` when none states its value, else the dimension in which the
    ones that do differ."""
    reason, out = UNSUPPORTED, []
    for source in sources:
        context, quantity = claim.context, claim.quantity
        factor = duration_factor(context.currency, source.context.currency)
        if factor is not None:  # 3年 against 36个月: the claim in the source's unit
            quantity = scaled(quantity, factor)
            context = replace(context, currency=source.context.currency)
        signed = _signed(quantity, context)
        theirs = _signed(source.quantity, source.context)
        # "变化11%" may give the size of a computed change without its sign
        loose = source.computed and context.direction == 0
        if signed.matches(theirs) or (loose and signed.matches(_negated(theirs))):
            why = differs(context, source.context)
            if why is None and misqualified(
                signed, _qualifiers(context), theirs, _qualifiers(source.context)
            ):
                why = MISQUALIFIED
            if why is None:
                out.append(source)
                if first:
                    return out
                continue
            if reason in (UNSUPPORTED, REVERSED):
                reason = why
        elif reason == UNSUPPORTED and _negated(signed).matches(theirs):
            reason = REVERSED  # 下降11% against 增长11%
    return out or reason


def _qualifiers(context: Context) -> dict[str, str | None]:
    return {
        "bound": context.bound,
        "span": context.span,
        "flow": context.flow,
        "scope": context.scope,
    }


def close(claim: Quantity, source: Quantity) -> bool:
    """Does the source state this value, whatever its sign? (The first, cheap look: the rule
    of ``Quantity.matches`` on sizes.)"""
    if claim.kind != source.kind:
        return False
    if claim.spread or source.spread:
        return abs(abs(claim.value) - abs(source.value)) <= max(claim.precision, source.precision)
    size = abs(source.value)
    allowed = min(claim.precision, size * _SHARE_OF_SOURCE) + source.precision / 1000
    return abs(abs(claim.value) - size) <= allowed


def differs(claim: Context, source: Context) -> str | None:
    """The first dimension stated on both sides with different values, else None."""
    if _both(claim.entity, source.entity):
        return WRONG_ENTITY
    if _both(claim.period, source.period) or _both(claim.base, source.base):
        return WRONG_PERIOD
    if _both(claim.metric, source.metric) or not compatible(claim.modifier, source.modifier):
        return WRONG_METRIC
    if _both(claim.channel, source.channel):
        return WRONG_CHANNEL
    if _both(claim.currency, source.currency) or _both(claim.per, source.per):
        return WRONG_CURRENCY  # a rate's time base is part of its unit
    if (claim.modality == ACTUAL) != (source.modality == ACTUAL):
        return TARGET_AS_RESULT
    if _both(claim.direction or None, source.direction or None):
        return REVERSED
    if _both(claim.role, source.role):
        return REVERSED
    return None


def compatible(mine: str | None, theirs: str | None) -> bool:
    if mine is None or theirs is None or mine == theirs:
        return True
    return mine in _RATIOS and theirs in _RATIOS


def _both(mine: object, theirs: object) -> bool:
    return mine is not None and theirs is not None and mine != theirs


def _signed(q: Quantity, context: Context) -> Quantity:
    """A change written with a fall word is a negative change: 下降5.7% is -5.7."""
    fall = context.direction < 0 and context.modifier == GROWTH and context.role is None
    return _negated(q) if fall and q.value > 0 else q


def _negated(q: Quantity) -> Quantity:
    return replace(q, value=-q.value)


# -- the sources ----------------------------------------------------------------------------------


def passage_statements(hit: NarrativeHit, vocab: Vocabulary, ref: date) -> tuple[Statement, ...]:
    """What a passage states, read once per passage (and reference date)."""
    return _passage_statements(hit.text, hit.title, vocab, ref)


@lru_cache(maxsize=4096)
def _passage_statements(
    text: str, title: str, vocab: Vocabulary, ref: date
) -> tuple[Statement, ...]:
    frame = passage_frame(title, vocab, ref)
    claims = read_claims(fold_numbers(text), vocab, ref, frame)
    key = hash(text)
    out = []
    for c in claims:
        context = replace(c.context, modifier=LEVEL) if is_discount(c.quantity) else c.context
        out.append(Statement(c.quantity, context, False, c.label, (key, c.sentence)))
        if is_discount(c.quantity):  # 八折: a price at 80%, and a cut of 20%
            cut = replace(c.quantity, value=Decimal(100) - c.quantity.value)
            context = replace(c.context, modifier=GROWTH, direction=-1)
            out.append(Statement(cut, context, computed=True, label=c.label))
    return tuple(out)


def fact_statements(vocab: Vocabulary, facts: Sequence[ToolResult]) -> list[Statement]:
    """The answer's found facts (a derived metric's operands too), and what two of one series
    give: the difference and the growth rate, the later against the earlier."""
    found = [o for f in facts if f["status"] == "found" for o in [f, *(f.get("operands") or [])]]
    out = [s for f in found for s in _fact(vocab, f)]
    for a, b in combinations(found, 2):
        if _series(a) != _series(b) or a["period_type"] != b["period_type"]:
            continue
        early, late = sorted((a, b), key=lambda f: Period(f["period_type"], f["period"]).sort_key)
        if early["period"] == late["period"]:
            continue
        context = replace(_context(vocab, late), modifier=GROWTH)
        va, vb = Decimal(str(early["value"])), Decimal(str(late["value"]))
        scale = unit_scale(vocab.profile, late["unit"])
        kind: Kind = "points" if unit_kind(vocab.profile, late["unit"]) == "percent" else "number"
        out += [
            Statement(exact(vb - va, kind), context, computed=True),
            Statement(exact((vb - va) * scale, kind, scale), context, computed=True),
        ]
        if va:
            rate = replace(context, currency=None)
            out.append(Statement(exact((vb - va) / va * 100, "percent"), rate, computed=True))
    return out


def _series(f: FoundResult) -> tuple[str, str, str, str]:
    return (f["metric_code"], f["entity"], f["channel"], f["unit"])


def _context(vocab: Vocabulary, fact: FoundResult) -> Context:
    base, own = vocab.shapes.get(fact["metric_code"], (fact["metric_code"], LEVEL))
    return Context(
        entity=fact["entity"],
        period=Period(fact["period_type"], fact["period"]),
        metric=base,
        modifier=own,
        channel=fact["channel"],
        currency=vocab.currency_of_unit(fact["unit"]),
    )


def _fact(vocab: Vocabulary, fact: FoundResult) -> list[Statement]:
    context = _context(vocab, fact)
    return [Statement(q, context) for q in fact_quantities(vocab.profile, fact)]


def fact_quantities(prof: DomainProfile, fact: FoundResult) -> list[Quantity]:
    """A found fact as written (1320 USD_M) and at scale (1,320,000,000)."""
    value = Decimal(str(fact["value"]))
    kind: Kind = "percent" if unit_kind(prof, fact["unit"]) == "percent" else "number"
    scale = unit_scale(prof, fact["unit"])
    return [exact(value, kind), exact(value * scale, kind, scale)]


def exact(value: Decimal, kind: Kind, scale: Decimal = Decimal(1)) -> Quantity:
    return Quantity(value, kind, _EXACT * scale, 0, 0, "")


def unit_kind(prof: DomainProfile, unit: str) -> str:
    """percent, count, ratio or amount: as the profile declares the unit (PCT and COUNT, the
    demo's codes, read as their names say when undeclared)."""
    declared = prof.unit(unit)
    if declared.kind != "amount" or any(u.code == unit for u in prof.units):
        return declared.kind
    return "count" if unit == "COUNT" else "amount"


def unit_scale(prof: DomainProfile, unit: str) -> Decimal:
    """What one of the unit is worth in base units: declared (万元 = 10000), else by the code's
    ending (USD_M = 1000000)."""
    if any(u.code == unit for u in prof.units):
        return Decimal(str(prof.unit(unit).scale))
    return next((v for k, v in _SCALES.items() if unit.upper().endswith(k)), Decimal(1))


# -- a sentence quoted word for word ----------------------------------------------------------


def quoted(body: str, cited: Sequence[NarrativeHit]) -> bool:
    """Does ``body`` stand word for word in a passage it cites (see ``_quoted``)?"""
    return any(_quoted(body, passage_text(h.text)) for h in cited)


def _quoted(body: str, passage: str) -> bool:
    """``body`` stands in the passage with nothing around it that would change a number in it:
    not "为12" out of "为120百万", "增长11" out of "增长11%", "was 2" out of "was 2 billion"."""
    start = passage.find(body)
    while start != -1:
        end = start + len(body)
        left, right = passage[max(0, start - 1) : start], passage[end:]
        cut_word = (left.isascii() and left.isalpha() and body[0].isalpha()) or (
            right[:1].isascii() and right[:1].isalpha() and body[-1].isalpha()
        )
        if not (_GLUED_BEFORE.match(left) or _GLUED_AFTER.match(right) or cut_word):
            return True
        start = passage.find(body, start + 1)
    return False


_GLUED_BEFORE = re.compile(r"[\d.,+\-零〇一二两三四五六七八九十百千万亿负]")
_GLUED_AFTER = re.compile(
    r"\s?(?:[\d.,%‰零〇一二两三四五六七八九十百千万亿个倍成]|billion|million|thousand|bn|mn"
    r"|percent|per cent|pp|bps|basis point|times)",
    re.I,
)


@lru_cache(maxsize=4096)
def quote_claims(sentence: str, vocab: Vocabulary, ref: date) -> list[Claim]:
    """A quoted sentence's claims: a passage's own words, read once however often quoted."""
    return read_claims(sentence, vocab, ref)


@lru_cache(maxsize=4096)
def passage_text(text: str) -> str:
    """A passage as the model saw it (one line) and as the guard reads it (folded)."""
    return " ".join(fold_numbers(text).split())
