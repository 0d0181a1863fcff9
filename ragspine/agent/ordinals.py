"""An ordinal is a claim about its item: 旗舰店排第三位, "our second lever", 第一是存量门店改造.

A passage that ranks items (第一/第二优先级, "our first lever … second lever") gives each item
its ordinal. A sentence that gives an item an ordinal is held to the passages it cites: the
item is found by its words (the ordinal's clause, as ``labels`` reads a value's name: CJK
character pairs and English words), and the passage clause holding an ordinal that shares the
most words with it (two at least) is that item's place. The claim stands when that clause's
ordinal is the claim's; it is misattributed when the best-matching clauses all hold another.
An ordinal whose item no cited passage ranks is left to the value check (第二位 is a number
no source states). Periods (第三季度, the first half) and section numbers (第3节) are not
ordinals here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ragspine.agent.labels import label_of

_CJK_DIGITS = {c: i for i, c in enumerate("一二三四五六七八九十", start=1)}
_EN_ORDINALS = {
    w: i
    for i, w in enumerate(
        ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"),
        start=1,
    )
}
_ORDINAL = re.compile(
    r"第(?P<cjk>[一二三四五六七八九十]|\d)(?![\d一二三四五六七八九十])"
    r"(?!季|半年|节|章|条|款|部分|段|页|篇|册|卷|期|轮|次会|届|号)"
    r"|(?<![a-z])(?P<en>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)(?![a-z])"
    r"(?!\s+(?:half|quarter|time|day|week|month|year))"
    r"|(?<![a-z\d])(?P<num>[1-9])(?:st|nd|rd|th)(?![a-z])",
    re.I,
)
_CLAUSE_CUT = re.compile(r"[。!?!?;;,,::\n]|\.(?:\s|$)")
_LEAST = 2  # words an item must share with a ranked clause to be that item


@dataclass(frozen=True)
class Ordinal:
    place: int
    start: int
    end: int
    item: frozenset[str]  # the words of its clause, the ordinal cut out


def ordinals(text: str) -> list[Ordinal]:
    """Every ordinal in ``text`` with the words of its clause."""
    view = text.lower()
    cuts = [0, *(m.end() for m in _CLAUSE_CUT.finditer(view)), len(view)]
    out = []
    for m in _ORDINAL.finditer(view):
        word = m.group("cjk") or m.group("en") or m.group("num")
        place = _CJK_DIGITS.get(word) or _EN_ORDINALS.get(word) or int(word)
        left = max(c for c in cuts if c <= m.start())
        right = min(c for c in cuts if c >= m.end())
        item = label_of(view, left, m.start()) | label_of(view, m.end(), right)
        out.append(Ordinal(place, m.start(), m.end(), item))
    return out


def judged_ordinals(sentence: str, passages: Iterable[str]) -> tuple[int, list[tuple[int, int]]]:
    """How many of the sentence's ordinals give their item another place than the cited
    passages do, and the spans of every ordinal the passages rank (right or wrong)."""
    claimed = ordinals(sentence)
    if not claimed:
        return 0, []
    ranked = [o for text in passages for o in ordinals(text)]
    bad, spans = 0, []
    for claim in claimed:
        scores = [(len(claim.item & r.item), r.place) for r in ranked]
        best = max((s for s, _ in scores), default=0)
        if best < _LEAST:
            continue
        spans.append((claim.start, claim.end))
        if all(place != claim.place for s, place in scores if s == best):
            bad += 1
    return bad, spans
