"""Passages held to the period a question asks about, by their documents' periods.

A report speaks of its own period: the 2020 annual report's passages are about FY2020, whatever
a question about FY2021 finds in them. Where a question names periods and some passage found is
from a document of one of them, passages of documents of other periods are set aside (documents
with no stated period stay: nothing says what period they speak of). Where no passage found is
from a document of an asked period, the passages stay and the answer says so first, in the
question's language: the periods the documents retrieved cover, that none covers the one asked,
and that what they say is about their periods. An asked period no document covers, beside one
that is covered, is named too.

A question whose period the reader assumed (a quarter without a year) is not held to it: the
user did not name it. A why-question about a figure (the composite route) keeps the passages of
the period before each one asked too (a change is measured against it), and says nothing of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.agent.slots import ParsedIntent
from ragspine.profile.periods import Period, previous_period
from ragspine.retrieval.base import NarrativeHit
from ragspine.retrieval.doc_periods import as_period, overlaps

OTHER_PERIOD_ZH = (
    "检索到的文档涵盖 {covered},没有涵盖 {asked} 的文档;以下内容出自这些文档,并非 {asked} 的情况:"
)
OTHER_PERIOD_EN = (
    "The documents retrieved cover {covered}, and none covers {asked}; what follows is from "
    "those documents, not about {asked}:"
)
PART_COVERED_ZH = "检索到的文档涵盖 {covered},没有涵盖 {asked} 的文档。"
PART_COVERED_EN = "The documents retrieved cover {covered}; none covers {asked}."


@dataclass(frozen=True)
class PeriodCheck:
    """The passages to answer from and, where the asked periods are not all covered, the note
    that says so (``""`` when there is nothing to say)."""

    hits: list[NarrativeHit]
    note: str = ""
    code: str = "covered"  # for the trace: covered, other_period, part_covered, unjudged


def asked_periods(intent: ParsedIntent) -> list[Period]:
    """The periods the question names (never one the reader assumed)."""
    periods = intent.periods or ([intent.period] if intent.period is not None else [])
    return [p for p in periods if p != intent.assumed_period]


def base_periods(intent: ParsedIntent) -> list[Period]:
    """The periods a why-question about a figure (the composite route's attribution) is measured
    against: the one before each asked (为什么FY2024收入下降: the FY2023 review speaks of the
    base). Their documents' passages are kept; no note is said of them."""
    asked = asked_periods(intent)
    return [b for b in dict.fromkeys(previous_period(p) for p in asked) if b not in asked]


def by_period(
    hits: Sequence[NarrativeHit],
    asked: Sequence[Period],
    *,
    english: bool,
    base: Sequence[Period] = (),
) -> PeriodCheck:
    """``hits`` held to ``asked`` (and ``base``): see the module's docstring."""
    if not asked or not hits:
        return PeriodCheck(list(hits), code="unjudged")
    periods = {h.doc_id: as_period(h.period) for h in hits}
    if all(p is None for p in periods.values()):
        return PeriodCheck(list(hits), code="unjudged")

    def of_asked(p: Period | None) -> bool:
        return p is not None and any(overlaps(p, a) for a in (*asked, *base))

    known = sorted({p for p in periods.values() if p is not None}, key=lambda p: p.sort_key)
    covered = _labels(known, english)
    if not any(of_asked(p) for p in periods.values()):
        template = OTHER_PERIOD_EN if english else OTHER_PERIOD_ZH
        note = template.format(covered=covered, asked=_labels(asked, english))
        return PeriodCheck(list(hits), note, "other_period")
    kept = [h for h in hits if periods[h.doc_id] is None or of_asked(periods[h.doc_id])]
    missing = [a for a in asked if not any(overlaps(p, a) for p in known)]
    if missing:
        template = PART_COVERED_EN if english else PART_COVERED_ZH
        note = template.format(covered=covered, asked=_labels(missing, english))
        return PeriodCheck(kept, note, "part_covered")
    return PeriodCheck(kept)


def _labels(periods: Sequence[Period], english: bool) -> str:
    return (", " if english else "、").join(dict.fromkeys(p.label for p in periods))
