"""Glossary-driven multi-query rewriting.

'营收' and '营业收入' share no character bigram, and an English question shares no token with a
Chinese document. Every glossary term a question names (a metric, entity or channel alias, or a
word of one of the profile's synonym groups) brings its siblings along:

* the first query is the question plus the siblings written in the question's own script;
* the second is a translation: the siblings in the other script, one bag of words.

Two rankings rather than one per sibling, because RRF counts votes: near-identical
same-language variants would outvote the one ranking that can reach the other language.
"""

from __future__ import annotations

import re

from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.glossary import AliasMatch, AliasMatcher, glossary_for
from ragspine.text import fold

MAX_SIBLINGS = 6
_NUMBER = re.compile(r"(?<![a-z0-9])(?:fy)?(\d{2,4})(?![0-9])")


def _synonym_matcher(profile: DomainProfile) -> AliasMatcher:
    def build() -> AliasMatcher:
        groups = {f"SYN_{i}": list(g) for i, g in enumerate(profile.synonyms)}
        return AliasMatcher(groups, include_codes=False, inflect=True)

    return profile.memo("synonym_matcher", build)


def _siblings(profile: DomainProfile) -> dict[str, list[str]]:
    def build() -> dict[str, list[str]]:
        table: dict[str, list[str]] = {}
        for items in (profile.metrics, profile.derived_metrics, profile.entities, profile.channels):
            for item in items:
                table[item.code] = list(item.aliases)
        for i, group in enumerate(profile.synonyms):
            table[f"SYN_{i}"] = list(group)
        return table

    return profile.memo("rewrite_siblings", build)


def glossary_terms(query: str, profile: DomainProfile | None = None) -> list[AliasMatch]:
    """The glossary terms a query names, leftmost-longest, without overlaps."""
    prof = profile or default_profile()
    g = glossary_for(prof)
    folded = fold(query)
    matches = [
        *g.metrics.find_all(folded),
        *g.entities.find_all(folded),
        *g.channels.find_all(folded),
        *_synonym_matcher(prof).find_all(folded),
    ]
    matches.sort(key=lambda m: (m.start, -m.end))
    spans: list[AliasMatch] = []
    last_end = -1
    for m in matches:
        if m.start >= last_end:
            spans.append(m)
            last_end = m.end
    return spans


def _cjk(query: str) -> bool:
    """Whether the query is written mostly in Chinese (more non-ASCII characters than letters)."""
    return sum(not c.isascii() for c in query) > sum(c.isalpha() and c.isascii() for c in query)


def translated_terms(query: str, profile: DomainProfile | None = None) -> list[str]:
    """The other script's siblings of the query's glossary terms that name no entity (会员积分:
    members, points): the words by which the query reaches documents in the other language."""
    prof = profile or default_profile()
    cjk_query = _cjk(query)
    siblings = _siblings(prof)
    entities = set(prof.entity_codes)
    out: list[str] = []
    for term in glossary_terms(query, prof):
        if term.code in entities:
            continue
        out += [a for a in siblings[term.code] if (not a.isascii()) != cjk_query and a not in out]
    return out


def rewrite_queries(query: str, profile: DomainProfile | None = None) -> list[str]:
    """The expanded query first, then its translation; just the query if it names no term.

    The home company's own names are taken out, not expanded: every document in its corpus is
    about it, so they only pull its company-information pages to the top of every search.
    """
    prof = profile or default_profile()
    terms = glossary_terms(query, prof)
    home = [t for t in terms if t.code == prof.home_entity_code]
    if home:
        folded = fold(query)
        starts = [0, *(t.end for t in home)]
        ends: list[int | None] = [*(t.start for t in home), None]
        kept = " ".join(folded[a:b] for a, b in zip(starts, ends, strict=True))
        if kept.strip():
            query = kept
            terms = [t for t in terms if t.code != prof.home_entity_code]
    if not terms:
        return [query]
    cjk_query = _cjk(query)
    siblings = _siblings(prof)
    same: list[str] = []
    other: list[str] = []
    for term in terms:
        for alias in siblings[term.code][: MAX_SIBLINGS * 2]:
            bucket = same if (not alias.isascii()) == cjk_query else other
            if alias not in bucket:
                bucket.append(alias)
    folded = fold(query)
    expanded = " ".join([query, *(a for a in same if fold(a) not in folded)])
    if not other:
        return [expanded]
    # Years and other figures read the same in both languages: they go into the translation.
    numbers = list(dict.fromkeys(_NUMBER.findall(folded)))
    return [expanded, " ".join([*other, *numbers])]
