"""A declined name never begins with the measure word its number took: 多少名区域经理 declines
「区域经理」, 几家旗舰店 「旗舰店」, 多少个配送中心 「配送中心」.

Chinese counts with a measure word between the number and the noun (名, 个, 家, 位, 项, 间, 条,
种, 款, 台, 次 …). Where a number (多少, 几, a digit, 一 … 万) stands right before the declined
phrase and the phrase opens with a measure word the segmenter cuts off as a word of its own, the
measure word is the count's, not the name's: the noun phrase after it is what is named. A noun
that merely starts with such a character (项目, 份额, 位置, 名称) is one word and stays whole.
"""

from __future__ import annotations

import re

from ragspine.retrieval.tokenize import segment
from ragspine.text import fold

_MEASURE = frozenset("名个家位项间条种款台次座所只件笔宗起处张份支批辆头匹栋层")
_NUMBER_END = re.compile(r"(?:多少|几|\d|[一二两三四五六七八九十百千万])\s*$")


def without_measure_word(name: str | None, question: str) -> str | None:
    """``name`` (the question's own words) without a leading measure word a number took."""
    if not name or len(name) < 3:
        return name
    at = question.find(name)
    if at < 0 or not _NUMBER_END.search(fold(question[:at])):
        return name
    head = fold(name[0])
    if head not in _MEASURE or segment(fold(name))[0] != head:
        return name
    return name[1:].strip()
