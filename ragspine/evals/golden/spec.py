"""What a golden case is: the strict models a suite file validates against, and GoldenCase.

Apart from the loading (``golden``): these are what scorers, reports and the gate read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import InitVar, dataclass, field
from datetime import date
from functools import lru_cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ragspine.errors import GoldenError as GoldenError
from ragspine.sensitivity import Clearance

Route = Literal["structured", "narrative", "composite", "faq"]
Mode = Literal["none", "ask_first", "answer_with_assumptions", "out_of_scope_entity"]
Status = Literal["found", "not_found", "unrecognized_param"]

_ID = r"^[a-z0-9][a-z0-9._-]{0,99}$"
_TAG = r"^[a-z0-9][a-z0-9_-]{0,49}$"
_Words = Annotated[str, Field(min_length=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SourceRef(_Strict):
    doc: str = Field(min_length=1)
    locator: str | None = None
    # Any passage of a section: 'section=5.16' also matches section=5.16.2,para=3 (never
    # section=5.161); a list matches any of its prefixes: [page=10, page=11].
    locator_prefix: str | list[str] | None = None

    def matches(self, source: Mapping[str, object]) -> bool:
        """Whether a cited source is this one."""
        locator = str(source.get("locator", ""))
        if source.get("doc") != self.doc or self.locator not in (None, locator):
            return False
        prefixes = (
            [self.locator_prefix] if isinstance(self.locator_prefix, str) else self.locator_prefix
        )
        return prefixes is None or any(
            locator.startswith(p) and locator[len(p) : len(p) + 1] in ("", ",", ".")
            for p in prefixes
        )

    def describe(self) -> str:
        where = self.locator or self.locator_prefix
        if isinstance(where, list):
            where = " | ".join(where)
        return self.doc + (f" · {where}" if where else "") + ("…" if self.locator_prefix else "")


class Expect(_Strict):
    route: Route | None = None
    clarification: Mode | None = None
    statuses: list[Status] | None = None
    # the metric codes queried, as a multiset: a derived metric, not its raw inputs
    metrics: list[str] | None = None
    guard_triggered: bool | None = None
    sources: list[SourceRef] | None = None
    answer_contains: list[str] = Field(default_factory=list)
    answer_excludes: list[str] = Field(default_factory=list)
    # The answer declines: no number, no found fact, no source, no question back. A string (or
    # any of a list, say the Chinese and the English name) is the quantity it must name:
    # `declined: 同店销售`. false: it must not decline. Read by the harness (score/reading.py).
    declined: bool | _Words | Annotated[list[_Words], Field(min_length=1)] | None = None
    # The one metric code the answer is about (its found results'): another fails the case.
    # change(CODE): the answer gives the metric's change between two periods, and says so.
    metric: str | None = Field(default=None, min_length=1)
    # The language the answer's own words are in (citations, quoted user words and lines drawn
    # from passages aside), read by the harness (score/language.py), not the engine.
    answer_language: Literal["en", "zh"] | None = None

    # Expectations added after cases were first digested: left out of a case's digest while
    # the case does not state them, so adding one does not mark every case edited.
    LATER: ClassVar[frozenset[str]] = frozenset({"declined", "metric", "answer_language"})

    def digest_material(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        return {k: v for k, v in data.items() if not (k in self.LATER and v is None)}


class CaseSpec(_Strict):
    id: str = Field(pattern=_ID)
    question: str = Field(min_length=1)
    tags: list[str] = Field(default_factory=list)
    reference_date: date | None = None
    clearance: Clearance | None = None
    expect: Expect


class SuiteDefaults(_Strict):
    reference_date: date | None = None
    clearance: Clearance = Clearance.INTERNAL
    tags: list[str] = Field(default_factory=list)


class SuiteSpec(_Strict):
    suite: str | None = Field(default=None, pattern=_TAG)
    defaults: SuiteDefaults = SuiteDefaults()
    cases: list[CaseSpec] = Field(min_length=1)


@lru_cache(maxsize=64)
def _expect_of(data: bytes) -> Expect:
    return Expect.model_validate_json(data)


@dataclass(frozen=True, slots=True)
class GoldenCase:
    """A case with its suite's defaults applied, and where it was written."""

    id: str
    question: str
    tags: tuple[str, ...]
    reference_date: date
    clearance: Clearance
    # Kept as compact JSON and read back on use: a run holds every chosen case, and 10k cases'
    # validated models were 20 MB where their JSON is 2.
    expectation: InitVar[Expect]
    suite: str
    file: str
    line: int
    _expect: bytes = field(init=False, repr=False)
    # A digest of what the case asks and expects: an edited expectation changes it. Made with
    # the case, where the parse may run in parallel, not once per result.
    spec: str = field(init=False, repr=False)

    def __post_init__(self, expectation: Expect) -> None:
        compact = expectation.model_dump_json(exclude_defaults=True).encode()
        object.__setattr__(self, "_expect", compact)
        material = json.dumps(
            {
                "question": self.question,
                "reference_date": self.reference_date.isoformat(),
                "clearance": self.clearance,
                "expect": expectation.digest_material(),
            },
            sort_keys=True,
            ensure_ascii=False,
        )
        object.__setattr__(self, "spec", hashlib.sha256(material.encode("utf-8")).hexdigest()[:16])

    @property
    def expect(self) -> Expect:
        return _expect_of(self._expect)
