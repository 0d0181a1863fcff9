"""A growth written once after coordinated metrics, apart from their names, is each one's.

收入和毛利的同比增长率, 收入、毛利的增长率: the growth words stand after the last metric, joined
to the list by 的 or written as a modifier of their own, and the list asks each one's growth;
reading the first as a level answers another quantity than asked. Not shared: the same metric
twice (revenue and its growth rate, 收入和收入增长率: the level, then its growth), and a growth
metric named by its own alias (revenue and net profit growth rate, 收入和净利润增速: a level and
a growth, the reading the words give most directly, where either could be meant).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ragspine.agent.modifier_base import GROWTH, Modifier
from ragspine.agent.modifiers import modifier_at
from ragspine.profile.glossary import AliasMatch

_COORDINATED = re.compile(
    r"\s*(?:,|,|、|和|与|及|以及|(?<![a-z])(?:and|&|as\s+well\s+as)(?![a-z]))\s*"
)


def distributed_growth(
    text: str,
    run: list[tuple[str, AliasMatch]],
    metrics: list[AliasMatch],
    entities: list[AliasMatch],
    change: bool,
    parts: list[AliasMatch],
) -> Modifier | None:
    """The growth modifier after the last of the metrics coordinated with ``run``'s first, read
    as written apart from the first, or None."""
    last = run[0][1]
    for kind, m in run[1:]:
        if kind != "metrics" or not _COORDINATED.fullmatch(text, last.end, m.start):
            break
        last = m
    if last is run[0][1] or last.code == run[0][1].code:
        return None  # revenue and its growth rate: the level, then its growth
    mod = modifier_at(text, last, metrics, entities, change, run[0][1].end, False, parts)
    if mod is None or mod.start < last.end or mod.kind != GROWTH:
        return None
    return replace(mod, remote=True)
