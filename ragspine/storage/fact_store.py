"""The structured channel's fact table, in SQLite on disk or in PostgreSQL (``storage.store``).

Lineage (source document and locator) is NOT NULL at the bottom of the stack: a fact cannot
exist without knowing where it came from. Every fact carries its source file's sensitivity, so
the structured channel can hide it from a caller as the narrative channel hides the file's
passages. Every query is parameterised.

On PostgreSQL a lookup's answer is held in memory (at most ``LOOKUPS`` of them) and kept while
the store's generation (``storage.generations``: bumped in the transaction of every write to the
facts or the stored profile) has not moved; a service reads that generation once per question.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import astuple, dataclass, fields
from decimal import Decimal, InvalidOperation

from ragspine.errors import ConstraintError, DatabaseError, DuplicateFactError, StoreError
from ragspine.sensitivity import DEFAULT_CLEARANCE, LEVELS, check_level
from ragspine.storage.db import Connection
from ragspine.storage.generations import generation
from ragspine.storage.store import Store

MIGRATIONS_PACKAGE = "ragspine.storage.migrations"
LOOKUPS = 4096  # lookups held per store on PostgreSQL; all dropped when it fills or moves on


@dataclass(frozen=True)
class StoredProfile:
    """A profile a store remembers: its YAML text as given, that text's SHA-256, its name."""

    version: int
    name: str
    sha256: str
    text: str


@dataclass(frozen=True)
class Fact:
    """One reported number. The first ten fields are positional and fixed; lineage last."""

    metric_code: str
    entity: str
    geography: str
    channel: str
    period_type: str
    period: str
    value: float
    unit: str
    source_doc_id: str
    source_locator: str
    source_file_hash: str | None = None
    extractor_version: str | None = None
    mapping_version: str | None = None
    value_text: str | None = None  # as the source wrote it: '318024319.30'
    sensitivity: str = DEFAULT_CLEARANCE  # its source file's: PUBLIC, INTERNAL or RESTRICTED

    def __post_init__(self) -> None:
        for name in ("metric_code", "entity", "channel", "period_type", "period", "unit"):
            if not getattr(self, name):
                raise ValueError(f"Fact.{name} must not be empty")
        if not self.source_doc_id or not self.source_locator:
            raise ValueError("a Fact needs its lineage: source_doc_id and source_locator")
        check_level(self.sensitivity)
        if self.value_text is not None:
            try:
                exact = Decimal(self.value_text)
            except InvalidOperation:
                raise ValueError(f"Fact.value_text {self.value_text!r} is not a number") from None
            if not exact.is_finite() or abs(float(exact) - float(self.value)) > 1e-9 * max(
                1.0, abs(float(self.value))
            ):
                raise ValueError(
                    f"Fact.value_text {self.value_text!r} does not match value {self.value!r}"
                )

    @property
    def exact(self) -> Decimal:
        """The value as a Decimal: as written at the source when known."""
        if self.value_text:
            return Decimal(self.value_text)
        exact = Decimal(repr(float(self.value)))  # 1320.0 → 1320, 12.50 → 12.5: no noise
        return exact.quantize(Decimal(1)) if exact == exact.to_integral() else exact.normalize()

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.metric_code, self.entity, self.channel, self.period_type, self.period)

    @property
    def source(self) -> dict[str, str]:
        return {"doc": self.source_doc_id, "locator": self.source_locator}


_COLUMNS = [f.name for f in fields(Fact)]
_OPTIONAL = {"source_file_hash", "extractor_version", "mapping_version", "value_text"}
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM fact_metric"
_INSERT = (
    f"INSERT INTO fact_metric ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' for _ in _COLUMNS)})"
)
_LOOKUP = (
    f"{_SELECT} WHERE metric_code = ? AND entity = ? AND channel = ? "
    "AND period_type = ? AND period = ?"
)


def _row(fact: Fact) -> tuple[object, ...]:
    pairs = zip(_COLUMNS, astuple(fact), strict=True)
    return tuple("" if v is None and n in _OPTIONAL else v for n, v in pairs)


def _fact(row: tuple[object, ...]) -> Fact:
    values = [None if n in _OPTIONAL and v == "" else v for n, v in zip(_COLUMNS, row, strict=True)]
    if values[-1] == "":  # stored before sensitivity was recorded, its file's level unknown
        values[-1] = DEFAULT_CLEARANCE
    return Fact(*values)  # type: ignore[arg-type]


class FactStore(Store):
    """A fact table in one SQLite file or PostgreSQL schema; safe to share between threads."""

    MIGRATIONS = MIGRATIONS_PACKAGE
    SCHEMA = "ragspine_facts"
    TABLES = ("fact_metric", "fact_history", "source_file", "stored_profile")
    GENERATION = "fact_state"
    _held: tuple[int, dict[tuple[str, ...], Fact | None]] = (-1, {})  # see ``lookup``
    KIND = "fact database"
    HOW_TO_BUILD = (
        "fill it with `ragspine ingest` or `facts load`; or build the demo, `ragspine fixtures`, "
        "and point at it with RAGSPINE_HOME=data/demo"
    )

    # -- writes ----------------------------------------------------------------------------
    def insert_facts(self, facts: Iterable[Fact]) -> int:
        """Insert all or nothing; a fact whose dimensions already exist is refused, not replaced."""
        batch = list(facts)
        seen: set[tuple[str, ...]] = set()
        for fact in batch:
            if fact.key in seen:
                raise DuplicateFactError(f"fact {'/'.join(fact.key)} appears twice in the batch")
            seen.add(fact.key)
        with self._lock:
            try:
                with self._conn:
                    self._conn.executemany(_INSERT, map(_row, batch))
            except ConstraintError as exc:
                clash = next((f for f in batch if self._lookup_unlocked(*f.key)), None)
                where = "/".join(clash.key) if clash else "?"
                raise DuplicateFactError(
                    f"{self.path}: fact {where} already exists; nothing was inserted"
                ) from exc
            except DatabaseError as exc:
                raise StoreError(f"{self.path}: insert failed: {exc}") from exc
        return len(batch)

    def replace_source(
        self, doc_id: str, facts: Iterable[Fact], *, file_hash: str = ""
    ) -> tuple[int, int]:
        """A source file's facts, replaced whole in one transaction: the ones it gave before move
        to ``fact_history``. Returns (inserted, superseded). A fact another file already states
        is refused (DuplicateFactError) and nothing changes."""
        with self._lock:
            try:
                with self._conn:
                    return self.replace_source_in(self._conn, doc_id, facts, file_hash=file_hash)
            except DatabaseError as exc:
                raise StoreError(f"{self.path}: replace failed: {exc}") from exc

    def replace_source_in(
        self,
        conn: Connection,
        doc_id: str,
        facts: Iterable[Fact],
        *,
        file_hash: str = "",
    ) -> tuple[int, int]:
        """``replace_source``'s statements inside the caller's transaction on ``conn`` (one that
        spans another store too); the caller holds this store's lock."""
        batch = list(facts)
        if any(f.source_doc_id != doc_id for f in batch):
            raise ValueError(f"replace_source({doc_id!r}) got a fact of another source")
        columns = ", ".join(_COLUMNS)
        moved = conn.execute(
            f"INSERT INTO fact_history ({columns}) SELECT {columns} FROM fact_metric "
            "WHERE source_doc_id = ?",
            (doc_id,),
        ).rowcount
        conn.execute("DELETE FROM fact_metric WHERE source_doc_id = ?", (doc_id,))
        try:
            conn.executemany(_INSERT, map(_row, batch))
        except ConstraintError as exc:  # read in the transaction: this source's own are gone
            clash = next((f for f in batch if self._lookup_on(conn, *f.key)), None)
            where = "/".join(clash.key) if clash else "?"
            other = self._lookup_on(conn, *clash.key) if clash else None
            by = f" (stated by {other.source_doc_id} · {other.source_locator})" if other else ""
            raise DuplicateFactError(
                f"{self.path}: fact {where} already exists{by}; nothing was replaced"
            ) from exc
        if file_hash:
            conn.execute(
                "INSERT INTO source_file (doc_id, file_hash, facts) VALUES (?, ?, ?) "
                "ON CONFLICT (doc_id) DO UPDATE SET file_hash = excluded.file_hash, "
                f"facts = excluded.facts, ingested_at = {conn.now}",
                (doc_id, file_hash, len(batch)),
            )
        return len(batch), moved

    def adopt_levels(self, levels: Mapping[str, str]) -> int:
        """Facts stored before sensitivity was recorded take their file's level (``levels``:
        document id → its sensitivity, as the chunk store holds it); returns how many did. A
        level stated since is never changed; a file no store knows stays read as INTERNAL."""
        with self._lock:
            try:
                docs = [
                    str(d)
                    for (d,) in self._conn.execute(
                        "SELECT DISTINCT source_doc_id FROM fact_metric WHERE sensitivity = ''"
                    )
                    if d in levels
                ]
                if not docs:
                    return 0
                with self._conn:
                    return sum(
                        self._conn.execute(
                            "UPDATE fact_metric SET sensitivity = ? "
                            "WHERE source_doc_id = ? AND sensitivity = ''",
                            (check_level(levels[d]), d),
                        ).rowcount
                        for d in docs
                    )
            except DatabaseError as exc:
                raise StoreError(f"{self.path}: cannot record the facts' levels: {exc}") from exc

    def history(self, doc_id: str) -> list[tuple[Fact, str]]:
        """The superseded facts of a source, oldest first, each with when it was superseded."""
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {', '.join(_COLUMNS)}, superseded_at FROM fact_history "
                "WHERE source_doc_id = ? ORDER BY id",
                (doc_id,),
            ).fetchall()
        return [(_fact(tuple(r[:-1])), str(r[-1])) for r in rows]

    def levels_of(self, doc_id: str) -> set[str]:
        """The sensitivities this source's facts are stored with ('' where not recorded)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT DISTINCT sensitivity FROM fact_metric WHERE source_doc_id = ?", (doc_id,)
            ).fetchall()
        return {str(level) for (level,) in rows}

    def source_facts(self, doc_id: str) -> list[Fact]:
        """The facts this source file states."""
        with self._lock:
            rows = self._conn.execute(
                f"{_SELECT} WHERE source_doc_id = ? ORDER BY id", (doc_id,)
            ).fetchall()
        return [_fact(r) for r in rows]

    def source_levels(self) -> dict[str, str]:
        """Each source file's level: its facts' highest (one not recorded read as INTERNAL)."""
        levels: dict[str, str] = {}
        with self._lock:
            rows = self._conn.execute(
                "SELECT DISTINCT source_doc_id, sensitivity FROM fact_metric"
            ).fetchall()
        for doc, level in rows:
            level = str(level) or DEFAULT_CLEARANCE
            levels[str(doc)] = max(level, levels.get(str(doc), level), key=LEVELS.index)
        return levels

    def source_hash(self, doc_id: str) -> str | None:
        """The hash of the file version last ingested under this id (facts or none), if any."""
        with self._lock:
            row = self._conn.execute(
                "SELECT file_hash FROM source_file WHERE doc_id = ?", (doc_id,)
            ).fetchone()
        return str(row[0]) if row and row[0] else None

    def remember_profile(self, name: str, text: str) -> tuple[StoredProfile, StoredProfile | None]:
        """Store the profile the facts are mapped with: (the store's profile now, the one before).

        A text different from the current one is a new version; the same text again adds none.
        """
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        with self._lock:
            try:
                with self._conn:
                    before = self._profile_unlocked()
                    if before is not None and before.sha256 == digest:
                        return before, before
                    version = before.version + 1 if before is not None else 1
                    self._conn.execute(
                        "INSERT INTO stored_profile (version, name, sha256, yaml_text) "
                        "VALUES (?, ?, ?, ?)",
                        (version, name, digest, text),
                    )
            except DatabaseError as exc:
                raise StoreError(f"{self.path}: cannot store the profile: {exc}") from exc
        return StoredProfile(version, name, digest, text), before

    def stored_profile(self) -> StoredProfile | None:
        """The profile stored last, if any."""
        with self._lock:
            return self._profile_unlocked()

    def _profile_unlocked(self) -> StoredProfile | None:
        row = self._conn.execute(
            "SELECT version, name, sha256, yaml_text FROM stored_profile "
            "ORDER BY version DESC LIMIT 1"
        ).fetchone()
        return StoredProfile(int(row[0]), str(row[1]), str(row[2]), str(row[3])) if row else None

    # -- reads -----------------------------------------------------------------------------
    def lookup(
        self, *, metric_code: str, entity: str, period_type: str, period: str, channel: str
    ) -> Fact | None:
        """The one fact with exactly these controlled codes, or None. On PostgreSQL from the
        lookups held while the generation is theirs (read first: what is held is never
        older than the number it is held under)."""
        key = (metric_code, entity, channel, period_type, period)
        counter = self.counter
        if counter is None:
            with self._lock:
                return self._lookup_unlocked(*key)
        now = generation(counter)
        held_at, held = self._held
        if held_at != now or len(held) >= LOOKUPS:  # != not <: a database replaced restarts
            held_at, held = self._held = (now, {})
        if key not in held:
            held[key] = self._lookup_unlocked(*key)
        return held[key]

    def _lookup_unlocked(
        self, metric_code: str, entity: str, channel: str, period_type: str, period: str
    ) -> Fact | None:
        return self._lookup_on(self._conn, metric_code, entity, channel, period_type, period)

    def _lookup_on(
        self,
        conn: Connection,
        metric_code: str,
        entity: str,
        channel: str,
        period_type: str,
        period: str,
    ) -> Fact | None:
        try:
            row = conn.execute(
                _LOOKUP, (metric_code, entity, channel, period_type, period)
            ).fetchone()
        except DatabaseError as exc:
            raise StoreError(f"{self.path}: lookup failed: {exc}") from exc
        return _fact(row) if row else None

    def iter_facts(self) -> Iterator[Fact]:
        with self._lock:
            rows = self._conn.execute(f"{_SELECT} ORDER BY id").fetchall()
        return map(_fact, rows)

    def count(self) -> int:
        with self._lock:
            (n,) = self._conn.execute("SELECT COUNT(*) FROM fact_metric").fetchone()
        return int(n)
