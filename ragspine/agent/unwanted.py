"""A quantity the question says it does not want: I need the gross profit line, not the sales
line above it; 我问的不是同店那个; Not the cash and cash equivalents balance, the ratio.

A negation cue (不是, 而非, 并非, 不要, 别给, 不需要; a clause opened by "not", "rather than",
"instead of") written right before a quantity's name (the, a, 那个 between them at most) says
that quantity is not asked: its clause, from the cue to the clause's end (a comma, a full stop,
"but", 而是), is blanked before the question is read, so neither the excluded quantity nor the
clause's other words (the line above it, 那个) are read as another subject. Only where the
question still names a quantity outside the clause: a negation with nothing else asked
(收入不是下降了吗) is left as it is. Blanking keeps every position, so spans still map to the
question's words. A part left out (不含线上, not including online) is exclusions.py's; a
retraction (不是 X,是 Y) is self_corrections.py's.

A quantity written with its figure (香港2024年40.1%的毛利率,对应的毛利金额是多少; given a 40.1%
gross margin, what was the gross profit) is stated as given, not asked: where another quantity
is named outside it, the figure and its name are blanked, and the other one is asked. A figure
is a number with its unit (%, 百分点, 亿, 万, 元, million, …): a bare year (2024 gross margin)
is no figure, nor is one unit of a ratio (每赚1元净利润, per 1 yuan of profit).
"""

from __future__ import annotations

import re

from ragspine.profile.glossary import Glossary

_CUE = re.compile(
    r"(?<!是)(?:不是|而非|并非|不要|别给我?|别要|不需要|不用给?)\s*(?:那个|这个|那條|的)?\s*|"
    r"(?:^|(?<=[,,.。;;:!?!?])|(?<![a-z])(?:and|but)\s+)\s*not\s+(?:the\s+|a\s+|an\s+|its\s+|that\s+)?|"
    r"(?<![a-z])(?:rather\s+than|instead\s+of)\s+(?:the\s+|a\s+|an\s+|its\s+)?"
)
# Where the excluded clause ends: a stop, or the word that turns to what is asked.
_CLAUSE_END = re.compile(r"[,,.。;;!!??]|而是|(?<![a-z])but(?![a-z])")
_QUANTITIES = ("metrics", "quantity")
_PER = re.compile(r"每\S{0,3}$|(?<![a-z])(?:per|each|every)\s+(?:\S+\s+)?$")
_FIGURE = re.compile(
    r"\d[\d,]*(?:\.\d+)?\s*(?:%|个?百分点|亿元?|万元?|百万美元|百万|元|"
    r"(?:million|billion|bn|yuan|dollars?)(?![a-z]))\s*(?:的)?\s*$"
)


def without_unwanted(text: str, glossary: Glossary) -> str:
    """``text`` with each clause naming a quantity not wanted blanked (see the module)."""
    scan = [m for k, m in glossary.scan(text) if k in _QUANTITIES]
    if not scan:
        return text
    blank: list[tuple[int, int]] = []
    for cue in _CUE.finditer(text):
        if not any(m.start == cue.end() for m in scan):
            continue
        stop = _CLAUSE_END.search(text, cue.end())
        end = stop.start() if stop else len(text)
        outside = [m for m in scan if m.end <= cue.start() or m.start >= end]
        if outside:
            blank.append((cue.start(), end))
    for m in scan:
        figure = _FIGURE.search(text, max(0, m.start - 24), m.start)
        if figure and _PER.search(text, max(0, figure.start() - 6), figure.start()):
            continue  # 每赚1元净利润: a unit of a ratio, no figure stated
        if figure and any(
            o is not m and (o.end <= figure.start() or o.start >= m.end) for o in scan
        ):
            blank.append((figure.start(), m.end))  # 40.1%的毛利率: given, not asked
    chars = list(text)
    for start, end in blank:
        chars[start:end] = " " * (end - start)
    return "".join(chars)
