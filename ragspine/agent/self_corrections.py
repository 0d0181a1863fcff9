"""A question that corrects itself: 香港去年,哦不对,是2023年的毛利率; 2021年,哦不,2020年的销售费用;
What was Hong Kong's, sorry, I mean Taiwan's store count; 不是2023年,是2024年的收入.

A correction marker (哦不对, 不对, 哦不, 说错了, sorry, I mean, or rather, correction, …) standing
between two words of one kind (two periods, two entities, two quantities) retracts the first:
the later word is what is asked, the earlier one is no part of the question, so it is blanked
(with the marker) before the question is read; so is 不是 X,(而)是 Y. Only words right beside
the marker count: a marker with no word of the same kind on each side corrects something else
(a courtesy 'sorry', 'rather than', 这个数不对吗) and leaves the question as it is. Blanking
keeps every position, so the question's spans still map to its words.
"""

from __future__ import annotations

import re
from datetime import date

from ragspine.profile.glossary import Glossary
from ragspine.profile.periods import find_periods

_MARKER = re.compile(
    r"哦\s*,?\s*不对|噢\s*,?\s*不对|不对不对|不对|说错了|口误|更正一下|更正|哦不是|哦不|噢不|不不"
    r"|(?<![a-z])(?:sorry\s*,?\s*i\s+mean|i\s+mean|i\s+meant|or\s+rather|rather(?!\s+than)"
    r"|correction|no\s*,?\s*wait|scratch\s+that|sorry)(?![a-z])"
)
# What may stand between the retracted word and the marker ('s, commas, dots, dashes) …
_BEFORE_GAP = re.compile(r"(?:['’]s)?[\s,;:.…!—-]*")
# … and between the marker and the word that replaces it (是, 应该是, I mean, it's).
_AFTER_GAP = re.compile(
    r"[\s,;:.…!—-]*(?:应该是|我是说|而是|是|(?:sorry\s*,?\s*)?i\s+mean|it['’]?s|make\s+(?:it|that))?"
    r"[\s,;:.…!—-]*"
)
_NOT_X_BUT = re.compile(r"不是\s*")
_BUT = re.compile(r"[\s,;:.…!—-]*(?:而)?是\s*")
_KINDS = {"entities": "entity", "metrics": "quantity", "quantity": "quantity"}


def _words(text: str, ref: date, glossary: Glossary) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every period, entity and quantity word, in order."""
    words = [(pm.start, pm.end, "period") for pm in find_periods(text, ref)]
    words += [(m.start, m.end, _KINDS[k]) for k, m in glossary.scan(text) if k in _KINDS]
    return sorted(words)


def without_retracted(text: str, ref: date, glossary: Glossary) -> str:
    """``text`` with each word a correction retracts blanked, with its marker (see module)."""
    if not (_MARKER.search(text) or "不是" in text):
        return text
    words = _words(text, ref, glossary)
    blank: list[tuple[int, int]] = []
    for m in _MARKER.finditer(text):
        before = [w for w in words if w[1] <= m.start()]
        after = [w for w in words if w[0] >= m.end()]
        if not before or not after:
            continue
        old, new = before[-1], after[0]
        gap_before = _BEFORE_GAP.fullmatch(text, old[1], m.start())
        gap_after = _AFTER_GAP.fullmatch(text, m.end(), new[0])
        if old[2] == new[2] and gap_before and gap_after:
            blank.append((old[0], new[0]))
    for m in _NOT_X_BUT.finditer(text):
        inside = [w for w in words if w[0] >= m.end()]
        if len(inside) < 2 or inside[0][0] != m.end():
            continue
        old, new = inside[0], inside[1]
        if old[2] == new[2] and _BUT.fullmatch(text, old[1], new[0]):
            blank.append((m.start(), new[0]))
    chars = list(text)
    for start, end in blank:
        chars[start:end] = " " * (end - start)
    return "".join(chars)
