"""The whole noun phrase a decline names, in Chinese.

A decline names what it will not give as the question writes it, and as a whole: a quantity is
its modifiers and its head (居民人均可支配收入, not 居民 or 人均收入), a relation of two
quantities is both of them and the relation (线上收入与线下收入之比, not 收入之比), an
organisation is its name and its kind word (物业公司, not 物业). A Chinese noun phrase is written
unbroken and its modifiers precede its head, so the phrase is the run of characters before the
head the parser read (the declined words end at it: what follows, 每个研发人员平均花了…, is the
clause's, not the phrase's), bounded by:

- what is no part of a quantity's name: an entity, the company's name, a period (``stops``);
- the question's own frame (的, 是多少, 从, 获得了, 请问 … ``subject_residue.frame_words``);
- punctuation, digits and Latin letters.

The metric words, the channels (线上收入) and the words read as a quantity are part of it
(``parts``). Two quantities joined by 与 / 和 / 及 / 跟 / 同 are one phrase only under a head that
relates two (之比, 之差, 之和, 比值): 收入和坪效 lists two quantities, 收入与成本之比 names one.
An organisation's name with its kind word (物业公司) is read in ``subject_residue``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.agent.subject_residue import frame_words
from ragspine.profile.glossary import AliasMatch

Span = tuple[int, int]

_CJK = re.compile(r"[\u4e00-\u9fff]")
_PART = "\u25a0"  # stands in for a part's characters: no frame word is read across a part
# A head that relates two quantities: both are named with it.
_RELATION = re.compile(r"(?:之比|之差|之和|之间的比|比值|比率|差额|的比|比)$")
_JOIN = re.compile(r"与|和|及|跟|同")


def content(text: str, parts: Sequence[Span], stops: Sequence[Span]) -> list[bool]:
    """Which characters of ``text`` may belong to a noun phrase: CJK characters outside every
    stop and every frame word, and every character of a part."""
    chars = list(text)
    inside = [False] * len(text)
    for s, e in parts:
        for i in range(max(s, 0), min(e, len(text))):
            chars[i], inside[i] = _PART, True
    blocked = [False] * len(text)
    for s, e in stops:
        for i in range(max(s, 0), min(e, len(text))):
            if not inside[i]:
                blocked[i] = True
                chars[i] = " "
    flat = "".join(chars)
    for m in frame_words().finditer(flat):
        for i in range(*m.span()):
            blocked[i] = True
    return [
        inside[i] or (not blocked[i] and _CJK.match(text[i]) is not None) for i in range(len(text))
    ]


def whole_phrase(text: str, span: Span, parts: Sequence[Span], stops: Sequence[Span]) -> Span:
    """The whole unbroken noun phrase ``span`` heads (see the module's docstring)."""
    ok = content(text, [*parts, span], stops)
    start, end = span
    while start > 0 and ok[start - 1]:
        start -= 1
    if _RELATION.search(text, 0, end):
        join = next((m for m in _JOIN.finditer(text, max(start - 1, 0), start + 1)), None)
        if join is not None and join.end() == start and join.start() > 0 and ok[join.start() - 1]:
            first = join.start()
            while first > 0 and ok[first - 1]:
                first -= 1
            start = first
    return start, end


def one_phrase(
    text: str, word: Span, head: Span, parts: Sequence[Span], stops: Sequence[Span]
) -> bool:
    """Do a word and a head stand in one unbroken noun phrase (人均 and 收入 in 居民人均可支配收入)?
    Every character from one to the other, the word's own included, must be a phrase's."""
    start, end = min(word[0], head[0]), max(word[1], head[1])
    ok = content(text, [*parts, head], stops)
    return all(ok[start:end])


def quantity_phrase(
    text: str, span: Span, scan: Sequence[tuple[str, AliasMatch]], stops: Sequence[Span]
) -> Span:
    """A declined quantity's span widened to its whole phrase, in a Chinese question: its
    metric words, quantity words and channels are part of it; every other word the glossary
    read (an entity, the company, a place), and ``stops`` (periods, the frame's own cues), is
    not."""
    if not _CJK.search(text):
        return span
    parts = [(m.start, m.end) for k, m in scan if k in _PART_KINDS]
    others = [(m.start, m.end) for k, m in scan if k not in _PART_KINDS]
    return whole_phrase(text, span, parts, [*others, *stops])


_PART_KINDS = frozenset(("metrics", "quantity", "channels"))


def in_one_phrase(
    text: str, modifier: Span, metric: Span, scan: Sequence[tuple[str, AliasMatch]]
) -> bool:
    """A modifier the parser read apart from its metric that the question writes inside the
    metric's own unbroken phrase (人均 in 居民人均可支配收入): the phrase names the quantity,
    not a name built from the metric's."""
    if modifier[0] >= modifier[1] or not _CJK.search(text):
        return False
    parts = [(m.start, m.end) for k, m in scan if k in _PART_KINDS]
    others = [(m.start, m.end) for k, m in scan if k not in _PART_KINDS]
    return one_phrase(text, modifier, metric, parts, others)
