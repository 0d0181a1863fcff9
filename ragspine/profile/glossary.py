"""The glossary: free text to controlled codes, or None. It never guesses.

``find_*`` scan a question for every alias it names (longest alias first, Latin aliases only
on word boundaries so 'SEA' is not found in 'research'); ``normalize_*`` accept a value only
when the whole of it is one alias or code, which is what a tool argument must be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ragspine.profile.model import DomainProfile, compact
from ragspine.profile.periods import Period, find_periods, parse_period
from ragspine.text import fold


@dataclass(frozen=True)
class AliasMatch:
    code: str
    start: int
    end: int


def _alias_pattern(alias: str, *, inflect: bool = False) -> str:
    tokens = [t for t in re.split(r"[\W_]+", fold(alias)) if t]
    body = r"[\W_]*".join(re.escape(t) for t in tokens)
    head = r"(?<![a-z0-9_])" if tokens[0][0].isascii() else ""
    ending = r"(?:'?s|es|ed|d|ing)?" if inflect else r"(?:'?s)?"
    tail = ending + r"(?![a-z0-9_])" if tokens[-1][-1].isascii() else ""
    return head + body + tail


class AliasMatcher:
    """Every alias of one kind (metrics, entities, channels, synonyms), matched leftmost-longest.

    One pattern per alias, tried only when the alias's longest word occurs in the text: a
    single alternation over hundreds of aliases costs milliseconds a query, this microseconds.
    """

    def __init__(
        self, items: dict[str, list[str]], *, include_codes: bool = True, inflect: bool = False
    ) -> None:
        """``inflect`` also accepts English endings (returned, closing): for search words only,
        since for slots 'grouped' must not read as the entity 'group'."""
        pairs = [
            (code, alias)
            for code, aliases in items.items()
            for alias in dict.fromkeys([code, *aliases] if include_codes else aliases)
        ]
        pairs.sort(key=lambda p: len(compact(p[1])), reverse=True)
        self._codes = [code for code, _ in pairs]
        self._patterns = [re.compile(_alias_pattern(alias, inflect=inflect)) for _, alias in pairs]
        # Any match contains each of the alias's words verbatim; the longest is the best probe.
        self._probes = [
            max((t for t in re.split(r"[\W_]+", fold(alias)) if t), key=len) for _, alias in pairs
        ]
        self._exact = {compact(alias): code for code, alias in pairs}

    def find_all(self, folded: str) -> list[AliasMatch]:
        """Every alias occurrence in folded text, leftmost-longest, without overlaps."""
        found = [
            (m.start(), m.start() - m.end(), i, m.end())
            for i, probe in enumerate(self._probes)
            if probe in folded
            for m in self._patterns[i].finditer(folded)
        ]
        found.sort()
        out: list[AliasMatch] = []
        taken_until = 0
        for start, _, i, end in found:
            if start >= taken_until:
                out.append(AliasMatch(self._codes[i], start, end))
                taken_until = end
        return out

    def exact(self, raw: str) -> str | None:
        """The code whose alias (or code) is the whole of ``raw``, ignoring case and separators."""
        return self._exact.get(compact(raw))


class Glossary:
    """The profile's vocabulary, compiled once per profile."""

    def __init__(self, profile: DomainProfile) -> None:
        self.profile = profile
        self.metrics = AliasMatcher({m.code: m.aliases for m in profile.metrics})
        self.entities = AliasMatcher({e.code: e.aliases for e in profile.entities})
        self.channels = AliasMatcher({c.code: c.aliases for c in profile.channels})

    def normalize_metric(self, raw: str | None) -> str | None:
        return self.metrics.exact(raw) if isinstance(raw, str) else None

    def normalize_entity(self, raw: str | None) -> str | None:
        return self.entities.exact(raw) if isinstance(raw, str) else None

    def normalize_channel(self, raw: str | None) -> str | None:
        return self.channels.exact(raw) if isinstance(raw, str) else None

    def normalize_period(
        self, raw: str | None, reference_date: date | None = None
    ) -> Period | None:
        if not isinstance(raw, str):
            return None
        return parse_period(fold(raw), reference_date or date.today())

    def find_periods(self, folded: str, reference_date: date) -> list[Period]:
        matches = find_periods(folded, reference_date)
        return list(dict.fromkeys(pm.period for pm in matches if pm.period is not None))


def glossary_for(profile: DomainProfile | None = None) -> Glossary:
    """The compiled glossary of ``profile`` (the demo profile when None), built once."""
    from ragspine.profile import default_profile

    prof = profile or default_profile()
    return prof.memo("glossary", lambda: Glossary(prof))


def normalize_metric(raw: str | None, profile: DomainProfile | None = None) -> str | None:
    """A metric code for a whole alias or code, else None."""
    return glossary_for(profile).normalize_metric(raw)


def normalize_entity(raw: str | None, profile: DomainProfile | None = None) -> str | None:
    """An entity code for a whole alias or code, else None."""
    return glossary_for(profile).normalize_entity(raw)


def normalize_channel(raw: str | None, profile: DomainProfile | None = None) -> str | None:
    """A channel code for a whole alias or code, else None."""
    return glossary_for(profile).normalize_channel(raw)


def normalize_period(
    raw: str | None,
    reference_date: date | None = None,
    profile: DomainProfile | None = None,
) -> Period | None:
    """A single period for a whole period expression, else None."""
    return glossary_for(profile).normalize_period(raw, reference_date)
