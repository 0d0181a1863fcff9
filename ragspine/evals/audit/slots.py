"""The slot check: prose that names a slot the tool answered (metric, entity and the slot's year)
and gives it another value (``contradicts_fact``), or any value for a slot the tool could not
find (``not_found_slot``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ragspine.evals.audit.claims import Claim, is_label
from ragspine.evals.audit.names import SlotNames
from ragspine.evals.audit.sources import Source
from ragspine.evals.audit.support import same_value


@dataclass(frozen=True)
class Finding:
    number: str
    reason: str  # unsupported | unparsed | wrong_entity | … | contradicts_fact | not_found_slot


_OTHER_PERIOD = re.compile(r"(由|从|上年的?|去年的?|上一年的?|from|prior year|last year)\s*$", re.I)
_AMOUNT_AFTER = re.compile(r"^\s?(美元|元|港元|人民币|USD|dollars?)", re.I)
_CHANGE = re.compile(r"(关闭|新开|净减少?|净增加?|减少了?|增加了?|net|closed|opened)\s*$", re.I)
_COUNT_AFTER = re.compile(r"^\s?(家|间|个|stores?)", re.I)


def slot_conflicts(
    line: str,
    claims: list[tuple[int, int, Claim]],
    slots: list[Mapping[str, Any]],
    names: SlotNames,
    stated: Callable[[Mapping[str, Any]], list[Source]],
) -> list[Finding]:
    """Amounts a prose sentence states for a slot the tool answered otherwise or not at all."""
    out: list[Finding] = []
    if not slots or not claims:
        return out
    offset = 0
    for sentence in re.split(r"(?<=[。!?;!?;])", line):
        begin, offset = offset, offset + len(sentence)
        mine = [(s - begin, e - begin, c) for s, e, c in claims if begin <= s < offset]
        if not mine:
            continue
        low = sentence.lower()
        for slot in slots:
            keys = slot if slot.get("status") == "found" else slot.get("normalized", {})
            metric, entity, period = (keys.get(k, "") for k in ("metric_code", "entity", "period"))
            named = [
                any(w.lower() in low for w in words.get(code, [code]))
                for code, words in ((metric, names.metrics), (entity, names.entities))
            ]
            # Only a sentence that names the slot's year is read as stating its value: without
            # one, the passage may be about another year, and the audit cannot tell.
            if not all(named) or str(period)[:4] not in sentence:
                continue
            if not _same_channel(low, str(keys.get("channel", "")), names):
                continue
            for start, end, claim in mine:
                if claim.value is None or is_label(sentence, start, end, claim):
                    continue
                if _OTHER_PERIOD.search(sentence[max(0, start - 6) : start]):
                    continue
                near = sentence[max(0, start - 6) : start], sentence[end : end + 4]
                unit = str(keys.get("unit", ""))
                percent = names.units[unit][0] if unit in names.units else unit == "PCT"
                if not _same_kind(claim, *near, "PCT" if percent else unit):
                    continue
                if slot.get("status") == "not_found":
                    out.append(Finding(claim.text, "not_found_slot"))
                elif not any(same_value(claim, s.claim) for s in stated(slot)):
                    out.append(Finding(claim.text, "contradicts_fact"))
    return out


def _same_channel(low: str, channel: str, names: SlotNames) -> bool:
    """A sentence about 线上收入 is not about total revenue, nor the reverse."""
    if channel and channel != names.default_channel:
        return any(w.lower() in low for w in names.channels.get(channel, [channel]))
    others = [w for c, words in names.channels.items() if c != names.default_channel for w in words]
    return not any(w.lower() in low for w in others)


def _same_kind(claim: Claim, before: str, after: str, unit: str) -> bool:
    """Is this number the kind of level the fact states: a rate, an amount, a count?"""
    if claim.direction or claim.signed or _CHANGE.search(before):
        return False  # a change (增加45家, 净关闭45家, +0.9 PCT) is not the level the fact states
    if unit == "PCT":
        return claim.kind == "percent"
    if claim.kind != "number":
        return False
    if unit == "COUNT":
        return bool(_COUNT_AFTER.match(after))
    return bool(_AMOUNT_AFTER.match(after)) or claim.slack > Fraction(1, 2)


def may_name_a_slot(line: str, slots: list[Mapping[str, Any]], names: SlotNames) -> bool:
    """A cheap first look: does the line hold a slot's year and one of its metric's words?"""
    low = line.lower()
    for slot in slots:
        keys = slot if slot.get("status") == "found" else slot.get("normalized", {})
        words = names.metrics.get(str(keys.get("metric_code", "")), ())
        if str(keys.get("period", ""))[:4] in line and any(w.lower() in low for w in words):
            return True
    return False
