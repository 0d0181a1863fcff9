"""The FAQ cache: vetted answers, the engine's ``faq`` route, tried before the agent is asked.

A hit is matched on the question's normalised text (folded: traditional to simplified, full
width to half, case; no punctuation or spaces) and its parsed slots, so FY2024 and FY2023 are
never one question. It is served only when the same parser and gateway the agent uses say the
question needs no figure: a structured question (or any filled slot), another company, a
real-time cue (今天, 最新, latest, 股价 …) each make a deliberate miss, as do an item outside its
validity window, a disabled one, one above the caller's clearance and any RESTRICTED one. A miss
falls through to the agent, so the cache can never answer what needs the anti-fabrication guard.

An item's level is at least each cited source's: ``faq add|import`` refuses a lower label
(``vetting.Library``), and the engine gives the cache its stores' document levels
(``know_levels``), so an item labelled lower before (or a source re-ingested higher since) is
served only to a caller cleared for every source it cites.

On PostgreSQL the variants are held in memory, by their normalised text, and revalidated at each
lookup by the FAQ's generation (``storage.generations``, bumped by every write in its
transaction; in a service, read with the request's other counters in one query): an item added,
disabled or changed on one host is seen by every replica at its next lookup. A SQLite file's own
index answers as fast as a copy would, so it is read at each lookup.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ragspine.agent.intent import (
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ParsedIntent,
    clarify_scope,
    parse_intent,
)
from ragspine.agent.intent import ROUTE_NARRATIVE as NARRATIVE
from ragspine.errors import DatabaseError, StoreError
from ragspine.errors import FaqError as FaqError
from ragspine.profile import DomainProfile
from ragspine.sensitivity import LEVELS, Clearance, allowed_levels
from ragspine.storage.generations import generation
from ragspine.storage.store import Store
from ragspine.text import fold

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper

REALTIME = re.compile(
    r"今天|今日|现在|目前|当前|此刻|最新|实时|即时|刚刚|股价|行情|本周|本月"
    r"|\b(?:today|now|currently|current|latest|live|real[- ]time|right now"
    r"|stock price|share price)\b",
    re.I,
)
READINGS = 1024  # question readings a lookup keeps per profile (see ``readings``)
_NOT_WORD = re.compile(r"[\W_]+")
_SPACES = re.compile(r"\s+")

Reason = Literal[
    "hit",
    "no_match",
    "structured",
    "out_of_scope",
    "realtime",
    "expired",
    "disabled",
    "restricted",
    "above_clearance",
]
if TYPE_CHECKING:
    _Reader = _lru_cache_wrapper[tuple[Reason | None, str]]


class FaqSource(BaseModel):
    model_config = ConfigDict(extra="forbid")

    doc: str = Field(min_length=1)
    locator: str = Field(min_length=1)


class FaqItem(BaseModel):
    """A vetted answer as a person writes it (``ragspine faq add`` or an import file)."""

    model_config = ConfigDict(extra="forbid")

    questions: list[str] = Field(min_length=1)
    answer: str = Field(min_length=1)
    sources: list[FaqSource] = Field(min_length=1)  # a hit carries its own provenance
    valid_from: date | None = None
    valid_until: date | None = None
    enabled: bool = True
    sensitivity: Clearance = Clearance.INTERNAL

    @model_validator(mode="after")
    def _window(self) -> FaqItem:
        if self.valid_from and self.valid_until and self.valid_until < self.valid_from:
            raise ValueError("valid_until is before valid_from")
        return self


@dataclass(frozen=True)
class StoredItem:
    id: int
    item: FaqItem


@dataclass(frozen=True)
class Lookup:
    reason: Reason
    item: StoredItem | None = None

    @property
    def hit(self) -> bool:
        return self.reason == "hit"


def normalise(question: str) -> str:
    return _NOT_WORD.sub("", fold(question))


def slots_of(question: str, profile: DomainProfile, today: date) -> str:
    return _slots(parse_intent(question, today, profile=profile))


def _slots(i: ParsedIntent) -> str:
    period = i.period.label if i.period else ""
    return "|".join(x or "" for x in (i.metric, i.entity, period, i.channel))


def readings(profile: DomainProfile) -> _Reader:
    """The profile's reader of questions for lookups, with its last ``READINGS`` readings kept.

    A reading (why the question is refused, or None, and its slots) is a function of the
    question, the day and the profile alone, and the parse is most of a hit's cost; a FAQ is
    asked in the same words again and again. The day is part of the key ('last year' moves
    with it); the bound holds however callers vary the words or the day."""
    return profile.memo(
        "faq.readings", lambda: lru_cache(maxsize=READINGS)(partial(_read, profile=profile))
    )


def _read(question: str, day: date, *, profile: DomainProfile) -> tuple[Reason | None, str]:
    intent = parse_intent(question, day, profile=profile)
    return _excluded(question, intent, profile, day), _slots(intent)


def exclusion(question: str, profile: DomainProfile, today: date) -> Reason | None:
    """Why the agent's own reading of the question forbids a cached answer, if it does."""
    return _excluded(question, parse_intent(question, today, profile=profile), profile, today)


def _excluded(
    question: str, intent: ParsedIntent, profile: DomainProfile, today: date
) -> Reason | None:
    why = _screen(question, intent, profile, today)
    compact = _SPACES.sub("", question)  # "rev enue", "收 入": the words the spaces split
    if why is None and compact != question:
        why = _screen(compact, parse_intent(compact, today, profile=profile), profile, today)
    return why


def _screen(
    question: str, intent: ParsedIntent, profile: DomainProfile, today: date
) -> Reason | None:
    if clarify_scope(intent, today, profile=profile).mode == CLARIFY_OUT_OF_SCOPE_ENTITY:
        return "out_of_scope"
    filled = (intent.metric, intent.entity, intent.period, intent.channel)
    if intent.route != NARRATIVE or any(filled) or intent.metrics or intent.periods:
        return "structured"
    if REALTIME.search(fold(question)):
        return "realtime"
    return None


class Vetter(Protocol):
    """What holds items to their sources before they are stored (``vetting.Library``)."""

    def vet(self, items: Sequence[FaqItem], profile: DomainProfile, today: date) -> None: ...


def screen(items: Sequence[FaqItem], profile: DomainProfile, today: date) -> None:
    """FaqError for the first question the cache could never serve."""
    for n, item in enumerate(items, start=1):
        where = f"item {n}: " if len(items) > 1 else ""
        for q in item.questions:
            why = exclusion(q, profile, today)
            if why is not None:
                raise FaqError(
                    f"{where}question {q!r} would never be served from the cache: {_WHY[why]}"
                )
            if not normalise(q):
                raise FaqError(f"{where}question {q!r} has no words to match")


class FaqCache(Store):
    """Vetted items in one SQLite file or PostgreSQL schema; safe to share between threads."""

    MIGRATIONS = "ragspine.faq.migrations"
    SCHEMA = "ragspine_faq"
    TABLES = ("faq_item", "faq_variant")
    KIND = "FAQ cache"
    HOW_TO_BUILD = "add items with `ragspine faq add` or `ragspine faq import`"
    GENERATION = "faq_state"
    _levels: Mapping[str, str] = {}  # document id → its level, from the stores
    _held: tuple[int, dict[str, list[tuple[object, ...]]]] | None = None  # see ``refresh``
    _loading = threading.Lock()  # one reload at a time, in any cache: reloads are rare

    def know_levels(self, levels: Mapping[str, str]) -> None:
        """The stores' document levels: an item is served only within every source's."""
        self._levels = dict(levels)

    def add(
        self,
        item: FaqItem,
        profile: DomainProfile,
        *,
        today: date | None = None,
        library: Vetter | None = None,
    ) -> int:
        """Store a vetted item; one whose question the cache could never serve is refused."""
        return self.add_many([item], profile, today=today, library=library)[0]

    def add_many(
        self,
        items: list[FaqItem],
        profile: DomainProfile,
        *,
        today: date | None = None,
        library: Vetter | None = None,
    ) -> list[int]:
        """Every item checked (held to its sources by ``library``, which ``faq add|import``
        always give), then all stored in one transaction, or none."""
        day = today or date.today()
        screen(items, profile, day)
        if library is not None:
            library.vet(items, profile, day)
        ids: list[int] = []
        with self._lock:
            try:
                with self._conn:
                    for item in items:
                        ids.append(self._insert(item, profile, day))
            except DatabaseError as exc:
                raise StoreError(f"{self.path}: cannot store the items: {exc}") from exc
        return ids

    def _insert(self, item: FaqItem, profile: DomainProfile, day: date) -> int:
        cur = self._conn.execute(
            "INSERT INTO faq_item (answer, sources, valid_from, valid_until, enabled,"
            " sensitivity) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            (
                item.answer,
                json.dumps([s.model_dump() for s in item.sources], ensure_ascii=False),
                item.valid_from.isoformat() if item.valid_from else None,
                item.valid_until.isoformat() if item.valid_until else None,
                int(item.enabled),
                item.sensitivity,
            ),
        )
        item_id = int(cur.fetchone()[0])
        self._conn.executemany(
            "INSERT INTO faq_variant (item_id, question, normalised, slots) VALUES (?, ?, ?, ?)",
            [(item_id, q, normalise(q), slots_of(q, profile, day)) for q in item.questions],
        )
        return item_id

    def set_enabled(self, item_id: int, enabled: bool) -> bool:
        with self._lock, self._conn:
            cur = self._conn.execute(
                "UPDATE faq_item SET enabled = ? WHERE id = ?", (int(enabled), item_id)
            )
        return bool(cur.rowcount)

    def items(self) -> list[StoredItem]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, answer, sources, valid_from, valid_until, enabled, sensitivity"
                " FROM faq_item ORDER BY id"
            ).fetchall()
            variants = self._conn.execute(
                f"SELECT item_id, question FROM faq_variant ORDER BY {self._conn.insertion_order}"
            ).fetchall()
        questions: dict[int, list[str]] = {}
        for item_id, question in variants:
            questions.setdefault(item_id, []).append(question)
        return [_stored(row, questions.get(row[0], [])) for row in rows]

    def lookup(
        self,
        question: str,
        *,
        profile: DomainProfile,
        clearance: str,
        today: date | None = None,
        reference_date: date | None = None,
    ) -> Lookup:
        """The vetted item for this question, or why there is none (a code, for the trace).

        ``today`` decides validity (the server's date); ``reference_date`` only reads the
        question (what 'last year' means), so a caller cannot move an item's window.
        """
        valid_on = today or date.today()
        day = reference_date or valid_on
        rows = self._variants(normalise(question))
        if not rows:
            return Lookup("no_match")
        why, slots = readings(profile)(question, day)
        if why is not None:
            return Lookup(why)
        matched = [r for r in rows if r[7] == slots]
        if not matched:
            return Lookup("no_match")
        stored = _stored(matched[0][:7], [question])
        item = stored.item
        if not item.enabled:
            return Lookup("disabled", stored)
        if (item.valid_from and valid_on < item.valid_from) or (
            item.valid_until and valid_on > item.valid_until
        ):
            return Lookup("expired", stored)
        level = max(
            [item.sensitivity, *(self._levels.get(s.doc, "PUBLIC") for s in item.sources)],
            key=LEVELS.index,
        )
        if level == Clearance.RESTRICTED:
            return Lookup("restricted", stored)
        if level not in allowed_levels(clearance):
            return Lookup("above_clearance", stored)
        return Lookup("hit", stored)

    def _variants(self, normalised: str) -> list[tuple[object, ...]]:
        """The stored variants with this normalised text, their item's columns first, by item."""
        if self.counter is None:
            with self._lock:
                return self._conn.execute(
                    f"{_VARIANTS} WHERE v.normalised = ? ORDER BY i.id", (normalised,)
                ).fetchall()
        return self.refresh().get(normalised, [])

    def refresh(self) -> Mapping[str, list[tuple[object, ...]]]:
        """PostgreSQL: every variant, by normalised text, as the store holds them now: those
        held while the generation is theirs, else all read again (the generation first,
        so what is held is never older than the number it is held under)."""
        assert self.counter is not None
        now = generation(self.counter)
        held = self._held
        if held is None or held[0] != now:  # != not <: a database replaced starts again
            with self._loading:
                held = self._held
                if held is None or held[0] != now:
                    by: dict[str, list[tuple[object, ...]]] = {}
                    for row in self._conn.execute(f"{_VARIANTS} ORDER BY i.id").fetchall():
                        by.setdefault(str(row[8]), []).append(tuple(row[:8]))
                    held = self._held = (now, by)
        return held[1]


_VARIANTS = (
    "SELECT i.id, i.answer, i.sources, i.valid_from, i.valid_until, i.enabled, i.sensitivity,"
    " v.slots, v.normalised FROM faq_variant v JOIN faq_item i ON i.id = v.item_id"
)

_WHY: dict[str, str] = {
    "structured": "it asks for a figure (or names a metric, company or period), which only the "
    "fact table answers, with its source",
    "out_of_scope": "it names a company the profile does not cover",
    "realtime": "it asks about now (今天, 最新, latest, 股价 …), which a vetted answer cannot know",
}


def _stored(row: tuple[object, ...], questions: list[str]) -> StoredItem:
    item_id, answer, sources, valid_from, valid_until, enabled, sensitivity = row
    item = FaqItem(
        questions=questions or ["?"],
        answer=str(answer),
        sources=json.loads(str(sources)),
        valid_from=date.fromisoformat(str(valid_from)) if valid_from else None,
        valid_until=date.fromisoformat(str(valid_until)) if valid_until else None,
        enabled=bool(enabled),
        sensitivity=str(sensitivity),  # type: ignore[arg-type]
    )
    return StoredItem(int(str(item_id)), item)
