"""A share the documents may state in words: asked of a part no fact holds and no formula gives
(前五名客户销售额占年度销售总额的比例, the top five customers' share of sales), it is answered
from the passages that name the part, which cite the report's own figure, never declined
unread and never computed from the base lines (the part is not a held line).

A report states such a share beside the part it is of (前五名客户销售额27,614.37万元，占年度销售总额
18.20%), so the passages must name the part: where none does, the answer is the honest not-found
naming the share as the question writes it (no number). A share whose part the profile holds
(研发费用占营业收入的比例) is its formula's or declined by ``quantity``; one of a part of the
business the profile cuts facts by (香港占集团收入的比重) is an entity's share. Only the share's
shape is read here: the part is the words before 占 (X占Y的比例, X占比) or before "'s share of" /
"as a percentage of" (X's share of Y, X as a percentage of Y).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.agent.subject_residue import frame_words
from ragspine.agent.subject_words import COMMON_EN
from ragspine.agent.subjects import Subject
from ragspine.profile.model import compact

Span = tuple[int, int]

_SHARE_ZH = re.compile(
    r"\s*(?:的)?\s*(?:占\s*(?:了)?[^,,。??;;]{0,16}?(?:的)?\s*(?:比例|比重|百分比|份额|几成)|占比|比重)"
)
_SHARE_EN = re.compile(
    r"(?:['’]s?)?\s+(?:share\s+of|(?:as\s+)?an?\s+(?:percentage|proportion|share)\s+of)(?![a-z])"
)


def stated_share(text: str, declined: Span) -> Span | None:
    """The span of a share's part inside the ``declined`` phrase (in the folded text), or None
    where the phrase is no share or names no part before it."""
    start, end = declined
    for pattern in (_SHARE_ZH, _SHARE_EN):
        for m in pattern.finditer(text, start, end):
            part = text[start : m.start()].strip()
            if len(part) >= 2 and m.end() <= end:
                return start, start + len(text[start : m.start()].rstrip())
    return None


def share_subject(
    text: str, span: Span, name: str, explained: Sequence[Span] = ()
) -> Subject | None:
    """The subject a stated share is answered by: named as the question names the share, held
    by the passages that name its part; None where ``span`` names no share, or its part holds
    no word the question's other readings leave (``explained``: a metric, an entity, a period;
    上半年收入, 净利润: a held line's share is its formula's or declined, never a passage's)."""
    part = stated_share(text, span)
    if part is None or not _unread(text, part, explained):
        return None
    return Subject(name, compact(text[part[0] : part[1]]), span[0], span[1], True)


def _unread(text: str, part: Span, explained: Sequence[Span]) -> bool:
    """Does the part hold words nothing else explains (前五名客户 in 前五名客户销售额)?"""
    chars = list(text)
    for s, e in explained:
        for i in range(max(s, part[0]), min(e, part[1])):
            chars[i] = " "
    rest = frame_words().sub(lambda m: " " * len(m.group()), "".join(chars)[part[0] : part[1]])
    cjk = re.findall(r"[\u4e00-\u9fff]{2,}", rest)
    latin = [w for w in re.findall(r"[a-z][a-z-]+", rest) if w not in COMMON_EN and len(w) > 2]
    return bool(cjk or latin)
