"""The whole noun phrase a decline names: a name or a quantity is said with the words that make
it what the question asks about, never as the fragment a reading found.

- A region glued before a quantity's name is its attributive (台湾啤酒, 香港门店租金): the decline
  names both (``with_region``). A region written with 的 (香港的门店租金) owns the figure and is
  said apart, as the entity.
- A name that heads a relative clause holding another name (与中国农业大学共建的联合实验室,
  浑水发布的报告): both are said by the whole phrase, the clause with its head noun
  (``relative_phrases``). Each is still held to its own words where passages must name it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ragspine.profile.glossary import AliasMatch

if TYPE_CHECKING:
    from ragspine.agent.subjects import Subject

Span = tuple[int, int]

_CJK = re.compile(r"[\u4e00-\u9fff]")
# Between a clause's name and the name it qualifies: a verb of up to four characters, then 的.
_CLAUSE = re.compile(r"[\u4e00-\u9fff]{1,4}的")
# What a partner is written after: 与, 和, 跟, 同 (与中国农业大学共建的).
_WITH = re.compile(r"(?:与|和|跟|同)$")


def with_region(text: str, span: Span, scan: list[tuple[str, AliasMatch]], home: str) -> Span:
    """``span`` (a quantity's name in the folded ``text``) with the region alias (an entity's
    other than ``home``, or a place) written glued before it."""
    start, end = span
    for k, m in scan:
        region = k == "place" or (k == "entities" and m.code != home)
        if region and m.end == start and _CJK.match(text[m.end - 1]):
            return m.start, end
    return start, end


def relative_phrases(
    subjects: Sequence[Subject], text: str, question: str, index: list[int], kinds: set[str]
) -> list[Subject]:
    """The subjects, each name of ``kinds`` inside a relative clause that qualifies another
    (X共建的Y) named by the whole phrase, and so is the name it qualifies."""
    out = list(subjects)
    for i, a in enumerate(out):
        for j, b in enumerate(out):
            if a.kind not in kinds or b.kind not in kinds or not a.end < b.start:
                continue
            if not _CLAUSE.fullmatch(text, a.end, b.start) or "的" in text[a.end : b.start - 1]:
                continue
            start = a.start - 1 if _WITH.search(text, 0, a.start) else a.start
            phrase = question[index[start] : index[b.end - 1] + 1].strip()
            out[i] = dataclasses.replace(a, name=phrase)
            out[j] = dataclasses.replace(b, name=phrase)
    return out
