"""A date a passage attaches to an event is a figure of its sentence: 2025年下半年到期, "by the
end of 2026", 2025年3月召开.

A year is not a value (the value check never reads one), yet moving a due date to the other
half-year or a target to the year before misstates the passage as surely as a wrong amount. So
a sentence that dates an event (到期, 截止, 召开, 完成, 目标, due, by, target, deadline …) is held
to the passages it cites: the date's clause is matched by its words (CJK character pairs and
English words, as ``labels`` reads a name) with the dated clauses of the passages, and the
best match (three shared words at least) must give the same date, or a finer one of the same
year (2025年 for 2025年下半年), when that clause's date is missing from the claim's clause (a
date put in its place; a year beside it, as in a report's name, replaces nothing). A date no
cited clause matches is left alone: this check only catches a date moved away from the one its
own event carries in the source.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ragspine.agent.labels import label_of

_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_DATE = re.compile(
    r"(?:(?P<en_end>end\s+of)\s+(?:the\s+)?(?:year\s+)?"
    r"|(?P<en_half>first|second)\s+half\s+of\s+"
    rf"|(?P<en_month>{_MONTHS})\s+(?:\d{{1,2}},?\s+)?)?"
    r"(?:fy|cy)?(?P<year>(?:19|20)\d{2})(?!\d)"
    r"(?:\s?年(?:度|财年)?(?:(?P<half>上半年|下半年)|第?(?P<q>[一二三四1-4])季度"
    r"|(?P<month>\d{1,2})\s?月|(?P<end>底|末|年底|年末))?"
    r"|\s?(?P<h>h[12])|\s?(?P<eq>q[1-4]))?",
    re.I,
)
_EVENT = re.compile(
    r"到期|截止|届满|之前|以前|前完成|召开|举行|实现|完成|目标|计划|期限"
    r"|(?<![a-z])(?:due|by|until|deadline|target|aims?|expires?|matur\w*|complete\w*)(?![a-z])",
    re.I,
)
_CLAUSE_CUT = re.compile(r"[。!?!?;;,,\n]|\.(?:\s|$)")
_LEAST = 3  # words a dated clause must share with the claim's to be its event
_QUARTERS = {"一": "1", "二": "2", "三": "3", "四": "4"}


@dataclass(frozen=True)
class Dated:
    year: str
    part: str | None  # H1, H2, Q1…Q4, M1…M12, end
    words: frozenset[str]  # its clause's words, the date cut out
    clause: int = 0  # where its clause starts


def dates(text: str) -> list[Dated]:
    """Every dated clause in ``text``: the date and the clause's words."""
    view = text.lower()
    cuts = [0, *(m.end() for m in _CLAUSE_CUT.finditer(view)), len(view)]
    out = []
    for m in _DATE.finditer(view):
        left = max(c for c in cuts if c <= m.start())
        right = min(c for c in cuts if c >= m.end())
        words = label_of(view, left, m.start()) | label_of(view, m.end(), right)
        out.append(Dated(m.group("year"), _part(m), words, left))
    return out


def _part(m: re.Match[str]) -> str | None:
    if m.group("half") or m.group("en_half") or m.group("h"):
        first = m.group("half") == "上半年" or m.group("en_half") == "first" or m.group("h") == "h1"
        return "H1" if first else "H2"
    if m.group("q") or m.group("eq"):
        q = m.group("q") or m.group("eq")[1]
        return "Q" + _QUARTERS.get(q, q)
    if m.group("month"):
        return f"M{int(m.group('month'))}"
    if m.group("en_month"):
        return f"M{_MONTHS.split('|').index(m.group('en_month').lower()) + 1}"
    if m.group("end") or m.group("en_end"):
        return "end"
    return None


def moved_dates(sentence: str, passages: Iterable[str]) -> int:
    """How many event dates of the sentence the cited passages give their event otherwise."""
    if not _EVENT.search(sentence):
        return 0
    claimed = dates(sentence)
    if not claimed:
        return 0
    stated = [d for text in passages for d in dates(text)]
    bad = 0
    for claim in claimed:
        scores = [(len(claim.words & s.words), s) for s in stated]
        best = max((n for n, _ in scores), default=0)
        if best < _LEAST:
            continue
        theirs = [s for n, s in scores if n == best]
        ours = [c for c in claimed if c.clause == claim.clause]
        replaced = any(not any(_same(c, s) for c in ours) for s in theirs)
        if replaced and not any(_same(claim, s) for s in theirs):
            bad += 1
    return bad


def _same(claim: Dated, source: Dated) -> bool:
    """The source's date, or the claim's coarser reading of it (its year alone)."""
    return claim.year == source.year and claim.part in (None, source.part)
