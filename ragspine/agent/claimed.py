"""A figure the user states, to be checked: 有人说香港的收入增长了15%,这个说法对吗; did revenue grow
15% in 2024; I heard revenue rose by 15%, is that true.

The user's percentage after a change verb is a claim about the growth rate: the question asks
the held rate (what the user compares the claim with), never the level, and the claimed number
is the user's, not a fact (the answer gives the held rate; the claim is quoted, never answered).
It is read as a claim only where the question asks for a check (对吗 / 对不对 / 属实 / 是真的吗 /
准确吗 / 是吗 / a question ending in 吗; is that right / true / correct, is it true, did … ?):
收入增长了15%,利润是多少 states a premise, and stays one.

A hearsay lead (有人说 / 听说 / 据说 / 网上说, someone said, I heard, they say) introduces the
claim: its words name nobody the question is about, and are blanked like a greeting.
"""

from __future__ import annotations

import re

from ragspine.text import fold_with_index

_CLAIMED_RATE = re.compile(
    r"(?:增长|增加|上升|下降|减少|下滑|提高|提升|降低|上涨|下跌|增|涨|跌|降)(?:了)?\s*"
    r"(?:约|大约|超过|近|将近|足足)?\s*\d+(?:\.\d+)?\s*%|"
    r"(?<![a-z])(?:grew|grow|grown|rose|rise|risen|fell|fall|fallen|increased|decreased|declined|"
    r"dropped|gained|jumped|climbed)\s+(?:by\s+)?(?:about\s+|around\s+|over\s+|nearly\s+|"
    r"roughly\s+)?\d+(?:\.\d+)?\s*%"
)
_CHECK = re.compile(
    r"对吗|对不对|是否属实|属实吗|属实|是真的吗|真的吗|准确吗|正确吗|没错吧|是吗|是不是|吗\s*[??]?\s*$|"
    r"(?<![a-z])(?:is\s+(?:that|this|it)\s+(?:right|true|correct|accurate)|is\s+it\s+true|"
    r"true\s+that|right\s*\?)(?![a-z])|^\s*(?:did|has|have|was|were|is)(?![a-z])"
)
_HEARSAY = re.compile(
    r"^\s*(?:有人说|有人称|听说|据说|网上说|网上有人说|媒体说|外界说|有报道说|我听说|听人说|"
    r"(?:someone|somebody|people|they)\s+(?:said|says|say|told\s+me|claims?|claimed)(?:\s+that)?|"
    r"i\s+(?:heard|read)(?:\s+that)?|it\s+is\s+said(?:\s+that)?)\s*[,,:]?\s*"
)


def claimed_rate(text: str) -> re.Match[str] | None:
    """The change verb and the user's percentage a check is asked of, in folded ``text``. Every
    claim ends on its % sign: a text without one is not searched."""
    if "%" not in text:
        return None
    claim = _CLAIMED_RATE.search(text)
    return claim if claim and _CHECK.search(text) else None


def without_hearsay(question: str) -> str:
    """``question`` with a hearsay lead (有人说, I heard) blanked to spaces, its length kept."""
    text, index = fold_with_index(question)
    lead = _HEARSAY.match(text)
    if lead is None or lead.end() == 0 or lead.end() >= len(text):
        return question
    chars = list(question)
    for i in range(index[0], index[lead.end() - 1] + 1):
        chars[i] = " "
    return "".join(chars)
