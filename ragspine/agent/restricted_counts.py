"""A count of a subset: a clause restricting what is counted (获得LEED认证的门店,
门店配备了自助收银机, stores with self-checkout, stores that have LEED certification) asks how
many of the counted things have that property. The count held is of them all, so it answers
none of these: the
question is declined, naming the restricting phrase.

A restriction is a verb of having, gaining or offering (获得, 配备, 拥有, 设有, 提供, 通过, 安装,
引入; have, offer, feature, carry, with, equipped with) with its object, written right after the
counted noun, or before it joined by 的 (Chinese) or in a relative clause (that have, with) in
English. Where a count is placed (在香港, in Hong Kong) or dated (2024年底, at the end of 2024) the
parser reads the entity and the period: a place or a date is no restriction, and "did ACME have"
(the company as the subject of have) is the question's frame, not a clause of the noun.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

Span = tuple[int, int]

_HAVE_ZH = (
    r"(?:获得|取得|通过|配备|配置|配有|拥有|具有|具备|设有|设置|提供|支持|安装|引入|采用|开通|接入)"
)
# 门店获得了LEED认证, 门店配备了自助收银机: the clause after the noun, to the clause's end.
_AFTER_ZH = re.compile(rf"\s*(?:已经?|都|均)?\s*{_HAVE_ZH}\s*(?:了|过)?\s*(?P<obj>[^,,。??;;]+)")
# 获得LEED认证的门店: the clause before the noun, joined by 的.
_BEFORE_ZH = re.compile(
    rf"{_HAVE_ZH}\s*(?:了|过)?\s*(?P<obj>[^,,。??;;的]{{1,20}})的\s*(?:门店|店铺|分店|店|网点)?\s*$"
)
# stores with self-checkout, stores that have LEED certification, stores offering a pharmacy.
_AFTER_EN = re.compile(
    r"\s+(?:(?:that|which)\s+(?:have|has|had|offer(?:s|ed)?|feature(?:s|d)?|carr(?:y|ies|ied)|"
    r"provide(?:s|d)?|hold(?:s)?|held|are\s+equipped\s+with|were\s+equipped\s+with)|"
    r"with|having|offering|featuring|carrying|providing|equipped\s+with|"
    r"have|has|had|offer|feature|carry|hold|held)\s+"
    r"(?P<obj>(?!(?:been|be|closed|opened|open|in|at|by|on|to|of|for|during|the\s+end|acme|"
    r"it|they|there|we)(?![a-z]))[a-z][a-z&'/-]*(?:\s+(?!(?:in|at|by|on|during|for|did|does|"
    r"do|at|and|or|as)(?![a-z]))[a-z][a-z&'/-]*){0,3})"
)
# What the object may be without restricting: a period or a place the parser reads instead.
_NOT_AN_OBJECT = re.compile(r"^(?:\d|年|月|季|在|于|位于)")


def restricted_count(text: str, count_spans: Sequence[Span]) -> Span | None:
    """The span of the restricting clause and the count noun it restricts, or None."""
    for start, end in count_spans:
        after = _AFTER_ZH.match(text, end) or _AFTER_EN.match(text, end)
        if after is not None and not _NOT_AN_OBJECT.match(after.group("obj").strip()):
            return start, after.end("obj")
        before = _BEFORE_ZH.search(text, max(0, start - 30), start)
        if before is not None:
            return before.start(), end
    return None
