"""Move a deployment's stores between SQLite and PostgreSQL (``ragspine store migrate``).

A side is where a deployment keeps its stores: a PostgreSQL database (``postgresql://…``: every
store in it, by schema; API keys in its ``api_key`` table) or a folder laid out as a
RAGSPINE_HOME (``sqlite:FOLDER`` or a plain path: facts.db, chunks.db, faq.db, keys.yaml).
Every store the source holds is copied (``storage.copy``: its tables, ids, times and lineage,
one transaction per target store) and then verified; a store it does not hold is skipped and
said. Nothing is written unless every target store is empty, or ``replace`` was asked.

The copied corpus's generation is set above both sides' (``advance_generation``): every host's
index is rebuilt from the copy at its first search, never taken from an older corpus.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragspine.errors import ConfigError, StoreNotFoundError
from ragspine.faq.faq_cache import FaqCache
from ragspine.retrieval.chunking.chunk_store import ChunkStore, advance_generation
from ragspine.service.keys import KeyEntry, load_keys, utc_now, write_keys
from ragspine.service.keys_pg import PgKeys
from ragspine.storage.copy import (
    CopyError,
    Progress,
    TableCheck,
    checksum,
    copy_tables,
    row_counts,
    same_columns,
    verify,
)
from ragspine.storage.fact_store import FactStore
from ragspine.storage.store import Store
from ragspine.store_config import HOME_FILES
from ragspine.store_location import PgLocation, parse_location

# (what the table calls it, its RAGSPINE_HOME key, its store), parents of nothing: any order
KINDS: tuple[tuple[str, str, type[Store]], ...] = (
    ("facts", "db", FactStore),
    ("corpus", "corpus", ChunkStore),
    ("faq", "faq", FaqCache),
)


@dataclass(frozen=True)
class Side:
    """A PostgreSQL database or a RAGSPINE_HOME-style folder of SQLite files."""

    where: PgLocation | Path

    def location(self, key: str) -> PgLocation | Path:
        return self.where if isinstance(self.where, PgLocation) else self.where / HOME_FILES[key]

    @property
    def keys_file(self) -> Path:
        """A folder's keys.yaml (a database keeps its keys in a table)."""
        assert isinstance(self.where, Path)
        return self.where / HOME_FILES["keys"]

    def __str__(self) -> str:
        return str(self.where)


def parse_side(text: str, flag: str) -> Side:
    """``postgresql://…``, ``sqlite:FOLDER`` or a folder. A file is refused: a SQLite
    deployment is its folder of stores (facts.db, chunks.db, faq.db, keys.yaml)."""
    where = parse_location(text, flag=flag)
    if isinstance(where, Path) and where.is_file():
        raise ConfigError(
            f"{flag}: {where} is a file; name the folder holding facts.db, chunks.db, faq.db "
            "and keys.yaml (a RAGSPINE_HOME)"
        )
    return Side(where)


@dataclass
class Outcome:
    """What a migration did: every table checked, the stores the source did not hold."""

    checks: list[TableCheck] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    generation: int | None = None  # the copied corpus's

    @property
    def mismatched(self) -> list[TableCheck]:
        return [c for c in self.checks if not c.ok]


def migrate(source: Side, target: Side, *, replace: bool, progress: Progress | None) -> Outcome:
    """Copy every store ``source`` holds into ``target`` and verify each table (the module's
    docstring). A target holding rows, without ``replace``, is refused before any is written."""
    if str(source) == str(target):
        raise ConfigError(f"--from and --to are the same: {source}")
    outcome = Outcome()
    with ExitStack() as stack:
        pairs: list[tuple[str, Store, Store]] = []
        for label, key, kind in KINDS:
            try:
                src = stack.enter_context(kind(source.location(key), create=False))
            except StoreNotFoundError:
                outcome.skipped.append(label)
                continue
            src.init_schema()
            dst = stack.enter_context(kind(target.location(key)))
            dst.init_schema()
            pairs.append((label, src, dst))
        keys = stack.enter_context(_keys(source, target))
        if keys.source is None:
            outcome.skipped.append("keys")
        _refuse_held(pairs, keys, replace)
        sums: dict[str, dict[str, tuple[int, str]]] = {}
        for label, src, dst in pairs:
            finish = None
            if isinstance(src, ChunkStore):
                past = src.generation

                def finish(conn: Any, past: int = past) -> None:
                    outcome.generation = advance_generation(conn, past)

            sums[label] = copy_tables(
                src.connection, dst.connection, src.TABLES, replace=True, progress=progress,
                finish=finish,
            )  # fmt: skip
        for label, src, dst in pairs:
            outcome.checks += verify(
                label, src.connection, dst.connection, src.TABLES, source_sums=sums[label]
            )
        if keys.source is not None:
            entries = _dated(keys.source.read())
            keys.write(entries)
            outcome.checks.append(keys.check(entries))
    return outcome


def _refuse_held(pairs: list[tuple[str, Store, Store]], keys: _KeyPair, replace: bool) -> None:
    """Before anything is written: the same columns on both sides, and an empty target (or
    ``replace``)."""
    held: list[str] = []
    for label, src, dst in pairs:
        same_columns(src.connection, dst.connection, src.TABLES)
        held += [
            f"{label}.{t} ({n} rows)"
            for t, n in row_counts(dst.connection, src.TABLES).items()
            if n
        ]
    if keys.source is not None and keys.target.read():
        held.append(f"keys ({len(keys.target.read())} keys)")
    if held and not replace:
        raise CopyError(f"{keys.target}: not empty: {', '.join(held)}; --replace replaces them")


class _Keys:
    """API keys on one side: a PostgreSQL table or a keys file."""

    def __init__(self, side: Side, store: PgKeys | None) -> None:
        self.side, self.store = side, store

    def read(self) -> list[KeyEntry]:
        if self.store is not None:
            return self.store.ring().entries
        path = self.side.keys_file
        return load_keys(path, environ={}).entries if path.is_file() else []

    def __str__(self) -> str:
        return str(self.side)


@dataclass
class _KeyPair:
    source: _Keys | None
    target: _Keys

    def write(self, entries: list[KeyEntry]) -> None:
        if self.target.store is not None:
            self.target.store.put_all(entries)
        else:
            write_keys(self.target.side.keys_file, entries)

    def check(self, written: list[KeyEntry]) -> TableCheck:
        """The keys copied (the source's, dated by ``_dated``) against the target's."""
        rows_from, sum_from = checksum(_key_rows(written))
        rows_to, sum_to = checksum(_key_rows(self.target.read()))
        return TableCheck("keys", "api_key", rows_from, rows_to, sum_from, sum_to)


def _key_rows(entries: list[KeyEntry]) -> list[tuple[Any, ...]]:
    return [(e.name, e.sha256, e.clearance, e.disabled, e.created_at) for e in entries]


def _dated(entries: list[KeyEntry]) -> list[KeyEntry]:
    """Every key with its creation time, as a table keeps it: one a keys file written before
    keys carried their time gives none, so it is as old as this copy."""
    now = utc_now()
    return [e if e.created_at else e.model_copy(update={"created_at": now}) for e in entries]


@contextmanager
def _keys(source: Side, target: Side) -> Iterator[_KeyPair]:
    """The keys of both sides; a source holding none (no table, no file) has ``None``."""
    with ExitStack() as stack:
        src: _Keys | None = None
        if isinstance(source.where, PgLocation):
            try:
                src = _Keys(source, stack.enter_context(PgKeys(source.where, create=False)))
            except StoreNotFoundError:
                src = None
        elif source.keys_file.is_file():
            src = _Keys(source, None)
        if src is not None and not src.read():
            src = None  # an empty table (every database has one once migrated) holds no keys
        dst_store = None
        if isinstance(target.where, PgLocation):
            dst_store = stack.enter_context(PgKeys(target.where))
            dst_store.init_schema()
        yield _KeyPair(src, _Keys(target, dst_store))
