"""The narrative seam the agent depends on, and what flows through it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ragspine.sensitivity import DEFAULT_CLEARANCE


@dataclass(frozen=True)
class NarrativeHit:
    """One retrieved chunk, with the lineage the answer must cite."""

    chunk_id: str
    doc_id: str
    locator: str
    text: str
    title: str = ""
    score: float = 0.0
    period: str = ""  # its document's period label (FY2020), "" where the document names none


class NarrativeRetriever(Protocol):
    """Returns only chunks the caller's clearance allows; filtering happens before ranking."""

    def retrieve(
        self, query: str, *, top_k: int = 5, clearance: str = DEFAULT_CLEARANCE
    ) -> list[NarrativeHit]: ...
