"""The parser's last stage: which route answers the question, and, on the narrative route, what
the documents must name (``asked.py``: what a figure is asked of a name, an event presumed).

Kept apart from ``intent.py`` so the parse reads as named stages: the slots are read there, the
route is chosen here from what they hold.
"""

from __future__ import annotations

from ragspine.agent.asked import asked_of, event_of
from ragspine.agent.definitions import definition_term
from ragspine.agent.follow_ups import yes_no_then_count
from ragspine.agent.headed_names import headed_names
from ragspine.agent.question_cues import (
    DEFINITION_CUES,
    FIGURE_CUES,
    NARRATIVE_CUES,
    NUMERIC_CUES,
)
from ragspine.agent.slots import ROUTE_COMPOSITE, ROUTE_NARRATIVE, ROUTE_STRUCTURED
from ragspine.agent.subjects import Subject
from ragspine.profile.glossary import AliasMatch

Span = tuple[int, int]


def route_of(
    text: str,
    question: str,
    *,
    metric: str | None,
    has_scope: bool,
    partner: str | None,
    unsupported: str | None,
    blocking: Subject | None,
    declined: str | None,
    narrative_cue: bool,
    rate: bool,
    how_fast: bool,
    measured: bool,
) -> tuple[str, str | None]:
    """The route and, for a concept question, the term to define. In a fixed order: a concept
    asked of no company and no period; no fact may answer (a partner, a line item held by no
    fact); a name the profile does not know asked why; a metric; a document's account; a
    figure (declined by the quantity's or the name's words where nothing holds it), also a held
    metric asked as another measure of itself (``measured``); a yes/no question followed by a
    how-many one naming no metric is the documents' (follow_ups.py)."""
    if DEFINITION_CUES.search(text) and not has_scope:
        return ROUTE_NARRATIVE, definition_term(question)  # 什么是营业收入: a concept
    if partner or (unsupported and not metric):
        return ROUTE_NARRATIVE, None  # no fact may answer: what the documents say, with sources
    if blocking and narrative_cue:
        return ROUTE_NARRATIVE, None  # why did Project Falcon's revenue fall: no fact is about it
    if metric and narrative_cue:
        return ROUTE_COMPOSITE, None
    if metric:
        return ROUTE_STRUCTURED, None
    if narrative_cue or (blocking and not declined):
        return ROUTE_NARRATIVE, None  # How did ACME improve inventory turnover: the documents'
    if (
        yes_no_then_count(text) and not declined
    ):  # 有没有通勤班车?有几条线路?: the documents' account of it
        return ROUTE_NARRATIVE, None
    if NUMERIC_CUES.search(text) or rate or how_fast or measured:  # measured: other_measures
        return ROUTE_STRUCTURED, None  # a figure asked for: of a quantity or a name, declined
    return ROUTE_NARRATIVE, None


def narrative_subjects(
    text: str,
    index: list[int],
    question: str,
    scan: list[tuple[str, AliasMatch]],
    explained: list[Span],
    subjects: list[Subject],
) -> list[Subject]:
    """What the passages must name on the narrative route, added to the names found: what a
    figure is asked of a name (首席执行官的薪酬是多少: the pay, not the role) and an event the
    question presumes (商标侵权诉讼), and a plan a figure is asked of (``headed_names``:
    employee share ownership plan). A document question's frame (如何, why) is no part of them."""
    cues = [m.span() for m in NARRATIVE_CUES.finditer(text)]  # a document question's frame
    figure = FIGURE_CUES.search(text) is not None
    if figure:
        held = [(s.start, s.end) for s in subjects]
        plans = headed_names(text, index, question, [*explained, *held])
        subjects = [*subjects, *(p for p in plans if not _overlaps(p, held))]
    of_name = asked_of(text, index, question, scan, [*explained, *cues], subjects, figure=figure)
    subjects = [*subjects, *([of_name] if of_name else [])]
    event = event_of(text, index, question, [*explained, *cues], subjects)
    return [*subjects, *([event] if event else [])]  # passages about it, or not found


def _overlaps(subject: Subject, spans: list[Span]) -> bool:
    return any(s < subject.end and subject.start < e for s, e in spans)
