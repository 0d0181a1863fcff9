"""Ordinals and ranks: 第N, Nth, first / second…, 最大 / largest, 第二大 / second-largest.

An ordinal is no amount: it is a claim about its item (the words of its clause). It is held to
the passages its line cites: supported when one gives that item the same ordinal (its clause
there shares the item's words); for a size rank (第N大, Nth-largest, 最大), also when the sourced
figures of the entities the sentence names (two or more, one metric) put the item at that rank.
Otherwise it is ``wrong_rank``: another rank for the item, or a rank nobody gave it.

Not an ordinal of an item: a period (第三季度, first half), a section (第3节), a third party, a
discourse marker opening a clause of the answer (第一,… / First, …), at first, first of all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ragspine.evals.audit.names import Lexicon
from ragspine.evals.audit.numerals import value_of
from ragspine.evals.audit.periods import find_periods

__all__ = ["Rank", "find_ranks", "is_ordinal", "rank_findings"]

_EN_ORD = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
_ZH_NUM = r"[一二三四五六七八九十两]+|\d+"
# what may follow 第N and make it no rank of an item: a period, a section, a third party
_NOT_AFTER_ZH = re.compile(r"^(?:季|半年|节|章|条|款|部分|篇|页|段|卷|编|方|期间)")
_SIZE_ZH = {"大": "desc", "小": "asc"}
_RANK_RE = re.compile(
    rf"第(?P<zh>{_ZH_NUM})(?P<zsize>大|小)?"
    r"|最(?P<zmost>大|小)"
    r"|(?<![A-Za-z])(?P<en>" + "|".join(_EN_ORD) + r"|(?P<digits>\d+)(?:st|nd|rd|th))"
    r"(?:[\s-]+(?P<esize>largest|biggest|smallest))?(?![A-Za-z])"
    r"|(?<![A-Za-z])(?P<emost>largest|biggest|smallest)(?![A-Za-z])",
    re.I,
)
_NOT_AFTER_EN = re.compile(
    r"^[\s-]+(?:half|halves|quarter|part(?:y|ies)|time|of\s+all|hand)(?![A-Za-z])", re.I
)
_NOT_BEFORE_EN = re.compile(r"(?<![A-Za-z])(?:at|section|chapter|scope)\s+$", re.I)
_CLAUSE = re.compile(r"[,,;;。!?:::\n]|\.(?=\s|$)")
_STOP_ZH = set("的了是在为和与及、排名位列居第之一二三四五六七八九十大小最")
_STOP_EN = {
    "the", "a", "an", "is", "are", "was", "our", "its", "their", "of", "for", "to", "in", "and",
    "by", "on", "with", "as", "at", "it", "this", "that", "ranked", "ranks", "rank",
}  # fmt: skip


# a sourced figure: its entity, metric, periods and value
Figure = tuple[str | None, str | None, tuple[str, ...], Fraction]


@dataclass(frozen=True)
class Rank:
    start: int
    end: int
    text: str
    n: int
    size: str | None  # desc (大, largest) | asc (小, smallest) | None: a plain ordinal
    item: frozenset[str]  # the words of its clause, the ordinal left out


def is_ordinal(text: str, start: int) -> bool:
    """Is the numeral at ``start`` the N of a rank (第二优先级, 排第二位, 第三年)? Then it is
    no amount: the rank check judges it."""
    return any(r.start <= start < r.end for r in find_ranks(text))


def find_ranks(text: str, markers: bool = True) -> list[Rank]:
    """Every ordinal of an item in ``text``. ``markers``: keep a clause-opening 第一, / First,
    (a passage's enumeration ranks its items; an answer's is its own way of listing)."""
    out = []
    for m in _RANK_RE.finditer(text):
        n, size = _n_and_size(m)
        if n is None or _not_a_rank(text, m, markers):
            continue
        a, b = _clause(text, m.start())
        words = _words(text[a : m.start()] + " " + text[m.end() : b])
        out.append(Rank(m.start(), m.end(), m.group(), n, size, words))
    return out


def _n_and_size(m: re.Match[str]) -> tuple[int | None, str | None]:
    if m.group("zh"):
        v = value_of(m.group("zh").replace("两", "二"))
        n = int(v[0]) if v and v[0] == int(v[0]) else None
        return n, _SIZE_ZH.get(m.group("zsize") or "")
    if m.group("zmost"):
        return 1, _SIZE_ZH[m.group("zmost")]
    size_word = (m.group("esize") or m.group("emost") or "").lower()
    size = None if not size_word else "asc" if size_word == "smallest" else "desc"
    if m.group("emost"):
        return 1, size
    if m.group("digits"):
        return int(m.group("digits")), size
    return _EN_ORD[m.group("en").lower()], size


def _not_a_rank(text: str, m: re.Match[str], markers: bool) -> bool:
    after, before = text[m.end() :], text[: m.start()]
    if m.group("zh") is not None:
        if _NOT_AFTER_ZH.match(after) or re.match(r"[.．]\d", after):
            return True  # 第三季度, 第3节, 第1.4节, 第三方
        if m.group("zh").isdigit() and before.rstrip().endswith(("第", "§")):
            return True
    if m.group("en") is not None and (
        _NOT_AFTER_EN.match(after) or _NOT_BEFORE_EN.search(before[-12:])
    ):
        return True  # the first half, third parties, at first, first of all
    if not markers:
        a, _ = _clause(text, m.start())
        opens = not text[a : m.start()].strip(" *-")
        if opens and re.match(r"^\s*(?:[,,、::]|ly\b)", after):
            return True  # 第一,… / First, …: the answer's own list
    return False


def _clause(text: str, at: int) -> tuple[int, int]:
    a = 0
    for m in _CLAUSE.finditer(text):
        if m.end() <= at:
            a = m.end()
        else:
            return a, m.start()
    return a, len(text)


def _words(text: str) -> frozenset[str]:
    """The item's words: CJK character pairs and English words, the rank's own words left out."""
    low = text.lower()
    en = {w for w in re.findall(r"[a-z]{3,}", low) if w not in _STOP_EN}
    zh = re.sub(r"[^\u4e00-\u9fff]+", "|", text)
    pairs = {
        run[i : i + 2]
        for run in zh.split("|")
        for i in range(len(run) - 1)
        if not (run[i] in _STOP_ZH and run[i + 1] in _STOP_ZH)
    }
    return frozenset(en | pairs)


def rank_findings(
    text: str,
    passage_texts: Sequence[str],
    figures: Sequence[Figure],
    lex: Lexicon,
) -> list[tuple[str, str]]:
    """(the ordinal's words, ``wrong_rank``) for each ordinal of ``text`` (an answer line) that
    no cited passage gives its item and, for a size rank, the named entities' sourced figures
    (``figures``: entity, metric, periods, value) do not bear out."""
    theirs = [r for t in passage_texts for r in find_ranks(t)]
    out = []
    for rank in find_ranks(text, markers=False):
        if _stated(rank, theirs):
            continue
        if rank.size is not None and _computed(rank, text, figures, lex):
            continue
        out.append((rank.text, "wrong_rank"))
    return out


def _stated(rank: Rank, theirs: Sequence[Rank]) -> bool:
    """A passage gives the item this rank: the same N and size, its clause sharing the item's
    words more than any passage rank of another N does."""
    same = [r for r in theirs if r.size == rank.size]
    best = max((len(rank.item & r.item) for r in same), default=0)
    if best == 0:
        return False
    return any(r.n == rank.n and len(rank.item & r.item) == best for r in same)


def _computed(
    rank: Rank,
    text: str,
    figures: Sequence[Figure],
    lex: Lexicon,
) -> bool:
    """The sentence names two or more entities and one metric, each entity has a sourced figure
    of it, and the item (the entity named nearest before the rank, else after) is at rank N."""
    a, b = _sentence(text, rank.start)
    entities = [f for f in lex.entities(text[a:b])]
    codes = list(dict.fromkeys(f.code for f in entities))
    metrics = {f.code for f in lex.metrics(text[a:b])}
    if len(codes) < 2 or len(metrics) != 1:
        return False
    metric = next(iter(metrics))
    period = next((p.code for p in find_periods(text[a:b]) if p.code), None)
    value = {}
    for code in codes:
        # a figure of the sentence's period (unknown never contradicts), at its full scale
        found = [
            v for e, m, ps, v in figures
            if e == code and m == metric and (period is None or not ps or period in ps)
        ]  # fmt: skip
        if not found:
            return False
        value[code] = max(found)
    before = [f for f in entities if a + f.end <= rank.start]
    item = (before[-1] if before else entities[0]).code
    order = sorted(value.values(), reverse=rank.size == "desc")
    return order.index(value[item]) + 1 == rank.n


def _sentence(text: str, at: int) -> tuple[int, int]:
    a = 0
    for m in re.finditer(r"[。!?;\n]|\.(?=\s|$)", text):
        if m.end() <= at:
            a = m.end()
        else:
            return a, m.start()
    return a, len(text)
