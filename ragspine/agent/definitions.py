"""Concept questions (什么是在建工程, 存货的定义是什么, What is a quick ratio): answered only from
a passage that defines the term, or honestly not at all.

A report's accounting policies define many line items; what they do not define (现金比率, 财务杠杆)
must not be answered with whatever passage mentions the word, least of all one full of the
company's figures. Deterministic: a passage defines a term when the term is followed, within
a few characters, by a defining verb (是指, 系指, 包括, 分为, 按…计价), and it is prose, not a
table row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.agent.wording import MESSAGES, ZH
from ragspine.profile import DomainProfile
from ragspine.profile.model import compact
from ragspine.retrieval.base import NarrativeHit
from ragspine.text import fold

_ZH_TERM = re.compile(
    r"^(?:请问|请解释一下|请解释|解释一下)?\s*(?:什么是|什么叫)\s*(?P<a>.+?)\s*[??。]*$|"
    r"^(?:请问)?\s*(?P<b>.+?)\s*(?:是什么意思|是指什么|指的是什么|的定义是什么|的定义|的含义是什么|"
    r"的含义|是什么)\s*[??。]*$"
)
_EN_TERM = re.compile(r"^(?:what (?:is|are)|define)\s+(?:an?\s+|the\s+)?(?P<c>.+?)\s*[?.]*$")
# What follows a term that a passage defines: a defining verb within a few characters of the
# same clause, or a bare 是/为 (or =, a formula) right after it.
_DEFINING = (
    r"(?:[^。;;,,]{0,8}?(?:是指|系指|指的是|定义为|包括|分为|按照|按|采用|确认为|核算|计价|"
    r"means|refers)|\s*的?\s*(?:是|为|=))"
)
# A figure as statements print it: 1,234.56 or 1234.56; a passage holding one is a table row.
_AMOUNT = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d{2}(?!\d)")

NO_DEFINITION = MESSAGES["definition.none"][ZH]  # the Chinese template, {term} to fill


def definition_term(question: str) -> str | None:
    """The term a concept question asks about, or None if it is not one."""
    text = fold(question).strip()
    m = _ZH_TERM.match(text) or _EN_TERM.match(text)
    if not m:
        return None
    term = next(g for g in m.groups() if g is not None).strip(" 「」“”\"'")
    return term if 1 < len(term) <= 30 else None


def defines(term: str, passage: str) -> bool:
    """Whether the passage defines the term: names it, then a defining verb, in prose."""
    text = fold(passage)
    if _AMOUNT.search(text) or len(text) < len(term) + 6:
        return False
    # 合营安排的分类及…方法: the passage may name only the head noun, 合营安排
    names = dict.fromkeys([fold(term), fold(term).split("的")[0]])
    return any(re.search(re.escape(n) + _DEFINING, text) for n in names if len(n) > 1)


_STRONG = r"\s*(?:是指|系指|指的是|定义为)"


def defined_names(term: str, profile: DomainProfile) -> list[str]:
    """The profile's other names for the term: where it is one of an item's names (a metric's
    or derived metric's alias, Chinese or English name; a word of a synonyms group), each of that
    item's other names. An English term is so looked for in a report written in Chinese
    (construction in progress → 在建工程), and a Chinese one in English documents."""
    key = compact(term)
    groups = [
        [*m.aliases, *(n for n in (m.name_zh, m.name_en) if n)]
        for m in [*profile.metrics, *profile.derived_metrics]
    ]
    groups += [list(g) for g in profile.synonyms]
    out: dict[str, str] = {}  # one name per spelling: 同店銷售 is 同店销售
    for group in groups:
        if any(compact(n) == key for n in group):
            out |= {compact(n): n for n in group if compact(n) != key and compact(n) not in out}
    return list(out.values())


def defining_hits(
    term: str, hits: Sequence[NarrativeHit], also: Sequence[str] = ()
) -> list[NarrativeHit]:
    """The passages that define the term (or one of ``also``, its other names), a definition
    proper (X是指…) before a rule that only says how X is measured (X按…计价); otherwise in
    retrieval order."""
    names = [term, *also]
    defining = [h for h in hits if any(defines(n, h.text) for n in names)]
    strong = re.compile("|".join(re.escape(fold(n)) + _STRONG for n in names))
    return sorted(defining, key=lambda h: strong.search(fold(h.text)) is None)
