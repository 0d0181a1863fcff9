"""A miss said in English, for a question written in English.

A not-found line holds no figure, only words, so it is said in the question's language: the
entity, the period, the channel and the metric by the profile's English names, the channel as
the metric's modifier (mainland China FY2024 online gross margin). A name the profile gives
only in Chinese is taken from its English aliases (the first that is not a code), or for a
derived metric built from its formula's shape (growth, a ratio of two), else shown as the
profile writes it. A figure's own line keeps the profile's display names and units: that is
what the fact table stores and what the audit holds the answer to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ragspine.agent.query_tools import NotFoundResult
from ragspine.profile import DomainProfile
from ragspine.profile.periods import Period
from ragspine.profile.vocabulary import derived_shapes

NOT_FOUND_TAIL_EN = (
    "No number is given, to avoid misleading; you may ask again with another period or entity."
)
NO_GUESS_EN = "No number is given, to avoid misleading."

# A code (REVENUE, ACME_GROUP, 600201) is an alias for matching, not a name to show.
_CODE = re.compile(r"^[A-Z0-9_]+$")


def _english(aliases: Iterable[str]) -> str | None:
    return next((a for a in aliases if a.isascii() and not _CODE.match(a) and a.strip()), None)


def metric_name_en(code: str, prof: DomainProfile) -> str:
    """The metric's English name, its English alias, or, for a derived metric named only in
    Chinese, a name built from its formula's shape (intangible assets growth rate)."""
    spec = prof.any_metric(code)
    if spec is None:
        return code
    named = spec.name_en or _english(spec.aliases)
    if named:
        return named
    shape = next((s for s, c in derived_shapes(prof).items() if c == code), None)
    if shape and shape[0] == "growth" and shape[1] != code:
        return f"{metric_name_en(shape[1], prof)} growth rate"
    if shape and shape[0] == "ratio" and "+" not in shape[1] + shape[2]:
        return f"ratio of {metric_name_en(shape[1], prof)} to {metric_name_en(shape[2], prof)}"
    return spec.display_name


def entity_name_en(code: str, prof: DomainProfile) -> str:
    entity = next((e for e in prof.entities if e.code == code), None)
    if entity is None:
        return code
    return entity.name_en or _english(entity.aliases) or entity.display_name


def channel_name_en(code: str, prof: DomainProfile) -> str:
    """The channel as a modifier (online), nothing for the default one (the whole)."""
    if code == prof.default_channel:
        return ""
    channel = next((c for c in prof.channels if c.code == code), None)
    return (_english(channel.aliases) if channel else None) or code.lower()


def english_not_found_line(r: NotFoundResult, prof: DomainProfile) -> str:
    n = r["normalized"]
    channel = channel_name_en(n["channel"], prof)
    what = " ".join(
        w
        for w in (
            entity_name_en(n["entity"], prof),
            Period(n["period_type"], n["period"]).label,
            channel,
            metric_name_en(n["metric_code"], prof),
        )
        if w
    )
    missing = r.get("missing")
    if missing:
        parts = ", ".join(
            f"{p['period']} {metric_name_en(p['metric_code'], prof)}" for p in missing
        )
        return f"Not found: {what} cannot be computed; there is no figure for {parts}."
    return f"Not found: {what} is not in the fact table."
