"""A part of the home company the profile does not know, named after the company's own name:
a store format, a brand, a banner, a channel, a sub-line (ACME Express, Jinyu PetCare,
ACME自有品牌咖啡). The company's name does not make the part the company: a metric question
about it is declined by the part's name, never answered with the group's figure.

Two readings, each after a name of the home entity:
- Latin: one or more capitalised words (ACME Express, ACME's Outlet) up to the first word that
  names nothing (a common word, a legal ending such as Group or Holdings, a document word such
  as Review, a word of the company's own longer name or its start: Jinyu Bio), a period or
  code (FY2024), or a word the profile knows (Hong Kong, Same-Store).
- Chinese: a run of characters before a period or 的 (ACME自有品牌咖啡2024年), less the common
  words it starts with (but an organisation's kind word is never left alone: 研发中心, not 中心),
  when what is left is name-like and not a period or a reporting basis.
  A run that modifies a name-like noun through 的, itself before a period or 的, is that
  noun's modifier: the part is the noun (金宇生物冠名的马拉松赛事2020年: 马拉松赛事).
- A store format or type, wherever it stands (快捷便利店业态, 旗下的奥莱业态, 社区店型): a fact
  table that breaks figures down by format holds it as an entity the profile names; one that
  does not cannot give a format's figure, however common the format's word.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ragspine.agent.subject_words import (
    COMMON_EN,
    GENERIC_CJK,
    KIND_WORDS,
    STOPS,
    folded_span,
    name_like,
)
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch
from ragspine.profile.model import compact
from ragspine.profile.vocabulary import GENERIC_ALIASES

Add = Callable[..., None]  # subjects.find_subjects' add(start, end, stem, strong, kind)

_CJK = r"\u4e00-\u9fff"
# Words after a company's name that name the company or a document of it, not a part of it.
_LEGAL = frozenset(
    (  # noqa: SIM905
        "group groups holding holdings inc incorporated ltd limited corp corporation co company "
        "companies plc llc international intl global worldwide"
    ).split()
)
_DOCUMENT = frozenset(
    (  # noqa: SIM905
        "review reviews report reports results minutes deck presentation statement statements "
        "filing filings announcement announcements policy policies guideline guidelines handbook "
        "manual website press release interim quarterly investor investors shareholders "
        "management executive executives team staff employees"
    ).split()
)
_WORD = r"(?:[A-Z]|[a-z]+[A-Z])[A-Za-z0-9&-]*"
_CODE_LIKE = re.compile(r"_|\d")


def latin_parts(
    question: str, index: list[int], profile: DomainProfile, known: frozenset[str], add: Add
) -> None:
    """ACME Express, ACME's Outlet, Jinyu PetCare: capitalised words after a Latin name of the
    home entity that the profile does not know. The name given is the company's name and the
    part's (ACME Express), or the part's alone after a possessive (Outlet)."""
    pattern = _home_pattern(profile)
    if pattern is None or title_case(question):
        return
    own = _home_tokens(profile)
    for m in pattern.finditer(question):
        spans = [(w.start(), w.end()) for w in re.finditer(r"\S+", m.group("run"))]
        base = m.start("run")
        kept: list[tuple[int, int]] = []
        words = [m.group("run")[s:e] for s, e in spans]
        for i, word in enumerate(words):
            low = word.lower()
            if _CODE_LIKE.search(word) or low in COMMON_EN or low in _LEGAL or low in _DOCUMENT:
                break
            if any(t.startswith(low) for t in own if len(low) >= 3 or t == low):
                break  # Jinyu Bio: the company's own longer name, shortened
            if any(compact(" ".join(words[i:j])) in known for j in range(i + 1, len(words) + 1)):
                break  # Hong Kong, Same-Store Sales: a word the profile knows
            kept.append(spans[i])
        if not kept:
            continue
        first = base if m.group("poss") else m.start("home")
        start, end = folded_span(index, first, base + kept[-1][1])
        add(start, end, question[first : base + kept[-1][1]], True)


def _home_pattern(profile: DomainProfile) -> re.Pattern[str] | None:
    """The home entity's Latin names, longest first, then capitalised words."""

    def build() -> re.Pattern[str] | None:
        home = next((e for e in profile.entities if e.code == profile.home_entity_code), None)
        names = [profile.home_company_name, *(home.aliases if home else [])]
        latin = {
            n
            for n in names
            if re.fullmatch(r"[A-Za-z][\w .&,-]*", n) and compact(n) not in GENERIC_ALIASES
        }
        if not latin:
            return None
        alts = "|".join(re.escape(n) for n in sorted(latin, key=len, reverse=True))
        return re.compile(
            rf"(?<![A-Za-z0-9_])(?P<home>(?i:{alts}))(?P<poss>['’]s)?\s+"
            rf"(?P<run>{_WORD}(?:[ \t]+{_WORD})*)"
        )

    return profile.memo("home_latin_pattern", build)


def _home_tokens(profile: DomainProfile) -> frozenset[str]:
    """The words of the home entity's Latin names (bio, technology, biotech), lower case: the
    profile's alone, so read once per profile."""

    def build() -> frozenset[str]:
        home = next((e for e in profile.entities if e.code == profile.home_entity_code), None)
        names = [profile.home_company_name, *(home.aliases if home else [])]
        return frozenset(t.lower() for n in names for t in re.split(r"[^A-Za-z0-9]+", n) if t)

    return profile.memo("home_latin_tokens", build)


def title_case(question: str) -> bool:
    """How Did ACME Perform In 2024: every word capitalised, so a capital names nothing."""
    words = re.findall(r"[A-Za-z]+", question)
    return len(words) >= 4 and sum(w[0].isupper() for w in words) >= 0.8 * len(words)


_FORMAT = re.compile(r"业态|店型")


def format_parts(
    text: str, scan: list[tuple[str, AliasMatch]], known: frozenset[str], add: Add
) -> None:
    """快捷便利店业态, 奥莱业态: a format and the words before it back to a known word, a
    function character (的) or a character that is not Chinese. Passages are held to the words
    before 业态 (快捷便利店), which a document names without the format word."""
    leads = {m.end for _, m in scan}
    for m in _FORMAT.finditer(text):
        start = m.start()
        while start > 0 and start not in leads and m.start() - start < 8:
            before = text[start - 1]
            if not "\u4e00" <= before <= "\u9fff" or before in STOPS:
                break
            start -= 1
        core = text[start : m.start()]
        if compact(core + m.group()) not in known:
            add(start, m.end(), core if len(compact(core)) >= 2 else core + m.group(), True)


_NOT_A_PART = re.compile(
    r"[年月季期度]|公司|股份|有限|控股|目前|当前|总共|累计|截至|截止|合并|母公司|本部|口径|报表|整体"
)
_HOME_PART = re.compile(rf"(?P<run>[{_CJK}]{{2,10}}?)(?=\s*(?:(?:19|20)\d{{2}}|fy\d|的))")
# The noun a part's run modifies through 的, before a period or 的: 冠名的[马拉松赛事]2020年.
_HEAD_AFTER = re.compile(rf"的(?P<run>[{_CJK}]{{2,10}}?)(?=\s*(?:(?:19|20)\d{{2}}|fy\d|的))")


def cjk_parts(
    text: str,
    scan: list[tuple[str, AliasMatch]],
    profile: DomainProfile,
    known: frozenset[str],
    suffix: re.Pattern[str],
    add: Add,
) -> None:
    """ACME自有品牌咖啡2024年: the home company, then a part of it not known (``suffix``: the
    words that alone name nothing, 计划)."""
    home = profile.home_entity_code
    for k, w in scan:
        own = k == "entities" and w.code == home
        own = own and compact(text[w.start : w.end]) not in GENERIC_ALIASES
        part = _HOME_PART.match(text, w.end) if own else None
        head = _HEAD_AFTER.match(text, part.end()) if part is not None else None
        if head is not None and name_like(head.group("run"), known):
            part = head  # 金宇生物冠名的马拉松赛事: what 的 heads is the part, not its modifier
        if part is not None:
            start = part.start("run") + _generic_lead(part.group("run"))
            unit = start > part.start("run") and KIND_WORDS.fullmatch(text, start, part.end("run"))
            start = part.start("run") if unit else start  # 研发中心, not 中心: a unit, whole
            core = text[start : part.end("run")]
            plain = _NOT_A_PART.search(core) is None  # 全年, 合并报表: a period, a basis
            plain = plain and compact(part.group("run")) not in known  # 会员计划: a known word
            plain = plain and not suffix.fullmatch(core)  # 计划 alone names nothing
            named = unit or name_like(core, known)
            if len(core) >= 2 and plain and named and core[0] not in STOPS:
                add(start, part.end("run"), core, True)


def _generic_lead(run: str) -> int:
    """How much of ``run`` is common words (自有品牌, 旗下) before a name."""
    at, moved = 0, True
    while moved:
        moved = False
        for g in sorted(GENERIC_CJK, key=len, reverse=True):
            if len(g) >= 2 and run.startswith(g, at):
                at, moved = at + len(g), True
                break
    return at
