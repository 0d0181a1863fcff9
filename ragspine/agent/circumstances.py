"""A circumstance the question sets its ask in: 在旅游业复苏、内地访客回流的共同带动下, 在公司加强
研发的背景下, 受汇率影响, 随着新店开业, amid a tourism rebound, driven by new stores.

Written as a clause of its own (between commas, or in brackets, or before the first comma), it
says why or under what conditions a figure moved; it never says whose figure is asked nor which
quantity: the clause's entity words (内地访客 is no mainland China), product words (宠物疫苗 is no
subject the passages must name) and metric words are not the question's. So the clause is blanked
(spaces, the text's length kept) before the question is read, and the sentence around it is read
as if it stood alone: 香港2024年的收入,…,同比增长了百分之多少 is Hong Kong's revenue growth.

A clause is a circumstance only when it opens with a circumstance word (在 … 下 with a noun
of circumstance before 下: 背景 / 带动 / 推动 / 影响 …; 受 … 影响 / 冲击 / 拖累; 随着, 由于,
得益于, 尽管; amid, against the backdrop of, driven by, thanks to, due to, despite …) and ends
there: it asks nothing (no 多少, 什么, what, how …) and sets no condition the figure is measured
under (剔除, 不含, 口径, excluding, at constant currency: those words make the quantity). 在 … 下
and 受 … 影响 frame one even inside a clause, from the nearest opener. A period it names is
kept where the rest of the question names none (在2024年消费疲软的背景下,香港收入增长了多少:
2024 is still the year asked).
"""

from __future__ import annotations

import re
from datetime import date

from ragspine.profile.periods import find_periods
from ragspine.text import fold_with_index

_NOUNS_ZH = (
    r"背景|带动|推动|拉动|驱动|影响|作用|支持|帮助|形势|环境|压力|冲击|趋势|局面|努力|引领|助力|"
    r"加持|刺激|拖累|制约|利好|提振"
)
# Written inline (no mark around it), 在 … 下 and 受 … 影响 still frame a circumstance: from the
# nearest opener before the frame's end (在 not inside 现在, 存在, 正在 …; 受 not inside 接受 …).
_INLINE = re.compile(
    rf"(?<![现存正所实自内])在(?P<a>[^在,,;;::??()()]{{2,40}}?)(?:的)?(?:共同|持续|大力|强劲)?"
    rf"(?:{_NOUNS_ZH})之?下|"
    r"(?<![接享感承遭忍])受(?:到)?(?P<b>[^受,,;;::??()()]{2,30}?)(?:的)?(?:影响|冲击|拖累)"
)
# A condition the figure is measured under is no circumstance: 在剔除汇率影响的情况下, 不含线上,
# 按固定汇率计, excluding …, at constant currency: the quantity itself (exclusions, adjusted
# measures) is read from those words.
_CONDITION = re.compile(
    r"不含|不包括|不包含|剔除|扣除|除去|排除|不考虑|不计|假设|假如|如果|口径|汇率不变|固定汇率|恒定汇率|"
    r"按.{1,8}计|(?<![a-z])(?:exclud\w*|without|assum\w*|constant|like[\s-]+for[\s-]+like|"
    r"adjust\w*|basis)(?![a-z])"
)
_CIRCUMSTANCE = re.compile(
    rf"(?:在|于)(?:.{{2,}}?)(?:的)?(?:共同|持续|大力|强劲)?(?:{_NOUNS_ZH})之?下|"
    rf"受(?:到)?(?:.{{2,}}?)(?:的)?(?:{_NOUNS_ZH})|"
    r"(?:随着|伴随着?|由于|得益于|受益于|尽管|虽然|面对|面临)(?:.{2,})|"
    r"(?:amid(?:st)?|against\s+(?:the\s+|a\s+)?backdrop\s+of|on\s+the\s+back\s+of|"
    r"(?:driven|helped|boosted|supported|buoyed|fu?ell?ed|spurred|propelled|hit|hurt|weighed(?:\s+down)?)"
    r"\s+(?:(?:largely|mainly|partly|chiefly|in\s+part)\s+)?by|"
    r"(?:thanks|due|owing)\s+(?:(?:largely|mainly|partly|chiefly|in\s+part)\s+)?to|because\s+of|"
    r"in\s+(?:the\s+)?(?:context|light)\s+of|despite|in\s+spite\s+of|as\s+a\s+result\s+of)"
    r"\s+\S.*"
)
# A clause that asks something is part of the question, never a circumstance.
_ASKS = re.compile(
    r"[??]|多少|几|什么|哪|为何|为什么|怎么|怎样|如何|是否|吗|"
    r"(?<![a-z])(?:what|how|which|why|whether|who|when|where)(?![a-z])"
)
_MARKS = re.compile(r"[,,;;::]")
_BRACKETS = re.compile(r"[((\[【]([^()\[\]【】()]*)[))\]】]")
_LEFT = re.compile(r"[^\s??,,]")  # something is left of the question
_ANY_DAY = date(2000, 1, 1)  # periods are found, not resolved: any reference day will do


def without_circumstances(question: str) -> str:
    """``question`` with each circumstance clause blanked to spaces (its length kept), the
    mark ending it too; a period inside it is kept where no other part of the question names one."""
    text, index = fold_with_index(question)
    found = [*_between_marks(text), *_in_brackets(text), *_inline(text)]
    if not found:
        return question
    chars = list(question)
    for start, end, blank_end in found:
        rest = text[:start] + " " * (blank_end - start) + text[blank_end:]
        keep = [] if find_periods(rest, _ANY_DAY) else _periods(text, start, end)
        for i in range(start, blank_end):
            if not any(s <= i < e for s, e in keep):
                chars[index[i]] = " "
    blanked = "".join(chars)
    return blanked if _LEFT.search(blanked) else question


def _between_marks(text: str) -> list[tuple[int, int, int]]:
    """Clauses between clause marks (or the start and a mark) that are circumstances: their
    span, and where the blank ends (after the mark closing them)."""
    cuts = [0, *[m.start() for m in _MARKS.finditer(text)], len(text)]
    out = []
    for i in range(len(cuts) - 1):
        start = cuts[i] + (1 if i else 0)  # after the mark opening it
        end = cuts[i + 1]
        if i + 1 == len(cuts) - 1 and i == 0:
            continue  # no mark at all: the whole question is no clause of it
        if not _circumstance(text, start, end):
            continue
        closing = end + 1 if end < len(text) else len(_END.sub("", text[start:end])) + start
        out.append((start, end, closing))
    return out


def _in_brackets(text: str) -> list[tuple[int, int, int]]:
    """A circumstance written in brackets (香港的收入(在内地访客回流的带动下)增长了多少)."""
    return [
        (m.start(), m.end(), m.end())
        for m in _BRACKETS.finditer(text)
        if _circumstance(text, *m.span(1))
    ]


def _inline(text: str) -> list[tuple[int, int, int]]:
    """在…的带动下, 受…影响 written inside a clause, where they ask nothing and set no condition."""
    out = []
    for m in _INLINE.finditer(text):
        body = m.group("a") or m.group("b") or ""
        if not (_ASKS.search(body) or _CONDITION.search(body)):
            out.append((m.start(), m.end(), m.end()))
    return out


def _circumstance(text: str, start: int, end: int) -> bool:
    """The clause (its question mark or full stop aside, where it ends the question) opens with
    a circumstance word, ends with its frame, asks nothing and sets no condition."""
    clause = _END.sub("", text[start:end]).strip()
    if not clause or _ASKS.search(clause) or _CONDITION.search(clause):
        return False
    lead = len(text[start:end]) - len(text[start:end].lstrip())
    return _CIRCUMSTANCE.fullmatch(text, start + lead, start + lead + len(clause)) is not None


_END = re.compile(r"[\s??.。!!]+$")


def _periods(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return [(pm.start, pm.end) for pm in find_periods(text, _ANY_DAY) if start <= pm.start < end]
