"""A later clause that points back at the figure an earlier clause asked: 先告诉我香港的收入,
再算一下这笔钱里线上占多少; 台湾的毛利是多少,这个数字占集团的比重是多少; revenue first, then
that figure's share of the group.

A pointing word (这笔, 这个, 这部分, 该, 此, that, this) before a noun that names no metric of its
own, only a figure (钱, 数字, 金额, 数, figure, number, amount), refers to the metric the clause
before asked: the metric is read again on the pointing words, so what the later clause writes
around it (a share, a growth, a per-unit word) modifies the earlier metric, never stands alone
as an unknown name (a quantity the profile lacks is declined, ``elided.elided_at``). A pointing
word before a metric's own word (这笔收入) is that metric already.
"""

from __future__ import annotations

import re

from ragspine.profile.glossary import AliasMatch

POINTED = (
    r"(?:这笔|那笔|这个|那个|这部分|这一|该|此|(?<![a-z])(?:that|this|the\s+same)\s+)\s*"
    r"(?:钱|数字|数据|金额|数额|数|款项|(?<![a-z])(?:figure|number|amount|sum)(?:['’]s)?(?![a-z]))"
)
_POINTED = re.compile(POINTED)
# What ends a clause: the pointing word is in a later one than the metric it points to.
_CLAUSE_BREAK = re.compile(r"[,,;;。??!!]|(?<![a-z])(?:then|and)(?![a-z])|再|然后")


def with_anaphors(text: str, scan: list[tuple[str, AliasMatch]]) -> list[tuple[str, AliasMatch]]:
    """The scan with the earlier clause's metric read again on each noun pointing back to it."""
    metrics = [m for k, m in scan if k == "metrics"]
    taken = [(m.start, m.end) for _, m in scan]
    added: list[tuple[str, AliasMatch]] = []
    for p in _POINTED.finditer(text):
        start, end = p.span()
        if any(s < end and start < e for s, e in taken):
            continue
        before = [m for m in metrics if m.end <= p.start()]
        if not before:
            continue
        last = max(before, key=lambda m: m.end)
        if _CLAUSE_BREAK.search(text, last.end, p.start()) is None:
            continue  # 收入这个数字: the same clause names it
        added.append(("metrics", AliasMatch(last.code, start, end)))
    return sorted([*scan, *added], key=lambda km: km[1].start)
