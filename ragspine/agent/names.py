"""The profile's names for what an answer speaks of, in the answer's language.

A Chinese answer names each item by its display name (``name_zh``, else ``name_en``, else the
code) and a unit by its ``display``. An English answer takes the profile's English name: an
entity's, metric's or unit's ``name_en``, else an entity's or metric's first English alias that
is not a code; a derived metric named only in Chinese is named from its formula's shape over its
operands' English names (intangible assets growth rate, ratio of X to Y); a channel is its first
English alias, as the metric's modifier (online revenue). Where the profile gives no English
name, the Chinese one is shown as the profile writes it: nothing is translated by guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ragspine.agent.wording import EN, ZH, Language
from ragspine.profile import DomainProfile
from ragspine.profile.vocabulary import derived_shapes

# A code (REVENUE, ACME_GROUP, 600201) is an alias for matching, not a name to show.
_CODE = re.compile(r"^[A-Z0-9_]+$")


def _english(aliases: Iterable[str]) -> str | None:
    return next((a for a in aliases if a.isascii() and not _CODE.match(a) and a.strip()), None)


def metric_name(code: str, prof: DomainProfile, lang: Language = ZH) -> str:
    """收入 / revenue; for a derived metric named only in Chinese, a name built from its
    formula's shape (intangible assets growth rate)."""
    spec = prof.any_metric(code)
    if spec is None:
        return code
    if lang == ZH:
        return spec.display_name
    named = spec.name_en or _english(spec.aliases)
    if named:
        return named
    shape = next((s for s, c in derived_shapes(prof).items() if c == code), None)
    if shape and shape[0] == "growth" and shape[1] != code:
        return f"{metric_name(shape[1], prof, EN)} growth rate"
    if shape and shape[0] == "ratio" and "+" not in shape[1] + shape[2]:
        return f"ratio of {metric_name(shape[1], prof, EN)} to {metric_name(shape[2], prof, EN)}"
    return spec.display_name


def entity_name(code: str, prof: DomainProfile, lang: Language = ZH) -> str:
    entity = next((e for e in prof.entities if e.code == code), None)
    if entity is None:
        return code
    if lang == ZH:
        return entity.display_name
    return entity.name_en or _english(entity.aliases) or entity.display_name


def home_name(prof: DomainProfile, lang: Language = ZH) -> str:
    """The company the system covers: the profile's company name, or its home entity's English
    name in English (ACME Group)."""
    if lang == ZH:
        return prof.home_company_name
    return entity_name(prof.home_entity_code, prof, EN)


def channel_word(code: str, prof: DomainProfile, lang: Language = ZH) -> str:
    """The channel's own name (线上 / online), whatever channel it is."""
    channel = next((c for c in prof.channels if c.code == code), None)
    if channel is None:
        return code if lang == ZH else code.lower()
    if lang == ZH:
        return channel.aliases[0]
    return _english(channel.aliases) or code.lower()


def unit_name(code: str, prof: DomainProfile, lang: Language = ZH) -> str:
    """百万美元 / million USD: how the answer writes the unit after a figure."""
    unit = prof.unit(code)
    return (unit.name_en or unit.display) if lang == EN else unit.display
