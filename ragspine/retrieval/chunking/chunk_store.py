"""Document chunks in SQLite or PostgreSQL (``storage.store``): every chunk with its doc_id,
source_locator and sensitivity.

A document is replaced whole (its chunks with it) when its content hash changes, and each
change bumps a generation counter so a saved search index can tell that it is stale; the
store's random id tells it apart from another store made at the same place.

On PostgreSQL, inside a request (``storage.generations``: the generation pinned by the worker's
listener, or one read at the request's start) the passages a search returns are held in memory
(at most ``ROWS_HELD``) under the store's id and that generation, like the search index itself:
a repeated answer costs no round trip, and a write (every one bumps the generation) drops them,
so a passage whose sensitivity rose is never served from what was held before, even while the
search index is still the older one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ragspine.errors import ConstraintError, StoreError
from ragspine.retrieval.chunking.chunker import ChunkDraft
from ragspine.retrieval.documents import Document
from ragspine.storage.db import Connection
from ragspine.storage.generations import generation as read_generation
from ragspine.storage.generations import is_pinned
from ragspine.storage.store import Store

MIGRATIONS_PACKAGE = "ragspine.retrieval.chunking.migrations"

ROWS_HELD = 4096  # passages held per store on PostgreSQL; all dropped when it fills or moves on
_COLUMNS = "chunk_id, doc_id, ord, source_locator, title, entity, period, sensitivity, text"


@dataclass(frozen=True)
class Chunk:
    chunk_id: str
    doc_id: str
    ord: int
    source_locator: str
    title: str
    entity: str
    period: str
    sensitivity: str
    text: str

    @property
    def index_text(self) -> str:
        """What BM25 sees: the heading path carries the topic of short paragraphs."""
        return f"{self.title}\n{self.text}"


@dataclass(frozen=True)
class DocumentRow:
    """A stored document as ``ragspine documents`` lists it."""

    doc_id: str
    title: str
    period: str
    sensitivity: str
    ingested_at: str
    chunks: int


def make_chunk_id(doc_id: str, locator: str) -> str:
    """Stable and short, and a plain code, so it may appear in a trace."""
    digest = hashlib.sha1(f"{doc_id}\x00{locator}".encode()).hexdigest()[:16]
    return f"c_{digest}"


class ChunkStore(Store):
    """Chunks and their documents in one SQLite file or PostgreSQL schema; safe to share
    between threads."""

    MIGRATIONS = MIGRATIONS_PACKAGE
    SCHEMA = "ragspine_chunks"
    TABLES = ("document", "chunk")  # corpus_state is a counter: see advance_generation
    _store_id: str | None = None  # the id ``state`` read first (a pinned request reuses it)
    _held: tuple[tuple[str, int] | None, dict[str, Chunk]] = (None, {})  # see ``get_chunks``
    GENERATION = "corpus_state"
    KIND = "chunk store"
    HOW_TO_BUILD = (
        "`ragspine ingest` files; or build the demo, `ragspine fixtures`, and point at it with "
        "RAGSPINE_HOME=data/demo"
    )

    # -- documents ---------------------------------------------------------------------------
    def content_hash(self, doc_id: str) -> str | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT content_hash FROM document WHERE doc_id = ?", (doc_id,)
            ).fetchone()
        return row[0] if row else None

    def document_levels(self) -> dict[str, str]:
        """Every document's sensitivity, by document id."""
        with self._lock:
            rows = self._conn.execute("SELECT doc_id, sensitivity FROM document").fetchall()
        return {str(d): str(level) for d, level in rows}

    def document_periods(self) -> dict[str, str]:
        """Every document's period label (FY2020; "" where it names none), by document id."""
        with self._lock:
            rows = self._conn.execute("SELECT doc_id, period FROM document").fetchall()
        return {str(d): str(period) for d, period in rows}

    def documents(self) -> list[DocumentRow]:
        """Every document with its period, level and chunk count, by document id."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT d.doc_id, d.title, d.period, d.sensitivity, d.ingested_at,"
                " (SELECT COUNT(*) FROM chunk c WHERE c.doc_id = d.doc_id)"
                " FROM document d ORDER BY d.doc_id"
            ).fetchall()
        return [DocumentRow(*r) for r in rows]

    def replace_document(self, doc: Document, drafts: Iterable[ChunkDraft]) -> int:
        """Store a document and its chunks, replacing any older version in one transaction."""
        with self._lock, self._conn:
            return self.replace_document_in(self._conn, doc, drafts)

    def replace_document_in(
        self, conn: Connection, doc: Document, drafts: Iterable[ChunkDraft]
    ) -> int:
        """``replace_document``'s statements inside the caller's transaction on ``conn`` (one
        that spans another store too); the caller holds this store's lock."""
        meta = doc.meta
        rows = [
            (
                make_chunk_id(doc.doc_id, d.locator),
                doc.doc_id,
                i,
                d.locator,
                f"{meta.title} › {d.heading}" if d.heading else meta.title,
                meta.entity,
                meta.period,
                meta.sensitivity,
                d.text,
            )
            for i, d in enumerate(drafts)
        ]
        try:
            conn.execute("DELETE FROM document WHERE doc_id = ?", (doc.doc_id,))
            conn.execute(
                "INSERT INTO document (doc_id, title, sensitivity, language, entity,"
                " period, content_hash, source_path) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    doc.doc_id,
                    meta.title,
                    meta.sensitivity,
                    meta.language,
                    meta.entity,
                    meta.period,
                    doc.content_hash,
                    str(doc.path),
                ),
            )
            conn.executemany(
                f"INSERT INTO chunk ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows
            )
            conn.execute("UPDATE corpus_state SET generation = generation + 1 WHERE id = 1")
        except ConstraintError as exc:
            raise StoreError(f"{doc.path}: cannot store its chunks: {exc}") from exc
        return len(rows)

    def delete_document(self, doc_id: str) -> bool:
        with self._lock, self._conn:
            cur = self._conn.execute("DELETE FROM document WHERE doc_id = ?", (doc_id,))
            if cur.rowcount:
                self._conn.execute(
                    "UPDATE corpus_state SET generation = generation + 1 WHERE id = 1"
                )
        return bool(cur.rowcount)

    # -- chunks ------------------------------------------------------------------------------
    @property
    def state(self) -> tuple[str, int]:
        """The store's id and the corpus's generation: one single-row read, cheap enough for
        every search (a replica's index follows a shared PostgreSQL corpus by it). The id is
        random, made with the store (migration 0002): a store made again at the same place
        has another, so an index saved for the old one is never taken as current. On
        PostgreSQL a request's pinned generation (``storage.generations``) answers without a
        query, with the id this store object read first (a database replaced under a running
        service is caught by its counter going back, which reloads)."""
        counter = self.counter
        if counter is not None and self._store_id is not None and is_pinned():
            return self._store_id, read_generation(counter)
        with self._lock:
            row = self._conn.execute(
                "SELECT store_id, generation FROM corpus_state WHERE id = 1"
            ).fetchone()
        self._store_id = str(row[0])
        if counter is not None and is_pinned():
            return str(row[0]), read_generation(counter)
        return str(row[0]), int(row[1])

    @property
    def generation(self) -> int:
        return self.state[1]

    @property
    def store_id(self) -> str:
        return self.state[0]

    def iter_chunks(self, page: int = 5_000) -> Iterator[Chunk]:
        """Every chunk, in a stable order (document, then position), a page at a time so a
        million-chunk corpus is never all in memory at once."""
        after: tuple[str, int] = ("", -1)
        while True:
            with self._lock:
                rows = self._conn.execute(
                    f"SELECT {_COLUMNS} FROM chunk WHERE (doc_id, ord) > (?, ?)"
                    " ORDER BY doc_id, ord LIMIT ?",
                    (*after, page),
                ).fetchall()
            yield from (Chunk(*r) for r in rows)
            if len(rows) < page:
                return
            after = (rows[-1][1], rows[-1][2])

    def get_chunks(self, chunk_ids: list[str]) -> dict[str, Chunk]:
        """The chunks of these ids that the store holds. Inside a request on PostgreSQL from
        those held under the request's generation (see the module), read first: what is held
        is never older than the state it is held under."""
        if not chunk_ids:
            return {}
        if self.counter is None or not is_pinned():
            return self._select(chunk_ids)
        now = self.state
        held_at, held = self._held
        if held_at != now or len(held) >= ROWS_HELD:  # != not <: a database replaced restarts
            held_at, held = self._held = (now, {})
        missing = [cid for cid in chunk_ids if cid not in held]
        if missing:
            held.update(self._select(missing))
        return {cid: held[cid] for cid in chunk_ids if cid in held}

    def _select(self, chunk_ids: list[str]) -> dict[str, Chunk]:
        marks = ",".join("?" for _ in chunk_ids)
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {_COLUMNS} FROM chunk WHERE chunk_id IN ({marks})", chunk_ids
            ).fetchall()
        return {r[0]: Chunk(*r) for r in rows}

    def count(self) -> int:
        with self._lock:
            (n,) = self._conn.execute("SELECT COUNT(*) FROM chunk").fetchone()
        return int(n)


def advance_generation(conn: Connection, past: int) -> int:
    """Inside a copy's transaction: the corpus's generation set above ``past`` (the highest
    either side had). A copied corpus is new content under a number, so no index saved for the
    source or for what the target held before (each of some generation) is taken as current."""
    (held,) = conn.execute("SELECT generation FROM corpus_state WHERE id = 1").fetchone()
    generation = max(int(held), past) + 1
    conn.execute("UPDATE corpus_state SET generation = ? WHERE id = 1", (generation,))
    return generation
