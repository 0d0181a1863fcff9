"""How the values of one sentence are told apart: each one's own label, the ends of a range, and
the words a 分别 / respectively list hands out in order.

* label: the words naming a value, from its clause's start (or the value before it) to the
  value, as CJK character pairs and English words: 每日工作不超过 → {每日, 日工, 工作, …};
* range: two values joined by 至 / 到 / - / to (6至8家, six to eight), or between … and, outside
  a from-to pair: the first is its low end, the second its high end (not a change with its
  unit, then the level it reached: 减少20家至876家);
* 分别 / respectively: "新开和关闭的门店分别约为20家和35家" gives 新开 to 20 and 关闭 to 35 when
  the sentence lists as many rise or fall words as values.

``swapped`` finds two claims of one sentence whose labels are swapped against two values of one
source sentence (每日8小时 / 每周40小时 stated as 每日40 / 每周8): each claim's label shares more
with the label the source gives the OTHER value than with its own value's.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ragspine.agent.cues import DIRECTION, FROM_MARK
from ragspine.agent.qualifiers import AND_GAP, BETWEEN, RANGE_GAP
from ragspine.numbers import Quantity

if TYPE_CHECKING:
    from ragspine.agent.claims import Claim
    from ragspine.agent.support import Statement

_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+|[a-z]{3,}")
_LISTED = re.compile(r"分别|(?<![a-z])respectively(?![a-z])")
_STOP = frozenset(
    {"the", "and", "for", "with", "our", "was", "were", "are", "has", "had", "have", "from"}
)  # fmt: skip


_COUNTED = re.compile(r"\s?(?:项|者|个方面|个指标|类|种|个市场|个区域|个地区)")
_LIST_JOIN = re.compile(r"和|与|及|以及|、|(?<![a-z])and(?![a-z])")
_CLAUSE_START = re.compile(r"[。!?!?;;,,:：\n]")


def counts_a_list(text: str, q: Quantity) -> bool:
    """A count of the names listed right before it is the list restated, not a figure:
    坪效和门店EBITDA率两项 (two listed, two counted). A count that is not the list's length
    (香港和东南亚三个市场) stays a claim."""
    if q.kind != "number" or q.value != int(q.value) or not 2 <= q.value <= 9:
        return False
    if not _COUNTED.match(text, q.end):
        return False
    cut = max((m.end() for m in _CLAUSE_START.finditer(text, 0, q.start)), default=0)
    items = [p for p in _LIST_JOIN.split(text[cut : q.start]) if p.strip()]
    return len(items) == q.value


def label_of(view: str, left: int, start: int) -> frozenset[str]:
    """The words naming a value: CJK character pairs and English words before it."""
    words: set[str] = set()
    for run in _CJK_RUN.findall(view[left:start].lower()):
        if run.isascii():
            if run not in _STOP:
                words.add(run)
        else:
            words.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(words)


def range_ends(
    view: str, spans: Sequence[tuple[int, int]], clauses: list[int], paired: set[int]
) -> dict[int, str]:
    """The low and high ends of each range (6至8家, six to eight, between 6 and 8)."""
    out: dict[int, str] = {}
    for i in range(len(spans) - 1):
        (s1, e1), (s2, _) = spans[i], spans[i + 1]
        if i in paired or i + 1 in paired or i in out:
            continue
        c = bisect_right(clauses, s1) - 1
        if c + 1 < len(clauses) and s2 >= clauses[c + 1]:
            continue
        if FROM_MARK.search(view, max(0, s1 - 6), s1):
            continue  # 从6到8: a from-to pair, not a range
        gap = RANGE_GAP.fullmatch(view, e1, s2)
        if gap and gap.group().strip()[:-1] and DIRECTION.search(view, max(0, s1 - 6), s1):
            continue  # 减少20家至876家: a change, then the level it reached
        between = AND_GAP.fullmatch(view, e1, s2) and BETWEEN.search(view, max(0, s1 - 10), s1)
        if gap or between:
            out[i], out[i + 1] = "low", "high"
    return out


def respectively(
    view: str, spans: Sequence[tuple[int, int]], sentences: list[int]
) -> dict[int, int]:
    """Each value of a 分别 / respectively list with the rise or fall word listed for it."""
    out: dict[int, int] = {}
    for m in _LISTED.finditer(view):
        k = bisect_right(sentences, m.start()) - 1
        s0 = sentences[k]
        s1 = sentences[k + 1] if k + 1 < len(sentences) else len(view)
        listed = [i for i, (s, _) in enumerate(spans) if s0 <= s < s1]
        if len(listed) < 2:
            continue
        first = spans[listed[0]][0]
        ways = [-1 if w.group("down") else 1 for w in DIRECTION.finditer(view, s0, first)]
        if len(ways) == len(listed):
            out.update(zip(listed, ways, strict=True))
    return out


def _overlap(a: frozenset[str], b: frozenset[str]) -> int:
    return len(a & b)


def swapped(claims: Sequence[Claim], held: Sequence[Sequence[Statement]]) -> list[int]:
    """The claims whose every supporting source value has its label crossed with another
    claim's (see ``crossed``): each claim's label shares more with the label the source gives
    the other value than with its own value's."""
    out = []
    for i, (a, sources_a) in enumerate(zip(claims, held, strict=True)):
        if sources_a and all(_crossed(a, sa, claims, held, i) for sa in sources_a):
            out.append(i)
    return out


def _crossed(
    a: Claim, sa: Statement, claims: Sequence[Claim], held: Sequence[Sequence[Statement]], i: int
) -> bool:
    if sa.sentence is None:
        return False
    for j, (b, sources_b) in enumerate(zip(claims, held, strict=True)):
        if j == i or b.sentence != a.sentence:
            continue
        for sb in sources_b:
            if sb.sentence != sa.sentence or sb.quantity.value == sa.quantity.value:
                continue
            mine = _overlap(a.label, sa.label), _overlap(b.label, sb.label)
            theirs = _overlap(a.label, sb.label), _overlap(b.label, sa.label)
            if theirs[0] > mine[0] and theirs[1] > mine[1]:
                return True
    return False
