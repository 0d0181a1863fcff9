"""Period marks: the period expressions before a value that say which period it is of.

A mark is a period (2024年, FY2023), or "prev" (上年, prior year) / "own" (本年, this year)
resolved against the sentence's own period; it is ``scoped`` when it is a comparison base
(上年的X, 较2022年的X, than the prior year). An opening period ("at the start of 2024",
2024年初) marks the period before: an opening figure is the previous period's closing one. From
the marks come a value's period, and the base of a change (what 较上年 / 与2022年相比 measures it
against). Kept apart from ``claims`` so that what a sentence carries from the words before it
(its marks, and a paragraph's entity for a sentence that names none) is read in one place.
"""

from __future__ import annotations

import re
from datetime import date
from typing import NamedTuple

from ragspine.agent.cues import (
    BY_YEAR,
    COMPARED,
    COMPARED_AFTER,
    JOINED,
    OPENING,
    OPENING_AFTER,
    OWN_PERIOD,
    RELATIVE_PERIOD,
)
from ragspine.profile.periods import Period, find_periods, previous_period


class Mark(NamedTuple):
    """A period expression: a period, or "prev" (上年) / "own" (本年) of the statement's own;
    ``scoped`` when it is a comparison base (上年的, 较2022年的)."""

    start: int
    end: int
    what: Period | str
    scoped: bool


class PeriodMarks:
    """A text's period marks, found once for all its values (``view`` is the folded text,
    ``spans`` its values', ``clauses`` where its clauses start, ``own`` its frame's period)."""

    def __init__(
        self,
        view: str,
        ref: date,
        spans: list[tuple[int, int]],
        clauses: list[int],
        own: Period | None,
    ) -> None:
        self.view, self.spans, self.clauses, self.own = view, spans, clauses, own
        self.marks = _find_marks(view, ref, spans)

    def base(self, s0: int, start: int) -> Period | None:
        """What a change is measured against: the last comparison base before it in its
        sentence (较上年, 与2022年相比), resolved against the sentence's own period."""
        marks = [p for p in self.marks if s0 <= p.start and p.end <= start]
        own = next((p.what for p in reversed(marks) if isinstance(p.what, Period)), None)
        bases = [p for p in marks if p.scoped]
        if not bases:
            return None
        return resolve(bases[-1].what, own or self.own)

    def period(
        self,
        sentence: int,
        clause: tuple[int, int],
        span: tuple[int, int],
        *,
        target: bool,
        changed: bool,
        pair: tuple[str, int, int] | None,
    ) -> tuple[Period | None, bool]:
        """The value's period, and whether it is one before the statement's own. ``target``:
        a target or forecast; ``pair``: its role in a from-to pair ("from"/"to"), where the
        pair starts and where its FROM value ends.

        A comparison base (上年的X, 较2022年的X, than in 2023) is the period of the one value
        after it, and of no change: "较上年增长11%" is this year's growth."""
        s0, (c0, c1), (start, end) = sentence, clause, span
        named = [p.what for p in self.marks if s0 <= p.start and p.end <= start]
        own = next((p for p in reversed(named) if isinstance(p, Period)), self.own)
        if target and (by := BY_YEAR.search(self.view, c0, c1)):
            return Period("FY", by.group(1)), False  # a target's period: 到2030年, by 2030
        before = [p for p in self.marks if s0 <= p.start and p.end <= start]
        before = [p for p in before if not p.scoped or not (changed or self._consumed(p, start))]
        if pair is not None and pair[0] == "to":  # not the FROM value's own period
            before = [p for p in before if not pair[1] <= p.start < pair[2]]
        after = [p for p in self.marks if end <= p.start < c1]
        if len(before) > 1 and JOINED.fullmatch(self.view, before[-2].end, before[-1].start):
            before = []  # 2023和2024年…分别为: which is whose, the reader cannot tell
        found = before[-1] if before else after[0] if after else None
        if pair is not None and pair[0] == "from":
            if found is not None and pair[1] <= found.start < pair[2]:
                return resolve(found.what, own), True  # 由上年的1400…, from 2023's 410
            period = resolve(found.what, own) if found is not None else own
            return (previous_period(period) if period is not None else None), True
        if found is None:
            return self.own, False
        return resolve(found.what, own), found.what == "prev"

    def _consumed(self, mark: Mark, start: int) -> bool:
        """Another value, or a clause's end, stands between a comparison base and this value."""
        cuts = [s for s, _ in self.spans] + self.clauses
        return any(mark.end <= cut < start for cut in cuts)


def earlier_entity(names: list[tuple[str, str, int, int]], s0: int) -> str | None:
    """A source's sentence naming no entity is about the one its paragraph last named
    ("...mainland China stores were served by 14 centres. By year end ... into 9"); ``names``
    are (kind, code, start, end) in order."""
    named = [code for k, code, s, _ in names if k == "entities" and s < s0]
    return named[-1] if named else None


def resolve(found: Period | str, own: Period | None) -> Period | None:
    """A mark's period: its own, or "prev" / "own" against the statement's own period."""
    if isinstance(found, Period):
        return found
    if own is None:
        return None
    return previous_period(own) if found == "prev" else own


def _find_marks(view: str, ref: date, spans: list[tuple[int, int]]) -> list[Mark]:
    """Every period expression, in order: a period, or "prev" (上年) / "own" (本年)."""
    out: list[Mark] = []
    taken: list[tuple[int, int]] = []
    last = -1
    for pattern, mark in ((RELATIVE_PERIOD, "prev"), (OWN_PERIOD, "own")):
        for m in pattern.finditer(view):
            out.append(Mark(m.start(), m.end(), mark, _base_mark(view, m, mark, last)))
            last = m.end() if out[-1].scoped else last
            taken.append(m.span())
    for pm in find_periods(view, ref):
        inside = any(s < pm.end and pm.start < e for s, e in [*taken, *spans])
        if pm.period is not None and not inside:
            base = COMPARED.search(view, max(0, pm.start - 4), pm.start) is not None
            base = base or COMPARED_AFTER.match(view, pm.end) is not None
            opening = OPENING.search(view, max(0, pm.start - 20), pm.start)
            if opening or OPENING_AFTER.match(view, pm.end):
                out.append(Mark(pm.start, pm.end, previous_period(pm.period), base))
            else:
                out.append(Mark(pm.start, pm.end, pm.period, base))
    return sorted(out, key=lambda p: p.start)


def _base_mark(view: str, m: re.Match[str], mark: str, last: int) -> bool:
    """Is a relative period a comparison base? In English always (than the prior year);
    in Chinese after 较/比/高于 (较上年), before 的 (上年的1400), or right after another
    base (较去年同期); 上年为下降2.8% is the year's own figure."""
    if mark != "prev":
        return False
    if m.group().isascii():
        return True
    compared = COMPARED.search(view, max(0, m.start() - 4), m.start()) is not None
    return compared or view.startswith("的", m.end()) or 0 <= m.start() - last <= 1
