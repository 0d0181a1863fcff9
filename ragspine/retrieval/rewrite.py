"""Glossary-driven multi-query rewriting.

'营收' and '营业收入' share no character bigram, and an English question shares no token with a
Chinese document. Each glossary term a question names (metric, entity, channel, or a synonym
group of the profile) is swapped for its sibling aliases, one variant per sibling position, so
every spelling the documents might use is searched, and RRF merges the rankings.
"""

from __future__ import annotations

import re

from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.glossary import AliasMatcher, glossary_for
from ragspine.text import fold

MAX_VARIANTS = 4


def _synonym_matcher(profile: DomainProfile) -> AliasMatcher:
    groups = {f"SYN_{i}": list(g) for i, g in enumerate(profile.synonyms)}
    return profile.memo("synonym_matcher", lambda: AliasMatcher(groups, include_codes=False))


def _siblings(profile: DomainProfile) -> dict[str, list[str]]:
    def build() -> dict[str, list[str]]:
        table: dict[str, list[str]] = {}
        for items in (profile.metrics, profile.entities, profile.channels):
            for item in items:
                table[item.code] = _ordered(item.aliases)
        for i, group in enumerate(profile.synonyms):
            table[f"SYN_{i}"] = _ordered(group)
        return table

    return profile.memo("rewrite_siblings", build)


def _ordered(aliases: list[str]) -> list[str]:
    """Alternate scripts (中文, English, 中文 …) so the first variants already cross languages."""
    cjk = [a for a in aliases if not a.isascii()]
    latin = [a for a in aliases if a.isascii()]
    out: list[str] = []
    for i in range(max(len(cjk), len(latin))):
        out.extend(x[i] for x in (cjk, latin) if i < len(x))
    return out


def rewrite_queries(
    query: str, profile: DomainProfile | None = None, *, max_variants: int = MAX_VARIANTS
) -> list[str]:
    """The query first, then up to ``max_variants`` rewrites with sibling aliases swapped in."""
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
    spans = []
    last_end = -1
    for m in matches:  # drop overlaps: the earliest, longest match wins
        if m.start >= last_end:
            spans.append(m)
            last_end = m.end
    if not spans:
        return [query]
    siblings = _siblings(prof)
    variants: list[str] = [query]
    for j in range(max_variants):
        parts: list[str] = []
        pos = 0
        for m in spans:
            options = siblings[m.code]
            parts.append(folded[pos : m.start])
            parts.append(f" {options[j % len(options)]} ")  # never glued to a neighbour
            pos = m.end
        parts.append(folded[pos:])
        variant = re.sub(r"\s+", " ", "".join(parts)).strip()
        if variant not in variants and fold(variant) != folded:
            variants.append(variant)
    return variants
