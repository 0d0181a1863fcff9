"""The domain profile schema: who the home company is, what it reports, whom to refuse."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from ragspine.text import fold

T = TypeVar("T")

_CODE_PATTERN = r"^[A-Z][A-Z0-9_]*$"


def compact(text: str) -> str:
    """Folded form with separators removed: the key two spellings of one alias share."""
    return "".join(c for c in fold(text) if c.isalnum())


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class _Aliased(_Strict):
    aliases: list[str] = Field(min_length=1)

    @field_validator("aliases")
    @classmethod
    def _aliases_not_blank(cls, aliases: list[str]) -> list[str]:
        for alias in aliases:
            if not compact(alias):
                raise ValueError(f"alias {alias!r} has no letters or digits")
        return aliases


class EntitySpec(_Aliased):
    code: str = Field(pattern=_CODE_PATTERN)
    geography: str = Field(min_length=1)


class ExternalEntitySpec(_Aliased):
    name: str = Field(min_length=1)


class MetricSpec(_Aliased):
    code: str = Field(pattern=_CODE_PATTERN)
    unit: str = Field(pattern=_CODE_PATTERN)
    name_zh: str | None = None
    name_en: str | None = None


class ChannelSpec(_Aliased):
    code: str = Field(pattern=_CODE_PATTERN)


class DomainProfile(_Strict):
    """A validated profile; compiled matchers are memoised on the instance."""

    version: int = 1
    name: str = Field(min_length=1)
    home_company_name: str = Field(min_length=1)
    home_entity_code: str = Field(pattern=_CODE_PATTERN)
    default_channel: str = Field(default="TOTAL", pattern=_CODE_PATTERN)
    entities: list[EntitySpec] = Field(min_length=1)
    external_entities: list[ExternalEntitySpec] = Field(default_factory=list)
    metrics: list[MetricSpec] = Field(min_length=1)
    channels: list[ChannelSpec] = Field(min_length=1)
    # Groups of interchangeable words for document search (营收 ~ 营业收入, store closure ~ 关店).
    synonyms: list[list[str]] = Field(default_factory=list)

    _memo: dict[str, Any] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _check_references(self) -> DomainProfile:
        entity_codes = [e.code for e in self.entities]
        if self.home_entity_code not in entity_codes:
            raise ValueError(f"home_entity_code {self.home_entity_code!r} is not an entity code")
        if self.default_channel not in [c.code for c in self.channels]:
            raise ValueError(f"default_channel {self.default_channel!r} is not a channel code")
        for kind, items in (
            ("entities", self.entities),
            ("metrics", self.metrics),
            ("channels", self.channels),
        ):
            _check_unique_aliases(kind, [(i.code, [i.code, *i.aliases]) for i in items])
        for i, group in enumerate(self.synonyms):
            if len(group) < 2 or any(not compact(w) for w in group):
                raise ValueError(f"synonyms.{i}: a group needs two or more non-empty words")
        home = {compact(a): e.code for e in self.entities for a in e.aliases}
        for ext in self.external_entities:
            for alias in ext.aliases:
                if compact(alias) in home:
                    raise ValueError(
                        f"external entity {ext.name!r} alias {alias!r} is also an alias of "
                        f"{home[compact(alias)]}"
                    )
        return self

    def memo(self, key: str, build: Callable[[], T]) -> T:
        """Build a derived object once per profile (matchers, gates)."""
        memo: dict[str, Any] = self.__pydantic_private__["_memo"]  # type: ignore[index]
        if key not in memo:
            memo[key] = build()
        value: T = memo[key]
        return value

    def metric(self, code: str) -> MetricSpec:
        for m in self.metrics:
            if m.code == code:
                return m
        raise KeyError(code)

    def entity(self, code: str) -> EntitySpec:
        for e in self.entities:
            if e.code == code:
                return e
        raise KeyError(code)

    @property
    def metric_codes(self) -> list[str]:
        return [m.code for m in self.metrics]

    @property
    def entity_codes(self) -> list[str]:
        return [e.code for e in self.entities]

    @property
    def channel_codes(self) -> list[str]:
        return [c.code for c in self.channels]


def _check_unique_aliases(kind: str, items: list[tuple[str, list[str]]]) -> None:
    seen: dict[str, tuple[str, str]] = {}
    codes: set[str] = set()
    for code, aliases in items:
        if code in codes:
            raise ValueError(f"{kind}: code {code!r} appears twice")
        codes.add(code)
        for alias in aliases:
            key = compact(alias)
            if key in seen and seen[key][0] != code:
                other_code, other_alias = seen[key]
                raise ValueError(
                    f"{kind}: alias {alias!r} of {code} collides with "
                    f"{other_alias!r} of {other_code}"
                )
            seen[key] = (code, alias)
