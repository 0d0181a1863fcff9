"""A description's stated criterion: the largest market by stores, the biggest region in terms
of gross profit, 按门店数计最大的市场, 以毛利计最大的地区, 就净利润而言最小的市场, 毛利最大的市场.

A description (described.py) ranks the company's parts on a default criterion (size is
revenue). Where the question states the criterion, it replaces the default, never the other way
round. By class:

- where it is stated: right after the description, ``by`` / ``in terms of`` / ``measured by`` /
  ``based on`` / ``according to`` X (not after a comma: "…, by the way," is an aside; not "by
  far", "by a wide margin": an intensifier; not "by the end of 2024": a time); right before it,
  按X(计) / 按照X / 论X and 以X计 / 依X计 / 就X而言 (the company's name or a period may stand
  between); or X written straight before the superlative, X最大的 (X the metric words the
  question's scan reads there).
- X is read by the question's own metric-phrase reader (``read_quantities`` on X's words,
  every word of X one of the metric's), or X is a counted noun of a held count (by stores: the
  store count). A growth description (fastest-growing) ranks on X's growth.
- X that reads as no held metric (floor space, a channel's figure, two metrics) declines the
  description by its words, criterion included; the default is never used in its place.

X's words are no quantity asked (the revenue of the largest market by net profit asks revenue):
the parser reads the question with them blanked; where nothing else is asked, X is the asked
metric too (which market is largest by stores: a rank on the store count).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ragspine.agent.counts import counted_metric
from ragspine.agent.described import find_description
from ragspine.agent.quantity import read_quantities
from ragspine.agent.shape_lookup import growth_named
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch, glossary_for
from ragspine.profile.periods import find_periods
from ragspine.profile.vocabulary import derived_shapes

Span = tuple[int, int]
_NO_DATE = date(2000, 1, 1)  # periods are read for their place only, never their year

# After the description: the words that state what it is measured by.
_AFTER_EN = re.compile(
    r"\s+(?:by|in\s+terms\s+of|(?:as\s+|when\s+)?(?:measured|ranked|judged)\s+(?:by|in|on)|"
    r"based\s+on|on\s+the\s+basis\s+of|according\s+to)\s+"
    r"(?!(?:far|a\s+(?:wide|long|large|big|small|narrow)\s+margin|the\s+way|itself|and\s+large|"
    r"comparison|contrast|definition|some|most|"  # by far, by the way: no criterion
    r"(?:the\s+)?(?:end|close|middle|start|beginning)|year[\s-]?end|mid|early|late|next|last|"
    r"this|today|now|then|q[1-4]|h[12]|fy|\d)(?![a-z]))"  # by the end of 2024: a deadline
)
# Where X ends: punctuation, or a word that opens the next clause.
_X_END = re.compile(
    r"[,,。??;;!!()()]|\s(?:what|which|who|was|were|is|are|did|does|do|had|has|have|how|"
    r"and|or|then|when|where|versus|vs|compared)(?![a-z])"
)
_TRAILING_EN = re.compile(r"(?:\s+(?:in|for|during|at|as\s+of|over|from|on|of|the|fiscal))+\s*$")
# Before it: 按X计, 以X计, 就X而言, 论X. 以 / 依 / 就 state a criterion only with their closing
# word (所以, 可以 … are no 以X计); 论 is never the end of 讨论, 无论 ….
_BEFORE_ZH = re.compile(
    r"(?:(?P<open>按照|按|(?<![讨议评结理无不舆争谈])论)|(?P<closed>依据|依照|依|"
    r"(?<![所可难足加予用得借是何])以|(?<![也成造])就))\s*"
    r"(?P<x>[^,,。??;;!!\s]{1,12}?)\s*"
    r"(?P<close>计算|计|来看|来算|算|衡量|而言|来说|排名|排序|为准|为标准|口径)?\s*[,,]?\s*$"
)
_BETWEEN_ZH = re.compile(r"(?:的|\s)+$")
# Words of X that are no metric's: the, its, total …
_FILLER = re.compile(r"(?<![a-z])(?:the|its|their|total|overall|annual|of)(?![a-z])|的|总|\s")


@dataclass(frozen=True)
class Stated:
    """A stated criterion: its words (by stores, 按门店数计), the description with them, and the
    held metric code the parts are ranked on (None: not held, declined by ``whole``'s words)."""

    span: Span
    whole: Span
    code: str | None


def stated_criterion(
    text: str,
    scan: list[tuple[str, AliasMatch]],
    profile: DomainProfile,
    entity_spans: list[Span],
) -> Stated | None:
    """The criterion the folded text states for its description, if it states one."""
    found = find_description(text, profile, entity_spans)
    if found is None:
        return None
    (start, end), default, _, _ = found
    where = _after(text, end) or _before(text, start, entity_spans) or _glued(text, start, scan)
    if where is None:
        return None
    (x0, x1), span = where
    code = held_metric(text[x0:x1], profile)
    code = _growth_of(code, profile) if code and _is_growth(default, profile) else code
    return Stated(span, (min(start, span[0]), max(end, span[1])), code)


def without_stated(
    text: str, scan: list[tuple[str, AliasMatch]], stated: Stated | None
) -> tuple[str, list[tuple[str, AliasMatch]]]:
    """The text with the criterion's words blanked and the scan without them: no quantity the
    question asks (the revenue of the largest market by net profit asks revenue)."""
    if stated is None:
        return text, scan
    s, e = stated.span
    kept = [(k, m) for k, m in scan if not (s <= m.start < e)]
    return text[:s] + " " * (e - s) + text[e:], kept


def _after(text: str, end: int) -> tuple[Span, Span] | None:
    """X of "by X" / "in terms of X" … right after the description (see the module)."""
    m = _AFTER_EN.match(text, end)
    if m is None:
        return None
    stop = _X_END.search(text, m.end())
    until = stop.start() if stop else len(text)
    for pm in find_periods(text[:until], _NO_DATE):
        if pm.start >= m.end():
            until = min(until, pm.start)
    x = _TRAILING_EN.sub("", text[m.end() : until]).strip()
    return ((m.end(), m.end() + len(x)), (end, m.end() + len(x))) if x else None


def _before(text: str, start: int, entity_spans: list[Span]) -> tuple[Span, Span] | None:
    """X of 按X计 / 以X计 / 论X … before the description, a name or period between."""
    head = _BETWEEN_ZH.sub("", text[:start])
    skips = [*entity_spans, *((pm.start, pm.end) for pm in find_periods(head, _NO_DATE))]
    moved = True
    while moved:
        moved = False
        for s, e in skips:
            if e == len(head) and s < e:
                head, moved = _BETWEEN_ZH.sub("", head[:s]), True
    m = _BEFORE_ZH.search(head)
    if m is None or (m.group("closed") and not m.group("close")):
        return None
    return m.span("x"), (m.start(), m.end())


def _glued(text: str, start: int, scan: list[tuple[str, AliasMatch]]) -> tuple[Span, Span] | None:
    """X最大的: the metric words the scan reads written straight before the superlative."""
    words = [m for k, m in scan if k in ("metrics", "quantity", "channels")]
    at = start
    while hit := [m for m in words if m.end == at and m.start < at]:
        at = min(m.start for m in hit)
    return ((at, start), (at, start)) if at < start else None


def held_metric(words: str, profile: DomainProfile) -> str | None:
    """The one held metric the words name, read as the question's metric words are (every word
    of them the metric's, no channel, no entity), or the held count a counted noun names."""
    scan = glossary_for(profile).scan(words)
    if any(k not in ("metrics", "quantity") for k, _ in scan):
        return None  # online revenue: the parts are ranked on their totals only
    reading = read_quantities(words, list(scan), profile)
    if reading.declined is None and len(reading.metrics) == 1:
        left = list(words)
        for _, s, e in reading.spans:
            left[s:e] = " " * (e - s)
        if not _FILLER.sub("", "".join(left)):
            return reading.metrics[0]
    return counted_metric(_FILLER.sub(" ", words).strip(), profile)


def _is_growth(code: str | None, profile: DomainProfile) -> bool:
    """A growth criterion (fastest-growing): the stated X names what grows."""
    return code is not None and any(
        shape[0] == "growth" and c == code for shape, c in derived_shapes(profile).items()
    )


def _growth_of(code: str, profile: DomainProfile) -> str | None:
    """X's growth where the profile holds it (X may be a growth itself), else None."""
    if code in derived_shapes(profile).values() and _is_growth(code, profile):
        return code
    if growth_named(profile.any_metric(code)):
        return code
    return derived_shapes(profile).get(("growth", code))
