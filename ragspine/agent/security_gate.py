"""The deterministic security gate: questions about competitors are refused, never answered.

It calls no LLM and hardcodes no company: the competitor list and the home name come from the
profile. Matching runs on a folded, separator-stripped view of the text (so '竞 安', 'ＪｉｎｇＡｎ',
'Ј\u200bingАn' and '競安' are all seen as the competitor) and maps each hit back to the original
characters so the mask leaves no leaking substring ('竞安中国' never reads as ACME_CN).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine.agent.names import home_name
from ragspine.agent.wording import EN, ZH, Language, language_of, say
from ragspine.profile import DomainProfile, ExternalEntitySpec
from ragspine.profile.model import compact
from ragspine.text import fold_with_index

_CACHE_SIZE = 4096

SECURITY_ALLOW = "allow"
SECURITY_REFUSE_OUT_OF_SCOPE = "out_of_scope_entity"


@dataclass(frozen=True)
class SecurityHit:
    """A competitor alias found in the text; ``start:end`` indexes the original text."""

    name: str
    start: int
    end: int


@dataclass(frozen=True)
class SecurityScreen:
    hits: tuple[SecurityHit, ...]
    masked_text: str

    @property
    def external_entity(self) -> str | None:
        return self.hits[0].name if self.hits else None


@dataclass(frozen=True)
class SecurityVerdict:
    decision: str
    external_entity: str | None = None
    message: str = ""
    narrowing_options: tuple[str, ...] = ()

    @property
    def refused(self) -> bool:
        return self.decision == SECURITY_REFUSE_OUT_OF_SCOPE


def _is_latin_letter(char: str) -> bool:
    return char.isascii() and char.isalpha()


def _skeleton(key: str) -> str:
    """'l' and 'i' compare equal: Unicode folds the look-alikes of 'l' (Ӏ, ӏ, Ι, І) to 'i'."""
    return key.replace("l", "i")


class SecurityGate:
    """Longest-match competitor detection over a folded, stripped view of the text."""

    def __init__(
        self,
        external_entities: list[ExternalEntitySpec],
        home_company_name: str,
        home_name_en: str | None = None,
    ) -> None:
        self.home_company_name = home_company_name
        # the company a refusal names, in the question's language (ACME集团 / ACME Group)
        self.home_names: dict[Language, str] = {
            ZH: home_company_name,
            EN: home_name_en or home_company_name,
        }
        self._cache: dict[str, SecurityScreen] = {}
        self._names: dict[str, str] = {}
        for ext in external_entities:
            for alias in (ext.name, *ext.aliases):
                self._names.setdefault(_skeleton(compact(alias)), ext.name)
        keys = sorted(self._names, key=len, reverse=True)
        # A lookahead finds the longest alias starting at every position, overlaps included,
        # so a candidate rejected for a word boundary does not hide one that starts inside it.
        self._regex = re.compile("(?=(" + "|".join(map(re.escape, keys)) + "))") if keys else None

    @classmethod
    def for_profile(cls, profile: DomainProfile) -> SecurityGate:
        """The profile's gate, built once per profile."""
        return profile.memo(
            "security_gate",
            lambda: cls(profile.competitors, profile.home_company_name, home_name(profile, EN)),
        )

    def detect(self, text: str) -> SecurityScreen:
        """Every competitor mention, and the text with each one blanked to equal-length spaces."""
        # Parsing and the gateway both screen the same raw question; the answer cannot differ.
        cached = self._cache.get(text)
        if cached is None:
            if len(self._cache) >= _CACHE_SIZE:
                self._cache.clear()
            cached = self._cache[text] = self._detect(text)
        return cached

    def _detect(self, text: str) -> SecurityScreen:
        if self._regex is None:
            return SecurityScreen((), text)
        folded, origin = fold_with_index(text)
        kept = [i for i, c in enumerate(folded) if c.isalnum()]
        stripped = _skeleton("".join(folded[i] for i in kept))
        hits: list[SecurityHit] = []
        taken_until = 0
        for m in self._regex.finditer(stripped):
            start, alias = m.start(), m.group(1)
            end = start + len(alias)
            if start < taken_until or not self._on_boundaries(folded, kept, start, end, alias):
                continue
            taken_until = end
            first, last = origin[kept[start]], origin[kept[end - 1]]
            hits.append(SecurityHit(self._names[alias], first, last + 1))
        if not hits:
            return SecurityScreen((), text)
        chars = list(text)
        for hit in hits:
            chars[hit.start : hit.end] = " " * (hit.end - hit.start)
        return SecurityScreen(tuple(hits), "".join(chars))

    @staticmethod
    def _on_boundaries(folded: str, kept: list[int], start: int, end: int, alias: str) -> bool:
        """A Latin alias must not start or end inside a Latin word ('beijing and' is not JingAn).

        Only a Latin letter glues: digits and '_' are boundaries ('Zenith2024年', 'Zenith_收入').
        """
        if _is_latin_letter(alias[0]):
            before = kept[start] - 1
            if before >= 0 and _is_latin_letter(folded[before]):
                return False
        if _is_latin_letter(alias[-1]):
            after = kept[end - 1] + 1
            if after < len(folded) and folded[after] == "s":  # plural or possessive: BSDs
                after += 1
            if after < len(folded) and _is_latin_letter(folded[after]):
                return False
        return True

    def screen(self, *, raw_question: str, metric: str | None = None) -> SecurityVerdict:
        """Re-derive scope from the raw question only; never from parser output."""
        found = self.detect(raw_question)
        if not found.hits:
            return SecurityVerdict(SECURITY_ALLOW)
        lang = language_of(raw_question)
        home = self.home_names[lang]
        topic = metric or say("outside_company.topic", lang)
        return SecurityVerdict(
            SECURITY_REFUSE_OUT_OF_SCOPE,
            external_entity=found.external_entity,
            message=say("outside_company", lang, home=home),
            narrowing_options=(say("outside_company.option", lang, home=home, topic=topic),),
        )
