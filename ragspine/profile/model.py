"""The domain profile schema: who the home company is, what it reports, whom to refuse.

Version 1 profiles (the ACME demo's shape) load unchanged; everything added since is optional:
units with a display form and scale, display names, a metric's kind and period coverage, derived
metrics as formulas, terms the profile knows but has no facts for, partners, and no channels or
geography for a company that has none.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from ragspine.profile.formula import Formula, FormulaError, parse_formula
from ragspine.text import fold

T = TypeVar("T")

_CODE_PATTERN = r"^[A-Z][A-Z0-9_]*$"
_PERIOD_LABEL = r"^(?:FY\d{4}|\d{4}H[12]|\d{4}Q[1-4])$"
# A unit written by a person: a code (USD_M, PCT) or a word (元, 万元, 人), never blank or spaced.
_UNIT_PATTERN = r"^\S{1,16}$"


def compact(text: str) -> str:
    """Folded form with separators removed: the key two spellings of one alias share."""
    return _NOT_ALNUM.sub("", fold(text))


# What compact drops: a character str.isalnum() rejects (\w is isalnum or _, as re defines it).
_NOT_ALNUM = re.compile(r"[\W_]+")


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


class _Named(_Aliased):
    """Something answers name: ``name_zh`` first, then ``name_en``, then the code."""

    code: str = Field(pattern=_CODE_PATTERN)
    name_zh: str | None = None
    name_en: str | None = None

    @property
    def display_name(self) -> str:
        return self.name_zh or self.name_en or self.code


class EntitySpec(_Named):
    geography: str | None = None


class ExternalEntitySpec(_Aliased):
    """A company that is not the home company. A competitor is refused by the security gate; a
    partner may be talked about and is answered from documents, never with facts."""

    name: str = Field(min_length=1)
    role: Literal["competitor", "partner"] = "competitor"


class UnitSpec(_Strict):
    """How a unit reads in an answer (元, 万元, %, 人) and what one of it is worth in base units
    (万元 is 10000 元; USD_M is 1000000 USD), so a number written at another scale is checked."""

    code: str = Field(pattern=_UNIT_PATTERN)
    display: str = ""  # a plain multiple (a current ratio) shows none
    # How an English answer writes it (million USD, yuan); unset: ``display`` in both languages.
    name_en: str | None = None
    scale: float = Field(default=1, gt=0)
    kind: Literal["amount", "percent", "count", "ratio"] = "amount"

    @model_validator(mode="after")
    def _percent_by_sign(self) -> UnitSpec:
        """A unit shown as % is a percentage unless declared otherwise: 23.15%, not 23.15 %."""
        if "kind" not in self.model_fields_set and (self.display == "%" or self.code == "PCT"):
            self.kind = "percent"
        return self


class MetricSpec(_Named):
    unit: str = Field(pattern=_UNIT_PATTERN)
    # flow: over the period (revenue); balance: at its end (cash, headcount at year end).
    kind: Literal["flow", "balance"] = "flow"
    # Period labels with data (FY2019, 2024H1): assumptions and narrowing offer only these.
    coverage: list[str] | None = None

    @field_validator("coverage")
    @classmethod
    def _labels(cls, coverage: list[str] | None) -> list[str] | None:
        return _check_labels(coverage)


class DerivedMetricSpec(_Named):
    """A metric computed from others: ``(REVENUE - prev(REVENUE)) / prev(REVENUE)``.

    ``percent`` shows the ratio ×100 with a % sign; ``decimals`` is the rounding unless the
    question asks for another.
    """

    formula: str = Field(min_length=1)
    unit: str = Field(default="PCT", pattern=_UNIT_PATTERN)
    percent: bool = True
    decimals: int = Field(default=2, ge=0, le=8)

    _parsed: Formula | None = PrivateAttr(default=None)

    @property
    def parsed(self) -> Formula:
        if self._parsed is None:
            self._parsed = parse_formula(self.formula)
        return self._parsed

    @field_validator("formula")
    @classmethod
    def _parses(cls, formula: str) -> str:
        try:
            parse_formula(formula)
        except FormulaError as exc:
            raise ValueError(str(exc)) from None
        return formula


class ChannelSpec(_Aliased):
    code: str = Field(pattern=_CODE_PATTERN)


DEFAULT_CHANNEL = ChannelSpec(code="TOTAL", aliases=["总计", "合计", "整体", "total"])


class DomainProfile(_Strict):
    """A validated profile; compiled matchers are memoised on the instance."""

    version: int = Field(default=1, ge=1, le=2)
    name: str = Field(min_length=1)
    home_company_name: str = Field(min_length=1)
    home_entity_code: str = Field(pattern=_CODE_PATTERN)
    default_channel: str = Field(default="TOTAL", pattern=_CODE_PATTERN)
    entities: list[EntitySpec] = Field(min_length=1)
    external_entities: list[ExternalEntitySpec] = Field(default_factory=list)
    units: list[UnitSpec] = Field(default_factory=list)
    metrics: list[MetricSpec] = Field(min_length=1)
    derived_metrics: list[DerivedMetricSpec] = Field(default_factory=list)
    channels: list[ChannelSpec] = Field(default_factory=lambda: [DEFAULT_CHANNEL])
    # Line items the company reports but this profile has no facts for (递延所得税资产): known
    # words, so a shorter alias (所得税) never matches inside them.
    unsupported_terms: list[str] = Field(default_factory=list)
    # Whether a code written in a question (REVENUE, ACME_CN) names its item; tool arguments
    # accept codes either way. Off by default: a code such as CASH would match "cash flow".
    codes_are_aliases: bool = False
    # Periods with data, for metrics that declare none of their own.
    coverage: list[str] | None = None
    # Groups of interchangeable words for document search (营收 ~ 营业收入, store closure ~ 关店).
    synonyms: list[list[str]] = Field(default_factory=list)

    _memo: dict[str, Any] = PrivateAttr(default_factory=dict)

    @field_validator("coverage")
    @classmethod
    def _labels(cls, coverage: list[str] | None) -> list[str] | None:
        return _check_labels(coverage)

    @model_validator(mode="after")
    def _check_references(self) -> DomainProfile:
        entity_codes = [e.code for e in self.entities]
        if self.home_entity_code not in entity_codes:
            raise ValueError(f"home_entity_code {self.home_entity_code!r} is not an entity code")
        if self.default_channel not in [c.code for c in self.channels]:
            raise ValueError(f"default_channel {self.default_channel!r} is not a channel code")
        _check_codes("units", [u.code for u in self.units])
        _check_codes("metrics", [m.code for m in [*self.metrics, *self.derived_metrics]])
        for kind, items in (("entities", self.entities), ("channels", self.channels)):
            _check_codes(kind, [i.code for i in items])
        _check_aliases(self._vocabulary())
        for i, group in enumerate(self.synonyms):
            if len(group) < 2 or any(not compact(w) for w in group):
                raise ValueError(f"synonyms[{i}]: a group needs two or more non-empty words")
        known = {m.code for m in self.metrics}
        for d in self.derived_metrics:
            missing = [c for c in d.parsed.codes if c not in known]
            if missing:
                raise ValueError(
                    f"derived_metrics[{d.code}].formula: {', '.join(missing)} is not a metric "
                    "code (a formula is over stored metrics)"
                )
            for o in d.parsed.operands:
                if o.entity is not None and o.entity not in self.entity_codes:
                    raise ValueError(
                        f"derived_metrics[{d.code}].formula: entity={o.entity} is not an entity"
                    )
                if o.channel is not None and o.channel not in self.channel_codes:
                    raise ValueError(
                        f"derived_metrics[{d.code}].formula: channel={o.channel} is not a channel"
                    )
        return self

    def _vocabulary(self) -> list[tuple[str, str, str]]:
        """(kind and code, alias, where) for every word that names something in this profile."""
        out: list[tuple[str, str, str]] = [
            ("company:home", self.home_company_name, "home_company_name")
        ]
        for kind, items in (
            ("entities", self.entities),
            ("metrics", [*self.metrics, *self.derived_metrics]),
            ("channels", self.channels),
        ):
            for item in items:
                own = [item.code] if self.codes_are_aliases else []
                for alias in dict.fromkeys([*own, *item.aliases]):
                    out.append((f"{kind}:{item.code}", alias, f"{kind}[{item.code}]"))
        for ext in self.external_entities:
            for alias in dict.fromkeys([ext.name, *ext.aliases]):
                out.append((f"external:{ext.name}", alias, f"external_entities[{ext.name}]"))
        for term in self.unsupported_terms:
            out.append((f"unsupported:{term}", term, "unsupported_terms"))
        return out

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

    def derived(self, code: str) -> DerivedMetricSpec | None:
        return next((d for d in self.derived_metrics if d.code == code), None)

    def any_metric(self, code: str) -> MetricSpec | DerivedMetricSpec | None:
        found: MetricSpec | DerivedMetricSpec | None = next(
            (m for m in self.metrics if m.code == code), None
        )
        return found or self.derived(code)

    def entity(self, code: str) -> EntitySpec:
        for e in self.entities:
            if e.code == code:
                return e
        raise KeyError(code)

    def unit(self, code: str) -> UnitSpec:
        """The declared unit, or one that shows its code (a version-1 profile's USD_M)."""
        for u in self.units:
            if u.code == code:
                return u
        return UnitSpec(code=code, display=code, kind="percent" if code == "PCT" else "amount")

    def coverage_of(self, metric_code: str) -> list[str] | None:
        spec = self.any_metric(metric_code)
        own = spec.coverage if isinstance(spec, MetricSpec) else None
        return own if own is not None else self.coverage

    @property
    def metric_codes(self) -> list[str]:
        return [m.code for m in [*self.metrics, *self.derived_metrics]]

    @property
    def entity_codes(self) -> list[str]:
        return [e.code for e in self.entities]

    @property
    def channel_codes(self) -> list[str]:
        return [c.code for c in self.channels]

    @property
    def competitors(self) -> list[ExternalEntitySpec]:
        return [e for e in self.external_entities if e.role == "competitor"]

    @property
    def partners(self) -> list[ExternalEntitySpec]:
        return [e for e in self.external_entities if e.role == "partner"]


def _check_labels(coverage: list[str] | None) -> list[str] | None:
    import re

    for label in coverage or []:
        if not re.match(_PERIOD_LABEL, label):
            raise ValueError(f"period {label!r} is not a label like FY2020, 2020H1 or 2020Q3")
    return coverage


def _check_codes(kind: str, codes: Iterable[str]) -> None:
    seen: set[str] = set()
    for code in codes:
        if code in seen:
            raise ValueError(f"{kind}[{code}]: code {code!r} appears twice")
        seen.add(code)


def _check_aliases(words: list[tuple[str, str, str]]) -> None:
    """One word names one thing, across every kind: 生物股份 cannot be a metric and the company."""
    seen: dict[str, tuple[str, str, str]] = {}
    for owner, alias, where in words:
        key = compact(alias)
        if key in seen and seen[key][0] != owner:
            other_owner, other_alias, other_where = seen[key]
            if {owner.split(":")[0], other_owner.split(":")[0]} == {"company", "entities"}:
                continue  # the home company's name is naturally an alias of its home entity
            raise ValueError(
                f"{where}: alias {alias!r} collides with {other_alias!r} of {other_where}"
            )
        seen.setdefault(key, (owner, alias, where))
