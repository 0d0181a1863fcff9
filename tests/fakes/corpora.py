"""A corpus with no documents, for runs on facts alone: a corpus a command is given must exist."""

from __future__ import annotations

from pathlib import Path

from ragspine.retrieval.chunking.chunk_store import ChunkStore


def empty_corpus(path: Path) -> Path:
    """``path`` as a chunk store holding nothing (made once; later calls leave it as it is)."""
    with ChunkStore(path) as store:
        store.init_schema()
    return path
