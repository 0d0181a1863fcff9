"""Dates of events: a year, half or quarter that a clause ties to an event (到期, 召开, 完成,
实现, 达到, by the end of, due, deadline, target) is a claim about that event, not a label.

It is held to the passages its line cites: where a cited passage ties the same event word to a
date in a clause about the same thing (sharing its words; any such clause if none does), the two
dates must overlap (2025 holds 2025H2; 2025H1 does not, nor does 2026). A passage that dates no
such event says nothing, and unknown never contradicts. A period in a clause that states a figure
(2024年收入为455百万美元, reach 176 stores by 2025) labels that figure: the figure's own check
reads its period, so it is no event date here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.evals.audit.claims import is_label, read_claims
from ragspine.evals.audit.periods import find_periods

__all__ = ["date_findings", "event_dates"]

_EVENT = re.compile(
    r"(?P<zh>到期|届满|召开|举行|完成|实现|达到|达成|截止|生效|上线|投产|开业|交付|退出|淘汰|停止)"
    r"|(?<![A-Za-z])(?P<en>by\s+(?:the\s+)?end\s+of|by(?=\s+(?:FY|fiscal\s+)?(?:19|20)\d{2})"
    r"|due|deadline|target(?:s|ed)?|complet(?:e|ed|es|ion)|achiev(?:e|ed|es)|reach(?:ed|es)?"
    r"|held|convene[sd]?|expir(?:e|es|ed|y))(?![A-Za-z])",
    re.I,
)
_CLAUSE = re.compile(r"[,,;;。!?\n]|\.(?=\s|$)")
_HALF_OF = {"Q1": "H1", "Q2": "H1", "Q3": "H2", "Q4": "H2"}


@dataclass(frozen=True)
class Dated:
    text: str  # the date as written
    code: str  # 2025, 2025H2, 2025Q3
    events: frozenset[str]
    words: frozenset[str]  # the clause's other words: what the event is about


def event_dates(text: str, figures_label: bool = True) -> list[Dated]:
    """Every clause of ``text`` that ties a dated period to an event word. ``figures_label``:
    leave out a clause that states a figure (its period labels the figure)."""
    out = []
    for a, b in _clauses(text):
        clause = text[a:b]
        events = frozenset(_event_key(m) for m in _EVENT.finditer(clause))
        if not events:
            continue
        dates = [p for p in find_periods(clause) if p.code and p.code[:4].isdigit()]
        if not dates or (figures_label and _states_a_figure(clause)):
            continue
        rest = clause
        for p in dates:
            rest = rest[: p.start] + " " * (p.end - p.start) + rest[p.end :]
        words = _words(_EVENT.sub(" ", rest))
        for p in dates:
            out.append(Dated(clause[p.start : p.end], p.code or "", events, words))
    return out


def date_findings(text: str, passage_texts: Sequence[str]) -> list[tuple[str, str]]:
    """(the date as written, ``wrong_date``) for each event date of ``text`` (an answer line)
    that a cited passage dates otherwise for the same event."""
    theirs = [d for t in passage_texts for d in event_dates(t, figures_label=False)]
    out = []
    for mine in event_dates(text):
        same = [d for d in theirs if d.events & mine.events]
        about = [d for d in same if d.words & mine.words] or same
        if about and not any(_overlap(mine.code, d.code) for d in about):
            out.append((mine.text, "wrong_date"))
    return out


def _overlap(a: str, b: str) -> bool:
    """Two period codes name overlapping time: one year, and the same half or quarter where
    both state one (a quarter falls in its half)."""
    if a[:4] != b[:4]:
        return False
    pa, pb = a[4:], b[4:]
    if not pa or not pb or pa == pb:
        return True
    return _HALF_OF.get(pa, pa) == _HALF_OF.get(pb, pb) and (pa[0] != pb[0] or pa == pb)


def _event_key(m: re.Match[str]) -> str:
    word = (m.group("zh") or m.group("en") or "").lower()
    if word.startswith("by"):
        return "by"
    for stem in ("target", "complet", "achiev", "reach", "convene", "expir"):
        if word.startswith(stem):
            return stem
    return word


def _states_a_figure(clause: str) -> bool:
    return any(
        c.value is not None and not is_label(clause, s, e, c) and not _in_period(clause, s)
        for s, e, c in read_claims(clause)
    )


def _in_period(clause: str, at: int) -> bool:
    return any(p.start <= at < p.end for p in find_periods(clause))


def _clauses(text: str) -> list[tuple[int, int]]:
    out, a = [], 0
    for m in _CLAUSE.finditer(text):
        out.append((a, m.start()))
        a = m.end()
    return [*out, (a, len(text))]


def _words(text: str) -> frozenset[str]:
    en = {w for w in re.findall(r"[a-z]{4,}", text.lower())}
    zh = re.sub(r"[^\u4e00-\u9fff]+", "|", text)
    pairs = {run[i : i + 2] for run in zh.split("|") for i in range(len(run) - 1)}
    return frozenset(en | pairs)
