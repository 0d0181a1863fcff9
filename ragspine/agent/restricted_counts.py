"""A count of a subset: a predicate restricting what is counted (门店亏损, 门店是24小时营业的,
获得LEED认证的门店, stores that made a loss, stores that are open 24 hours, stores with a
pharmacy) asks how many of the counted things have that property. The count held is of them all,
so it answers none of these: the question is declined, naming the restricted noun phrase
(「亏损门店」, "loss-making stores"), never the whole count.

The rule, by where the predicate stands (folded text: simplified, lower case):

- **Chinese, after the counted noun** (多少家门店亏损, 门店中亏损的有几家): any word of the
  clause after the noun, or between the noun and 有多少, that the parser does not read and that
  is not the count's own frame is a predicate. Only a count asked with 多少 or 几: after a
  metric's name the words are a condition (门店数超过170家) or the question (门店规模有多大).
  The frame: a place or a period the parser reads
  (在香港, 2024年末), a preposition or verb of location (在, 位于, 分布在), a word of total or time
  (一共, 目前, 全球), a word saying the stores operate (营业, 运营, 在营), a question word (分别,
  哪些) and the particles (呢, 吗, 了, 是…的).
- **Chinese, before the noun, joined by 的** (获得LEED认证的门店): a verb of having or gaining with
  its object.
- **English, after the noun**: a relative clause (that made a loss; not "that ACME operates":
  the company as its subject is the question's frame), a copula with a complement that is not a
  place, a period or the stores operating (were loss-making, are open 24 hours; not "are there",
  "are located in Taiwan", "are still open"), a finite verb of its own (stores made a loss; not
  "does ACME have", "operate in"), or with / having / offering and their object.

A place or a period is never a predicate: the parser reads it as the count's entity and period.
The restricted noun phrase is named as the language writes it: a one-word Chinese predicate glues
before the noun (亏损门店), a longer one takes 的 (24小时营业的门店), a verb of having keeps its
object last, as written (门店获得了LEED认证: the feature named whole); an English copula with one
word puts it before the noun (loss-making stores), a longer complement after it (stores open 24
hours), a clause after the noun with that (stores that made a loss).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ragspine.agent.restricted_words import (
    AFTER_EN,
    BEFORE_ZH,
    EN_COMPARE,
    EN_COPULA,
    EN_FRAME_WORDS,
    EN_PREPOSITIONS,
    EN_SUBJECT_VERBS,
    HAVE_ZH,
    ZH_FRAME,
    ZH_PARTICLES,
)
from ragspine.agent.span_masks import blanked

Span = tuple[int, int]

_CLAUSE_END = re.compile(r"[,，。?？!！;；:：]")
_CONTENT_ZH = re.compile(r"[\u4e00-\u9fffa-z0-9]")
_WORD_EN = re.compile(r"[a-z0-9][a-z0-9&'/-]*")
# The count's own frame inside a Chinese clause: each word removed before content is looked for.
_FRAME_ZH_RE = re.compile("|".join(sorted(ZH_FRAME, key=len, reverse=True)))


@dataclass(frozen=True)
class Restriction:
    """The counted noun (``noun``) and the predicate restricting it (``predicate``), with how the
    restricted phrase is named: ``glued`` (亏损门店, loss-making stores: before the noun),
    ``de`` (24小时营业的门店), ``written`` (门店有停车场: a verb of having, its object last),
    ``after`` (stores open 24 hours, stores with a pharmacy) or ``that`` (stores that made a
    loss)."""

    noun: Span
    predicate: Span
    form: str

    @property
    def span(self) -> Span:
        return min(self.noun[0], self.predicate[0]), max(self.noun[1], self.predicate[1])

    def name(self, said: Callable[[Span], str]) -> str:
        """The restricted noun phrase in the question's own words (``said``: a span's words)."""
        noun, pred = said(self.noun), said(self.predicate)
        if self.form == "glued":
            return f"{pred}{noun}" if not pred.isascii() else f"{pred} {noun}"
        if self.form == "de":
            return f"{pred}的{noun}"
        if self.form == "written":
            return f"{noun}{pred}"
        if self.form == "that":
            return f"{noun} that {pred}"
        return f"{noun} {pred}"


def restricted_count(
    text: str, count_spans: Sequence[Span], read: Sequence[Span] = ()
) -> Restriction | None:
    """The predicate restricting a count in ``count_spans`` (the module's rule), or None.
    ``read``: spans the parser reads (entities, places, periods, cues): never a predicate."""
    read = [r for r in read if r not in count_spans]  # the count's own words are read apart
    for start, end in count_spans:
        found = _english(text, (start, end), read) or _chinese(text, (start, end), read)
        if found is not None:
            return found
        before = BEFORE_ZH.search(text, max(0, start - 30), start)
        if before is not None:
            noun = _noun_zh(text, (start, end))
            return Restriction(noun, (before.start(), before.end("obj")), "de")
    return None


def _noun_zh(text: str, span: Span) -> Span:
    """The counted noun inside a Chinese count's span: after 多少家, or before 有多少家."""
    start, end = span
    lead = re.match(r"(?:多少|几)\s*[家间个名位人]?\s*", text[start:end])
    if lead is not None and lead.end() > 0:
        return start + lead.end(), end
    tail = re.search(
        r"[^\u4e00-\u9fff]|(?:一共|共|总共|合计|有|多少|几|中|里|当中|之中)", text[start:end]
    )
    return (start, start + tail.start()) if tail is not None and tail.start() > 0 else span


def _unread(text: str, span: Span, read: Sequence[Span]) -> str:
    """The span's text with every read span and frame word blanked out."""
    part = blanked(text, read)[span[0] : span[1]]
    return _FRAME_ZH_RE.sub(" ", part)


def _chinese(text: str, count: Span, read: Sequence[Span]) -> Restriction | None:
    start, end = count
    if not re.search(r"多少|几", text[start:end]):  # 门店数是多少: a metric's name, no count asked
        return None
    noun = _noun_zh(text, count)
    inner = re.match(
        r"(?:中|里|当中|之中)?(?P<p>[^,，。?？;；]*?)的?\s*有\s*(?:多少|几)", text[noun[1] : end]
    )
    if inner is not None and inner.group("p") and noun[1] < end:
        p = (noun[1] + inner.start("p"), noun[1] + inner.end("p"))
        if _CONTENT_ZH.search(_unread(text, p, read)):
            return _zh_restriction(text, noun, p)
    stop = next((m.start() for m in _CLAUSE_END.finditer(text, end)), len(text))
    rest = ZH_PARTICLES.search(text, end, stop)
    p = (end, rest.start() if rest is not None else stop)  # 亏损了吗: without the particles
    lead = re.match(r"\s*(?:是|都是|均为|为)?\s*", text[p[0] : p[1]])
    p = (p[0] + (lead.end() if lead else 0), p[1])
    if p[1] > p[0] and _CONTENT_ZH.search(_unread(text, p, read)):
        return _zh_restriction(text, noun, p)
    return None


def _zh_restriction(text: str, noun: Span, pred: Span) -> Restriction:
    """A one-word predicate glues before the noun (亏损门店); a longer one takes 的."""
    import rjieba

    s, e = pred
    while e > s and text[e - 1] in "的了过 ":
        e -= 1
    if HAVE_ZH.match(text, s):  # 门店获得了LEED认证: the feature named last, whole
        return Restriction(noun, (s, e), "written")
    words = [w for w in rjieba.cut(text[s:e]) if w.strip()]
    return Restriction(noun, (s, e), "glued" if len(words) == 1 else "de")


def _english(text: str, count: Span, read: Sequence[Span]) -> Restriction | None:
    start, end = count
    if not re.match(r"how\s+many", text[start:end]):
        return None
    noun_at = re.search(r"[a-z'-]+$", text[start:end])
    noun = (start + noun_at.start(), end) if noun_at else count
    stop = next((m.start() for m in _CLAUSE_END.finditer(text, end)), len(text))
    have = AFTER_EN.match(text, end)
    if have is not None and not _inside(have.start("obj"), read):
        return Restriction(noun, (have.start("verb"), have.end("obj")), "after")
    words = [(m.group(), m.span()) for m in _WORD_EN.finditer(text, end, stop)]
    words = [(w, s) for w, s in words if not _inside(s[0], read)]
    while words and words[0][0] in EN_PREPOSITIONS:  # in Taiwan: read; in malls: a predicate
        if len(words) > 1 and _adjacent(text, words[0], words[1]):
            content = _content(words[1:], stop_at_place=True)
            if content:
                return Restriction(noun, (words[0][1][0], content[-1][1][1]), "after")
        words = words[1:]
    if not words:
        return None
    first = words[0][0]
    if first in ("that", "which", "who") and len(words) > 1:
        if not _adjacent(text, words[0], words[1]):  # that ACME operates: the company's clause
            return None
        content = _content(words[1:])
        return Restriction(noun, (words[1][1][0], content[-1][1][1]), "that") if content else None
    if first in EN_COPULA:
        content = _content(words[1:])
        if not content:
            return None
        if len(content) == 1 and _adjacent(text, words[0], content[0]):  # were loss-making
            return Restriction(noun, content[0][1], "glued")
        return Restriction(noun, (words[1][1][0], content[-1][1][1]), "after")
    if first in EN_FRAME_WORDS or first in EN_SUBJECT_VERBS:
        return None  # the question's own verb (does ACME have), or the stores operating
    content = _content(words)
    return Restriction(noun, (words[0][1][0], content[-1][1][1]), "that") if content else None


def _inside(at: int, read: Sequence[Span]) -> bool:
    return any(s <= at < e for s, e in read)


def _adjacent(text: str, a: tuple[str, Span], b: tuple[str, Span]) -> bool:
    """Whether word ``b`` is the next word after ``a`` (no read name between them)."""
    return _next_word_at(text, a[1][1]) == b[1][0]


def _next_word_at(text: str, at: int) -> int:
    m = _WORD_EN.search(text, at)
    return m.start() if m else -1


def _content(
    words: Sequence[tuple[str, Span]], stop_at_place: bool = False
) -> list[tuple[str, Span]]:
    """The predicate's words: up to the question's own clause (did ACME have), without the
    frame's words (located, in, there, still, open alone); ``stop_at_place``: a noun phrase
    after a preposition ends at the next frame word (in malls did ACME have)."""
    out: list[tuple[str, Span]] = []
    for w, span in words:
        if (w in ("did", "does", "do", "has", "have", "had") and out) or w in EN_COMPARE:
            break
        if stop_at_place and w in EN_FRAME_WORDS and out:
            break
        out.append((w, span))
    while out and out[-1][0] in EN_FRAME_WORDS:
        out.pop()
    return out if any(w not in EN_FRAME_WORDS for w, _ in out) else []
