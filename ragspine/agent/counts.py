"""Count questions: "有多少家门店", "门店有几家", "how many stores" name a count metric.

The profile's count metrics give the nouns (门店数 → 门店, number of stores → store); a count
every company may be asked for (stores, employees) that the profile does not hold is a quantity
to decline, by its shipped name (门店数). "新开多少家门店" and "how many new stores" are openings,
another quantity: not matched. A retailer's doors and 网点 are its stores (how many
doors, 有多少个网点): the trade's words for points of sale. A count noun written before an
outside body's head word is that body's attributive (员工工会有多少名会员: the union's
members), never the count.

A word written between "how many" and the counted noun must be one of the count's own: a word
naming the store or the staff itself (physical, retail, offline, operating, full list in
``_ITSELF``), a common function word (the, its, of), or a name the profile reads as an entity, a
place or the company (Taiwan, ACME). Any other word glued before the noun makes another kind of
thing (cold stores are warehouses, flagship stores a format, part-time employees a part): its
count is not the metric's, so no match, and the question is declined by its words.

The counted noun is the whole noun written there (``counted_nouns``): 店 in 多少位店长, 门店 in
多少个门店经理, store in how many store managers only open another thing's name, declined whole.
A measure word the noun does not take says so too: 位/名 count people, never stores.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.agent.counted_nouns import whole_noun_cjk, whole_noun_en
from ragspine.agent.subject_words import COMMON_EN, OUTSIDE_HEADS_CJK
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch, glossary_for

_COUNT_SUFFIX = re.compile(r"(?:总人数|人数|总数|数量|数目|家数|数)$")
_NOT_THE_COUNT = re.compile(
    r"(?:关闭|关掉|关|新开|开设|开|新增|净增|增加|减少|净关|撤出|撤|计划|拟|将|要)\s*$"
)


# Words that name the counted thing itself, not a kind of it (see the module's docstring).
_ITSELF = frozenset(
    (  # noqa: SIM905
        "physical retail offline brick-and-mortar bricks-and-mortar operating open existing active "
        "own owned company-owned in-house"
    ).split()
)


# Opening or closing verbs after the count (how many stores did ACME open); "open" after a
# copula (stores that are open 24 hours, still open) is the stores' state, not an opening.
_STATE = r"(?<!\bare\s)(?<!\bis\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bstill\s)(?<!\bremain\s)"
_OPENED = re.compile(
    rf"[^?？。.]{{0,30}}?(?<![a-z])(?:{_STATE}open|opened|close|closed|shut|shuttered|add|added)"
    r"(?![a-z])|"
    r"\s*(?:被)?(?:关闭|新开|开设|关掉)"
)


def net_additions(text: str, profile: DomainProfile) -> list[tuple[str, AliasMatch]]:
    """ "净增了多少家门店", "门店净增数", "net new stores": the count metric whose change is asked
    (this period's count less the last one's; a net closure is negative), never its level."""
    return [
        (kind, AliasMatch(code, m.start(), m.end()))
        for kind, code, _, net, _, _ in _count_patterns(profile)
        if net is not None
        for m in net.finditer(text)
    ]


def count_matches(text: str, profile: DomainProfile) -> list[tuple[str, AliasMatch]]:
    """ "有多少家门店", "门店有几家", "how many stores": the profile's count metric whose name
    holds the noun (门店数 → 门店). Not "新开多少家门店" or "how many new stores": openings and
    closures are other quantities."""
    return [
        (kind, AliasMatch(code, m.start(), m.end()))
        for kind, code, pattern, _, measures, _ in _count_patterns(profile)
        if pattern is not None
        for m in pattern.finditer(text)
        if _measure_fits(m, measures)
        and not _NOT_THE_COUNT.search(text, 0, m.start())
        and not _OPENED.match(text, m.end())
        and _own_words(m.groupdict().get("between"), profile)
        and _own_words(m.groupdict().get("between_zh"), profile)
        and _longer_noun(text, m, profile) is None
    ] + _bare_count(text, profile)


# 多少家 / 几家 closing the clause, no noun after it (年底还剩多少家?): 家 counts places of
# business, and where the profile holds exactly one count taking 家 and no people (its stores),
# that count is asked. A profile with none, or with two, reads no count here.
# An opening or closing verb before it, with its aspect mark (关了多少家): another quantity.
_CHANGED = re.compile(_NOT_THE_COUNT.pattern.removesuffix(r"\s*$") + r"\s*(?:了|过|掉)?\s*$")
_BARE = re.compile(r"(?:多少|几)\s*家(?=\s*(?:$|[?？。,,!！;；]|呢|吗|啊|呀))")


def _bare_count(text: str, profile: DomainProfile) -> list[tuple[str, AliasMatch]]:
    """The one held count taking 家 that a bare 多少家 asks (see ``_BARE``), or none."""
    held = [
        code
        for kind, code, _, _, measures, _ in _count_patterns(profile)
        if kind == "metrics" and "家" in measures and "名" not in measures
    ]
    if len(held) != 1:
        return []
    return [
        ("metrics", AliasMatch(held[0], m.start(), m.end()))
        for m in _BARE.finditer(text)
        if not _CHANGED.search(text, 0, m.start())
    ]


def other_kinds(text: str, profile: DomainProfile) -> list[tuple[int, int]]:
    """Where "how many" counts another kind of the noun: the span from the first word not the
    count's own to the noun's end (how many cold stores), or the whole noun the count's noun
    only opens (多少位店长: 店长; store managers), the name a decline says."""
    out = []
    for _, _, pattern, _, measures, _ in _count_patterns(profile):
        for m in pattern.finditer(text) if pattern is not None else ():
            between = m.groupdict().get("between")
            if between and not _own_words(between, profile):
                at = m.start("between")
                for w in re.finditer(r"\S+", between):
                    if w.group() not in _known_names(profile):
                        out.append((at + w.start(), m.end()))
                        break
            longer = _longer_noun(text, m, profile)
            if longer is None and not _measure_fits(m, measures):  # 多少位店: not a store
                longer = next((m.span(g) for g in ("n1", "n2", "n3") if m.group(g)), None)
            if longer is not None:
                out.append(longer)
    return out


# The kinds of name a count may hold inside its words (how many ACME stores, how many Taiwan
# stores): each is read as the count's entity, never a rival of the count.
_HELD_INSIDE = frozenset({"entities", "company", "place", "channels"})


def count_blocked(m: AliasMatch, scan: Sequence[tuple[str, AliasMatch]]) -> bool:
    """Whether a found count ``m`` overlaps a phrase already read: a metric or a name running
    across it blocks it; a name wholly inside it (ACME in how many ACME stores) does not."""
    return any(
        w.start < m.end
        and m.start < w.end
        and not (kind in _HELD_INSIDE and m.start < w.start and w.end <= m.end)
        for kind, w in scan
    )


def _longer_noun(text: str, m: re.Match[str], profile: DomainProfile) -> tuple[int, int] | None:
    """The whole noun the count's noun in ``m`` only opens (counted_nouns.py), or None."""
    for group in ("n1", "n2", "n3", "en"):
        if m.groupdict().get(group):
            start, end = m.span(group)
            if group == "en":  # the noun with its plural s
                plural, end = bool(m.group("plural")), m.end()
                whole = whole_noun_en(text, (start, end), plural, _known_names(profile))
            else:
                read = [(w.start, w.end) for _, w in glossary_for(profile).scan(text)]
                whole = whole_noun_cjk(text, (start, end), read)
            return (start, whole) if whole > end else None
    return None


def _own_words(between: str | None, profile: DomainProfile) -> bool:
    """Whether every word between "how many" and the noun is the count's own (module docstring):
    how many physical stores, how many ACME Taiwan stores; not how many cold stores."""
    if not between:
        return True
    # another count's noun before this one makes a kind of it: store employees are some employees
    others = {n for *_, nouns in _count_patterns(profile) for n in nouns}
    return all(w in _known_names(profile) and w.rstrip("s") not in others for w in between.split())


def _known_names(profile: DomainProfile) -> frozenset[str]:
    """The count's own words: ``_ITSELF``, the common ones and every English word of an entity's,
    a place's or the company's name in the profile (hong, kong, acme)."""

    def build() -> frozenset[str]:
        words = {
            w
            for kind, term in glossary_for(profile).kinds
            if kind in ("entities", "place", "company")
            for w in re.findall(r"[a-z][a-z'-]*", term.lower())
        }
        return frozenset(words | COMMON_EN | _ITSELF)

    return profile.memo("count_own_words", build)


# Counts every company may be asked for; a profile that holds none answers "not held". Each
# with the measure words its noun takes: stores 家/间/个, people 名/位/个 (多少位店长: a person).
_SHIPPED_COUNTS = {
    "STORE_COUNT": (
        {"门店", "店铺", "店面", "分店", "店", "网点"},
        {"store", "shop", "outlet", "door"},
    ),
    "EMPLOYEES": ({"员工", "职工", "雇员"}, {"employee"}),
}
_MEASURES = {"STORE_COUNT": "家间个", "EMPLOYEES": "名位个人"}
_ANY_MEASURE = "家间个名位人"
_MEASURE_WORD = re.compile(rf"(?:多少|几)\s*([{_ANY_MEASURE}])")


def _measure_fits(m: re.Match[str], measures: str) -> bool:
    """Whether the measure word the count took is one its noun takes: 多少家门店, not 多少位店
    (位 counts people: the noun is a person's, 店长, never the stores)."""
    word = _MEASURE_WORD.search(m.group())
    return word is None or word.group(1) in measures


_Patterns = tuple[str, str, re.Pattern[str] | None, re.Pattern[str] | None, str, frozenset[str]]


def _count_patterns(profile: DomainProfile) -> list[_Patterns]:
    """Per count metric (or shipped count the profile lacks): its kind, code, the pattern asking
    its level, the one asking its net additions, the measure words its noun takes and its
    English nouns."""

    def build() -> list[_Patterns]:
        out = []
        held: set[str] = set()
        for spec in profile.metrics:
            if profile.unit(spec.unit).kind != "count":
                continue
            zh = {_COUNT_SUFFIX.sub("", a) for a in spec.aliases if not a.isascii()}
            zh = {n for n in zh if n and not n.isascii()}
            en = {
                m.group(1)
                for a in spec.aliases
                if (m := re.fullmatch(r"(?:number of |count of )?([a-z ]+?)(?: count)?", a.lower()))
            }
            en = {w.rstrip("s") for w in en if " " not in w}
            measures = _ANY_MEASURE
            for group, (zh_shipped, en_shipped) in _SHIPPED_COUNTS.items():
                if (zh | en) & (zh_shipped | en_shipped):  # 门店数 also reads 店铺, outlets
                    zh, en, measures = zh | zh_shipped, en | en_shipped, _MEASURES[group]
            held |= zh | en
            pattern = _count_pattern(zh, en)
            net = _net_pattern(zh, en)
            out.append(("metrics", spec.code, pattern, net, measures, frozenset(en)))
        for group, (zh, en) in _SHIPPED_COUNTS.items():
            if not (zh | en) & held:
                pattern = _count_pattern(zh, en)
                net, measures = _net_pattern(zh, en), _MEASURES[group]
                out.append(("quantity", group, pattern, net, measures, frozenset(en)))
        return out

    return profile.memo("count_patterns", build)


def _net_pattern(zh: set[str], en: set[str]) -> re.Pattern[str] | None:
    """净增(了)多少家门店, 门店净增数, 净新增门店, net new stores, net store additions."""
    parts = []
    if zh:
        nouns = "|".join(sorted(map(re.escape, zh), key=len, reverse=True))
        net = r"(?:净增加|净新增|净增|净开设|净开)"
        parts.append(
            rf"{net}\s*(?:了)?\s*(?:多少|几)?\s*(?:家|间|个|名|位|人)?\s*(?:新)?(?:{nouns})"
        )
        parts.append(rf"(?:{nouns})(?:数量|数)?\s*(?:的)?\s*{net}")
    if en:
        nouns = "|".join(sorted(map(re.escape, en), key=len, reverse=True))
        parts.append(
            rf"(?<![a-z])net\s+(?:new\s+|additional\s+)?(?:{nouns})s?(?:\s+(?:additions?|adds|openings?|"
            rf"growth))?(?![a-z])|(?<![a-z])net\s+(?:additions?|adds|openings?)\s+(?:of\s+)?(?:{nouns})s?"
            rf"(?![a-z])"
        )
    return re.compile("|".join(parts)) if parts else None


def _count_pattern(zh: set[str], en: set[str]) -> re.Pattern[str] | None:
    """The count asked of these nouns, the noun in a group per branch (n1, n2, n3, en) for the
    whole-noun reading (``_longer_noun``)."""
    parts = []
    if zh:
        nouns = "|".join(sorted(map(re.escape, zh), key=len, reverse=True))
        nouns = rf"(?:{nouns})(?!{OUTSIDE_HEADS_CJK.pattern})"  # 员工工会: a union, not staff
        unit = rf"[{_ANY_MEASURE}]"
        # 几 counts only with its counting word: 门店几点营业 asks the time, not a count
        many = rf"(?:多少\s*{unit}?(?![点时分秒天日周月年次岁号])|几\s*{unit})"
        # 有几家ACME门店: the company's Latin name between (checked as the English one is)
        parts.append(rf"{many}\s*(?P<between_zh>[a-z][a-z0-9&'-]*\s*)?(?P<n1>{nouns})")
        parts.append(rf"(?P<n2>{nouns})\s*(?:一共|共|总共|合计)?\s*有?\s*{many}")
        # 香港的门店2024年有多少家: a period between, then a counting word
        parts.append(rf"(?P<n3>{nouns})[^,,。??;;]{{0,12}}?有\s*(?:多少|几)\s*{unit}")
    if en:
        nouns = "|".join(sorted(map(re.escape, en), key=len, reverse=True))
        parts.append(
            rf"(?<![a-z])how\s+many\s+(?!(?:new|more|additional|closed|opened)\b)"
            rf"(?P<between>(?:[a-z'-]+\s+){{0,2}}?)(?P<en>{nouns})(?P<plural>s?)(?![a-z])"
        )
        # the noun first, then a verb of having and "how many" with no noun of its own (store
        # have how many at year end): a learner's word order, the same count asked
        parts.append(
            rf"(?<![a-z])(?:{nouns})s?\s+(?:have|has|had|got|number|count|total)\s+how\s+many"
            rf"(?=\s*(?:$|[?.,!;]|(?:at|in|as|by|on|for|during|until|till|\d)(?![a-z])))"
        )
    return re.compile("|".join(parts)) if parts else None


def counted_metric(noun: str, profile: DomainProfile) -> str | None:
    """The held count metric a bare counted noun names (stores, 门店): a part ranked "by
    stores" is ranked on its store count. Read by the count's own "how many" pattern."""
    asked = f"how many {noun}" if noun.isascii() else f"多少{noun}"
    for kind, code, pattern, *_ in _count_patterns(profile):
        if kind == "metrics" and pattern is not None and pattern.fullmatch(asked):
            return code
    return None
