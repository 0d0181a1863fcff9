"""The slot check: prose that names a slot the tool answered (metric, entity and the slot's year)
and gives it another value (``contradicts_fact``), or any value for a slot the tool could not
find (``not_found_slot``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ragspine.evals.audit.claims import Claim
from ragspine.evals.audit.context import Context, Statement
from ragspine.evals.audit.names import Lexicon, SlotNames
from ragspine.evals.audit.periods import period_code
from ragspine.evals.audit.sources import Source
from ragspine.evals.audit.support import same_value
from ragspine.evals.audit.words import unit_of_code


@dataclass(frozen=True)
class Finding:
    number: str
    reason: str  # unsupported | unparsed | wrong_entity | … | contradicts_fact | not_found_slot


_CHANGE = re.compile(r"(关闭|新开|净减少?|净增加?|减少了?|增加了?|net|closed|opened)\s*$", re.I)


def slot_conflicts(
    text: str,
    statements: Sequence[Statement],
    slots: Sequence[Mapping[str, Any]],
    lex: Lexicon,
    stated: Callable[[Mapping[str, Any]], list[Source]],
) -> list[Finding]:
    """Amounts a sentence states for a slot the tool answered otherwise or not at all: a level
    whose context names the slot's entity, period and metric (its channel too, or none where the
    slot is the default channel). Without a stated period the passage may be about another year,
    and the audit cannot tell."""
    names = lex.names
    out: list[Finding] = []
    if names is None or not slots:
        return out
    for st in statements:
        claim, ctx = st.claim, st.ctx
        if claim.value is None or not (ctx.entity and ctx.metric and ctx.period):
            continue
        if ctx.role in ("change", "from") or claim.signed or ctx.modality != "actual":
            continue  # a change (增加45家, +0.9 PCT), an earlier value, a target: not the level
        if _CHANGE.search(text[max(0, st.start - 6) : st.start]):
            continue
        named = [s for s in slots if _names(s, claim, ctx, lex, names)]
        # A sentence naming two found slots (a derived metric and an operand in its formula)
        # states a value either one gives: that is no contradiction of the other.
        if any(
            same_value(claim, s.claim)
            for slot in named
            if slot.get("status") == "found"
            for s in stated(slot)
        ):
            continue
        for slot in named:
            if slot.get("status") == "not_found":
                out.append(Finding(claim.text, "not_found_slot"))
            else:
                out.append(Finding(claim.text, "contradicts_fact"))
    return out


def _names(
    slot: Mapping[str, Any], claim: Claim, ctx: Context, lex: Lexicon, names: SlotNames
) -> bool:
    """Does the claim's context name this slot: its entity, period, metric (or one related by a
    formula), channel, and a level of the slot's kind?"""
    keys = slot if slot.get("status") == "found" else slot.get("normalized", {})
    metric = str(keys.get("metric_code", ""))
    period = period_code(str(keys.get("period_type", "")), str(keys.get("period", "")))
    if ctx.entity != keys.get("entity") or not ctx.period or ctx.period[0] != period:
        return False
    if ctx.metric != metric and not lex.related(ctx.metric or "", metric):
        return False
    if (ctx.channel or names.default_channel) != (keys.get("channel") or names.default_channel):
        return False
    return _same_kind(
        claim, ctx, str(slot.get("unit") or names.metric_units.get(metric, "")), names
    )


def _same_kind(claim: Claim, ctx: Context, unit: str, names: SlotNames) -> bool:
    """Is this number the kind of level the fact states: a rate, an amount, a count?"""
    declared = names.units.get(unit)
    if (declared[0] if declared else unit == "PCT") or unit in names.formulas:
        return claim.kind == "percent"
    if claim.kind != "number":
        return False
    if unit == "COUNT" or names.unit_display.get(unit) == "COUNT" or ctx.unit == "COUNT":
        return (
            ctx.unit == "COUNT"
            and unit_of_code(unit, names.unit_display.get(unit, ""), True) == "COUNT"
        )
    return ctx.unit not in (None, "COUNT") or claim.scale != 1


def may_name_a_slot(line: str, slots: list[Mapping[str, Any]], names: SlotNames) -> bool:
    """A cheap first look: does the line hold a slot's year and one of its metric's words?"""
    low = line.lower()
    for slot in slots:
        keys = slot if slot.get("status") == "found" else slot.get("normalized", {})
        words = names.metrics.get(str(keys.get("metric_code", "")), ())
        if str(keys.get("period", ""))[:4] in line and any(w.lower() in low for w in words):
            return True
    return False
