"""An FAQ item held to the stores before it is stored, and its sources' levels for serving.

An item is vetted as any answer is, by the stores it cites:

* every source names a document a store holds (a chunk store document, or a fact store source
  file) and, at its locator, a passage or a figure of that document;
* the item is labelled at least as high as every source it cites. A lower label is refused,
  naming the source, never raised silently: the label is the person's decision, and a PUBLIC
  label on a RESTRICTED source is a mistake to see, not to repair;
* its answer's numbers are held to the cited passages and figures by the engine's own guard
  (``ground``), exactly as a model's prose is: a sentence the guard would remove refuses the
  item, quoted.

``source_levels`` gives every document's level, so the engine serves an item stored before
these checks (or whose source was since re-ingested higher) only to a caller cleared for all
of its sources.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from ragspine.agent.grounding import ground
from ragspine.agent.query_tools import ToolResult, found_result
from ragspine.agent.request import Request
from ragspine.agent.wording import say
from ragspine.errors import FaqError
from ragspine.faq.faq_cache import FaqItem, FaqSource
from ragspine.llm.mock import MockProvider
from ragspine.observability import Trace
from ragspine.profile import DomainProfile
from ragspine.retrieval.base import NarrativeHit
from ragspine.retrieval.chunking.chunk_store import ChunkStore, make_chunk_id
from ragspine.sensitivity import LEVELS
from ragspine.storage.fact_store import FactStore


def source_levels(facts: FactStore, chunks: ChunkStore | None) -> dict[str, str]:
    """Every document's level, by id: a chunk store document's, or its facts' highest."""
    levels = chunks.document_levels() if chunks is not None else {}
    for doc, level in facts.source_levels().items():
        levels[doc] = max(level, levels.get(doc, level), key=LEVELS.index)
    return levels


@dataclass(frozen=True)
class Library:
    """The stores an item's sources must be in."""

    facts: FactStore
    chunks: ChunkStore | None = None

    def vet(self, items: Sequence[FaqItem], profile: DomainProfile, today: date) -> None:
        """Every item checked (FaqError naming the first problem, ``item N:`` when several)."""
        levels = source_levels(self.facts, self.chunks)
        for n, item in enumerate(items, start=1):
            where = f"item {n}: " if len(items) > 1 else ""
            try:
                self._vet(item, levels, profile, today)
            except FaqError as exc:
                raise FaqError(f"{where}{exc}") from None

    def _vet(
        self, item: FaqItem, levels: dict[str, str], profile: DomainProfile, day: date
    ) -> None:
        hits: list[NarrativeHit] = []
        facts: list[ToolResult] = []
        for source in item.sources:
            named = f"source {source.doc}#{source.locator}"
            if source.doc not in levels:
                raise FaqError(f"{named}: no document {source.doc} in the stores")
            level = levels[source.doc]
            if LEVELS.index(level) > LEVELS.index(item.sensitivity):
                raise FaqError(
                    f"{named}: {source.doc} is {level}, above the item's {item.sensitivity}: "
                    f"label the item {level} or cite another source"
                )
            found = self._cited(source)
            if not found:
                raise FaqError(
                    f"{named}: {source.doc} has no passage or figure at {source.locator}"
                )
            for cited in found:
                (hits if isinstance(cited, NarrativeHit) else facts).append(cited)  # type: ignore[arg-type]
        _held_to(item, hits, facts, profile, day, self.facts)

    def _cited(self, source: FaqSource) -> list[NarrativeHit | ToolResult]:
        out: list[NarrativeHit | ToolResult] = []
        if self.chunks is not None:
            chunk_id = make_chunk_id(source.doc, source.locator)
            chunk = self.chunks.get_chunks([chunk_id]).get(chunk_id)
            if chunk is not None:
                out.append(
                    NarrativeHit(
                        chunk_id, chunk.doc_id, chunk.source_locator, chunk.text, chunk.title
                    )
                )
        out += [
            found_result(f)
            for f in self.facts.source_facts(source.doc)
            if f.source_locator == source.locator
        ]
        return out


def _held_to(
    item: FaqItem,
    hits: list[NarrativeHit],
    facts: list[ToolResult],
    profile: DomainProfile,
    day: date,
    store: FactStore,
) -> None:
    """The answer through the narrative guard, each line citing every cited passage."""
    cite = "".join(f"[{n}]" for n in range(1, len(hits) + 1))
    lines = item.answer.split("\n")
    text = "\n".join(f"{line}{cite}" if line.strip() else line for line in lines)
    req = Request(
        question=item.questions[0],
        store=store,
        provider=MockProvider(),
        reference_date=day,
        profile=profile,
        trace=Trace(),
    )
    report = ground(req, text, hits, facts)
    if report.sentences_removed or report.numbers_removed:
        bad = next(
            (line for line, out in zip(lines, report.text.split("\n"), strict=False)
             if say("guard.removed", req.language) in out),
            item.answer,
        )  # fmt: skip
        raise FaqError(f"answer: a number in 「{bad.strip()}」 is not stated by its sources")
