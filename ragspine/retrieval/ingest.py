"""Ingesting document files into the chunk store, then rebuilding the search index."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ragspine.errors import IngestError
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.chunking.chunker import chunk_text
from ragspine.retrieval.documents import SUPPORTED_SUFFIXES, load_document
from ragspine.retrieval.index import refresh_index
from ragspine.sensitivity import check_level

ADDED, REPLACED, UNCHANGED = "added", "replaced", "unchanged"


@dataclass
class IngestReport:
    files: list[tuple[str, str, int]] = field(default_factory=list)  # (doc_id, outcome, chunks)
    index_rebuilt: bool = False

    def count(self, outcome: str) -> int:
        return sum(1 for _, o, _ in self.files if o == outcome)


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, and the supported files inside any folder, in a stable order."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.suffix.lower() in SUPPORTED_SUFFIXES))
        elif p.exists():
            out.append(p)
        else:
            raise IngestError(f"{p}: no such file or folder")
    return out


def ingest_paths(
    store: ChunkStore,
    paths: Iterable[str | Path],
    *,
    sensitivity: str | None = None,
    on_file: Callable[[str, str, int], None] | None = None,
) -> IngestReport:
    """Add or replace documents (skipping unchanged ones by content hash), then reindex once.

    Every file is read and validated before anything is written, so one bad file leaves the
    store exactly as it was.
    """
    if sensitivity is not None:
        try:
            check_level(sensitivity)
        except ValueError as exc:
            raise IngestError(str(exc)) from None
    docs = [load_document(p, sensitivity=sensitivity) for p in expand_paths(paths)]
    seen: dict[str, Path] = {}
    for doc in docs:
        if doc.doc_id in seen:
            raise IngestError(f"{doc.path}: same document id as {seen[doc.doc_id]} ({doc.doc_id})")
        seen[doc.doc_id] = doc.path
    report = IngestReport()
    for doc in docs:
        previous = store.content_hash(doc.doc_id)
        if previous == doc.content_hash:
            outcome, n = UNCHANGED, 0
        else:
            n = store.replace_document(doc, chunk_text(doc.body, markdown=doc.markdown))
            outcome = ADDED if previous is None else REPLACED
        report.files.append((doc.doc_id, outcome, n))
        if on_file:
            on_file(doc.doc_id, outcome, n)
    report.index_rebuilt = refresh_index(store)[1]
    return report
