"""Passages held to the period a question asks about, by their documents' periods.

A report speaks of its own period: the 2020 annual report's passages are about FY2020, whatever
a question about FY2021 finds in them. Where a question names periods and some passage found is
from a document of one of them, passages of documents of other periods are set aside. Where no
passage found is from a document of an asked period, none of another period is kept: the answer
says which periods the documents retrieved cover and that none covers the one asked, and quotes
nothing (another year's e-mail, officer or figure, read as the one asked, is an invented answer).
An asked period no document covers, beside one that is covered, is named too.

A document with no known period (a policy, an FAQ, a front matter's free label) is never judged
by one, kept beside covered passages and beside none alike: nothing says it speaks of another
period, and a corpus without periods must answer as it did. Where only such documents are left,
the answer says so before it quotes them. A question whose period the reader assumed (a quarter
without a year) is not held to it: the user did not name it. A why-question about a figure (the
composite route) keeps the passages of the period before each one asked too (a change is
measured against it), and says nothing of it. The words are ``wording.py``'s (``period.*``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.agent.slots import ParsedIntent
from ragspine.agent.wording import EN, Language, say
from ragspine.profile.periods import Period, previous_period
from ragspine.retrieval.base import NarrativeHit
from ragspine.retrieval.doc_periods import as_period, overlaps


@dataclass(frozen=True)
class PeriodCheck:
    """The passages to answer from and, where the asked periods are not all covered, the note
    that says so (``""`` when there is nothing to say). ``other_period``: nothing is left to
    quote, and the note is the whole answer."""

    hits: list[NarrativeHit]
    note: str = ""
    # for the trace: covered, other_period (nothing kept), undated_only, part_covered, unjudged
    code: str = "covered"


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
    lang: Language,
    *,
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
    covered = _labels(known, lang)
    if not any(of_asked(p) for p in periods.values()):
        undated = [h for h in hits if periods[h.doc_id] is None]
        key, code = (
            ("period.undated", "undated_only") if undated else ("period.none", "other_period")
        )
        note = say(key, lang, covered=covered, asked=_labels(asked, lang))
        return PeriodCheck(undated, note, code)
    kept = [h for h in hits if periods[h.doc_id] is None or of_asked(periods[h.doc_id])]
    missing = [a for a in asked if not any(overlaps(p, a) for p in known)]
    if missing:
        note = say("period.part", lang, covered=covered, asked=_labels(missing, lang))
        return PeriodCheck(kept, note, "part_covered")
    return PeriodCheck(kept)


def _labels(periods: Sequence[Period], lang: Language) -> str:
    return (", " if lang == EN else "、").join(dict.fromkeys(p.label for p in periods))
