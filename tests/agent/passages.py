"""Demo passages named by their place in the corpus, as the chunk store keeps them, and the
citation a model writes for each: what a scripted model's reply is judged against."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ragspine.agent.narrative import NarrativeHit
from ragspine.retrieval.chunking.chunk_store import ChunkStore

Places = Mapping[str, tuple[str, str]]  # name → (document, locator)


def load_passages(corpus: Path | str, places: Places) -> dict[str, NarrativeHit]:
    """Each named passage with its text and heading path, read from the demo chunk store (a
    file or a database)."""
    out = {}
    with ChunkStore(corpus, create=False) as store:
        for name, (doc, locator) in places.items():
            row = store.connection.execute(
                "SELECT chunk_id, title, text FROM chunk WHERE doc_id = ? AND source_locator = ?",
                (doc, locator),
            ).fetchone()
            out[name] = NarrativeHit(
                chunk_id=row[0], doc_id=doc, locator=locator, text=row[2], title=row[1]
            )
    return out


def citation(places: Places, name: str) -> str:
    doc, locator = places[name]
    return f"(来源:{doc} {locator})"
