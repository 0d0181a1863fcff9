"""A retriever passed in through the NarrativeRetriever seam, recording what it was asked."""

from __future__ import annotations

from ragspine.retrieval.base import NarrativeHit


class FakeRetriever:
    def __init__(self, hits: list[NarrativeHit]) -> None:
        self.hits = hits
        self.queries: list[str] = []
        self.clearances: list[str] = []

    def retrieve(
        self, query: str, *, top_k: int = 5, clearance: str = "INTERNAL"
    ) -> list[NarrativeHit]:
        self.queries.append(query)
        self.clearances.append(clearance)
        return self.hits[:top_k]
