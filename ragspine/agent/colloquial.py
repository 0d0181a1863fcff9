"""Colloquial verbs that name a quantity when no metric word does: what was sold (卖了多少钱,
how much did Taiwan sell) is revenue, what was earned (赚了多少, 挣了多少钱, how much did the
group earn) is net profit. Read as the profile's metric the shipped group anchors, or as the
shipped quantity (declined by name) where the profile holds none.

Not a verb with a counter after it (卖了多少家门店 counts stores), and never beside a metric
word (毛利赚了多少: the metric named is the one asked).
"""

from __future__ import annotations

import re

from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch
from ragspine.profile.vocabulary import group_anchor

# A counter after 多少 counts things, not money.
_COUNTER = r"(?![家个間间件台种款座所位名人只头张份套辆次笔单户])"
_VERBS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "REVENUE",
        re.compile(
            rf"(?:卖|销售|卖出|售出)了?(?:多少钱|多少{_COUNTER})|"
            r"(?<![a-z])how\s+much\s+(?:money\s+)?(?:did|does|do|will)\s+[^?？.]{1,40}?\s+"
            r"(?P<en>sell|bring\s+in|take\s+in)(?![a-z])"
        ),
    ),
    (
        "NET_PROFIT",
        re.compile(
            rf"(?:赚|挣|净赚)了?(?:多少钱|多少{_COUNTER})|"
            r"(?<![a-z])how\s+much\s+(?:money\s+)?(?:did|does|do|will)\s+[^?？.]{1,40}?\s+"
            r"(?P<en>earn|net)(?![a-z])"
        ),
    ),
    (  # how big the store network is: how many stores (the network alone is a document topic)
        "STORE_COUNT",
        re.compile(
            r"门店网络(?:有多大|多大|规模有多大)|"
            r"(?<![a-z])how\s+(?:big|large|extensive)\s+(?:is|was|were)\s+[^?？.]{0,40}?"
            r"(?P<en>store\s+(?:network|footprint|estate))(?![a-z])"
        ),
    ),
)


def colloquial_matches(text: str, profile: DomainProfile) -> list[tuple[str, AliasMatch]]:
    """(kind, match) for each colloquial verb in folded ``text``, over the verb's span."""
    out = []
    for group, pattern in _VERBS:
        for m in pattern.finditer(text):
            start, end = m.span("en") if m.group("en") else m.span()
            kind, code = group_anchor(group, profile).split(":", 1)
            out.append((kind, AliasMatch(code, start, end)))
    return out
