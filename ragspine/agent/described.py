"""An entity described instead of named: ACME最大的市场, the fastest-growing market, 最赚钱的地区,
the region with the most stores, 第二大市场, its biggest customer, the market where …

A description is never the company itself and never a part picked silently. By class:

- Its criterion is a quantity the profile holds (size is revenue, as for 最大的市场 in ranks.py;
  fastest-growing is revenue growth; most profitable is net profit; "with the most stores" /
  门店最多的 names the metric itself), and it describes one of the company's parts (a market, a
  region, a segment): every part is ranked on the criterion, for the period asked, and the asked
  figure is the winner's (``described_answer.py``), the criterion's figures stated as the why.
- Otherwise (best-performing, newest, 最重要; a customer, a subsidiary or a store, which no
  entity of the fact table is; a relative clause, the market where …; a profile with no part
  but the company): declined naming the description, never a figure.

A description beside a named entity (Hong Kong, our largest market by stores, …) is that
entity's attribute, not a description to resolve: the entity is named. The criterion is read
from shipped phrase groups (``group_anchor``), never a profile's own codes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ragspine.agent.quantity import Reading
from ragspine.agent.subjects import Subject
from ragspine.profile import DomainProfile
from ragspine.profile.vocabulary import group_anchor

if TYPE_CHECKING:
    from ragspine.agent.stated_criteria import Stated

HIGH, LOW = "high", "low"  # as ranks.HIGH / ranks.LOW

# Parts of the company a fact table may hold as entities (ranked) and kinds it never holds as
# one (a customer, a subsidiary, a store, a city: declined by the description's words).
_PARTS_ZH = r"市场|地区|区域|分部|板块|业务板块|业务|国家"
_PARTS_EN = (
    r"markets?|regions?|segments?|geograph(?:y|ies)|areas?|countr(?:y|ies)|territor(?:y|ies)"
)
_OTHERS_ZH = r"子公司|客户|供应商|品牌|产品|门店|店铺|分店|城市|省份|工厂"
_OTHERS_EN = (
    r"subsidiar(?:y|ies)|customers?|clients?|suppliers?|vendors?|brands?|products?|stores?|"
    r"shops?|cit(?:y|ies)|provinces?|factor(?:y|ies)"
)
_ORD_ZH = r"第[二三四五2-5]"
_ORD_EN = r"(?:second|third|fourth|fifth|2nd|3rd|4th|5th)[\s-]+"

# Each criterion class: (the shipped group it ranks on or None, HIGH / LOW, its words).
_CRITERIA_ZH: list[tuple[str | None, str, str]] = [
    ("REVENUE_GROWTH", HIGH, r"(?:增长|增速|成长)最快"),  # before 最 + size: 增长最快
    ("REVENUE_GROWTH", LOW, r"(?:增长|增速|成长)最慢"),
    ("NET_PROFIT", HIGH, r"最赚钱|最能赚钱|盈利最多|利润最多"),
    ("NET_PROFIT", LOW, r"最不赚钱|盈利最少|利润最少"),
    ("STORE_COUNT", HIGH, r"门店最多|店最多|门店数最多"),
    ("STORE_COUNT", LOW, r"门店最少|店最少|门店数最少"),
    ("REVENUE", HIGH, rf"{_ORD_ZH}大|最大"),
    ("REVENUE", LOW, rf"{_ORD_ZH}小|最小"),
    (None, HIGH, r"表现最(?:好|佳|强)|最(?:好|强|重要|核心|成熟)|潜力最大"),
    (None, LOW, r"表现最(?:差|弱)|最(?:差|弱)"),
]
_UNCLEAR_HIGH_EN = (
    r"best[\s-]+performing|top[\s-]+performing|strongest|newest|oldest|most\s+important|"
    r"most\s+promising"
)
_CRITERIA_EN: list[tuple[str | None, str, str]] = [
    ("REVENUE_GROWTH", HIGH, r"fastest[\s-]+growing"),
    ("REVENUE_GROWTH", LOW, r"slowest[\s-]+growing"),
    ("NET_PROFIT", HIGH, r"most\s+profitable"),
    ("NET_PROFIT", LOW, r"least\s+profitable"),
    ("REVENUE", HIGH, rf"(?:{_ORD_EN})?(?:largest|biggest)"),
    ("REVENUE", LOW, rf"(?:{_ORD_EN})?smallest"),
    (None, HIGH, _UNCLEAR_HIGH_EN),
    (None, LOW, r"worst[\s-]+performing|weakest|under[\s-]?performing"),
]
# The part with the most / fewest stores, 门店最多的市场: the metric named in the description.
_WITH_EN = [
    ("STORE_COUNT", HIGH, r"with\s+the\s+most\s+stores"),
    ("STORE_COUNT", LOW, r"with\s+the\s+fewest\s+stores"),
]
# The part where / that / in which …: a relative clause, read by no figure (to its clause's end).
_RELATIVE_EN = re.compile(
    rf"(?<![a-z])the\s+(?:{_PARTS_EN}|{_OTHERS_EN})\s+(?:where|that|which|in\s+which|whose)\s"
    r"[^,,;;??.]*"
)
# A named entity just before, in apposition (Hong Kong, our largest market, …): its attribute.
_APPOSITION = re.compile(r"[,,]\s*(?:our|its|acme's|the|集团的|我们的)?\s*$")


@dataclass(frozen=True)
class Described:
    """A description of one entity: the question's words, the criterion metric code it ranks
    the parts on (None: declined), HIGH / LOW, and the position asked (2 for 第二大)."""

    words: str
    criterion: str | None
    direction: str
    place: int = 1


def _patterns() -> list[tuple[str | None, str, re.Pattern[str], bool]]:
    """(group, direction, pattern, a part of the company) for every description shape."""
    out: list[tuple[str | None, str, re.Pattern[str], bool]] = []
    for group, way, words in _CRITERIA_ZH:
        for nouns, part in ((_PARTS_ZH, True), (_OTHERS_ZH, False)):
            out.append((group, way, re.compile(rf"(?:{words})\s*的?\s*(?:{nouns})"), part))
    for group, way, words in _CRITERIA_EN:
        for nouns, part in ((_PARTS_EN, True), (_OTHERS_EN, False)):
            pattern = re.compile(rf"(?<![a-z])(?:{words})\s+(?:{nouns})(?![a-z])")
            out.append((group, way, pattern, part))
    for group, way, words in _WITH_EN:
        for nouns, part in ((_PARTS_EN, True), (_OTHERS_EN, False)):
            pattern = re.compile(rf"(?<![a-z])(?:{nouns})\s+{words}(?![a-z])")
            out.append((group, way, pattern, part))
    return out


_PATTERNS = _patterns()
_CHINESE = len(_CRITERIA_ZH) * 2  # the shapes above written in Chinese come first

# Every shape ends on (or, for _WITH_EN and _RELATIVE_EN, holds) one of its script's nouns, and
# every Chinese criterion holds 最 or 第: a text lacking a script's is searched for none of its
# shapes (most questions lack both).
_NOUNS_ZH = re.compile(rf"{_PARTS_ZH}|{_OTHERS_ZH}")
_NOUNS_EN = re.compile(rf"{_PARTS_EN}|{_OTHERS_EN}")
_RANKED_ZH = "最第"


def _shapes(text: str) -> tuple[list[tuple[str | None, str, re.Pattern[str], bool]], bool]:
    """The shapes that may match ``text``, in their order, and whether English ones may."""
    ranked = any(c in text for c in _RANKED_ZH)
    chinese = ranked and _NOUNS_ZH.search(text) is not None
    english = _NOUNS_EN.search(text) is not None
    if chinese and english:
        return _PATTERNS, True
    return (_PATTERNS[:_CHINESE] if chinese else []) + (
        _PATTERNS[_CHINESE:] if english else []
    ), english


def _place(words: str) -> int:
    """The position a description asks: 第二大 / second-largest → 2, else 1."""
    m = re.search(r"第([二三四五2-5])|(second|2nd)|(third|3rd)|(fourth|4th)|(fifth|5th)", words)
    if m is None:
        return 1
    if m.group(1):
        return "二三四五".find(m.group(1)) + 2 if not m.group(1).isdigit() else int(m.group(1))
    return next(i for i in range(2, 6) if m.group(i))


def description_spans(text: str) -> list[tuple[int, int]]:
    """Where the folded text describes an entity (最赚钱的地区, the largest market): no company's
    name stands there (scope.py reads names around them)."""
    shapes, english = _shapes(text)
    spans = [m.span() for _, _, p, _ in shapes for m in p.finditer(text)]
    return spans + [m.span() for m in _RELATIVE_EN.finditer(text)] if english else spans


def find_description(
    text: str, profile: DomainProfile, entity_spans: list[tuple[int, int]]
) -> tuple[tuple[int, int], str | None, str, bool] | None:
    """The first description in the folded text: its span, the criterion metric code (None:
    not held or not clear), HIGH / LOW, and whether it describes a part of the company. A
    description right after a named entity and a comma names nothing new (apposition)."""
    shapes, english = _shapes(text)
    hits = [(m.span(), g, w, part) for g, w, p, part in shapes for m in [p.search(text)] if m]
    relative = _RELATIVE_EN.search(text) if english else None
    if relative is not None:
        hits.append((relative.span(), None, HIGH, False))
    if not hits:
        return None
    (start, end), group, way, part = min(hits, key=lambda h: (h[0][0], -h[0][1]))
    before = text[:start]
    for _, e in entity_spans:
        gap = before[e:]
        if e <= start and _APPOSITION.fullmatch(gap):
            return None
    anchor = group_anchor(group, profile) if group else ""
    criterion = anchor.split(":", 1)[1] if anchor.startswith("metrics:") else None
    return (start, end), criterion, way, part


def read_description(
    text: str,
    question: str,
    index: list[int],
    reading: Reading,
    profile: DomainProfile,
    subjects: list[Subject],
    entity_spans: list[tuple[int, int]],
    stated: Stated | None = None,
) -> tuple[Described | None, str | None, list[Subject], list[tuple[int, int]]]:
    """The description the question makes (``Described``, criterion None when declined), the
    rank to make instead when the asked metric is the criterion itself (最大的市场的收入: a
    revenue rank, ranks.py), the subjects less any inside the description, and its span. A
    stated criterion (stated_criteria.py) replaces the default one, its words the description's;
    where nothing else is asked, it is the asked metric (which market is largest by stores)."""
    found = find_description(text, profile, entity_spans)
    if found is None:
        return None, None, subjects, []
    (start, end), criterion, way, part = found
    if stated is not None:
        (start, end), criterion = stated.whole, stated.code
        if criterion is not None and not reading.metrics and reading.declined is None:
            reading.metrics, reading.spans = [criterion], [(criterion, *stated.span)]
    kept = [s for s in subjects if not (s.start < end and start < s.end)]
    words = question[index[start] : index[end - 1] + 1].strip() if end <= len(index) else question
    others = [c for c in profile.entity_codes if c != profile.home_entity_code]
    place = _place(text[start:end])
    if not (part and others):  # a customer, a store; a profile of the company alone
        criterion = None
    if criterion is not None and reading.metrics == [criterion] and place == 1:
        return None, way, kept, [(start, end)]  # the criterion asked of its own winner: a rank
    return Described(words, criterion, way, place), None, kept, [(start, end)]
