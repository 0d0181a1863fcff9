"""A corpus with no documents, for runs on facts alone: a corpus a command is given must exist."""

from __future__ import annotations

from pathlib import Path

from ragspine.retrieval.chunking.chunk_store import ChunkStore

Stores = tuple[Path | str, Path | str]  # a run's facts and corpus: files, or PostgreSQL URLs


def empty_corpus(location: Path | str) -> Path | str:
    """``location`` (a file or a database) as a chunk store holding nothing (made once; later
    calls leave it as it is)."""
    with ChunkStore(location) as store:
        store.init_schema()
    return location
