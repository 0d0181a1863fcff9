"""One question and what answering it needs, handed down the agent's functions as one object."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from ragspine.agent.wording import Language, language_of
from ragspine.errors import ProviderError
from ragspine.llm import LLMProvider
from ragspine.observability import Trace
from ragspine.profile import DomainProfile
from ragspine.retrieval.base import NarrativeRetriever
from ragspine.sensitivity import DEFAULT_CLEARANCE
from ragspine.storage.fact_store import FactStore

# AgentResult.degraded: why an answer is less than it would be with every part working.
DEGRADED_PROVIDER = "provider_unavailable"  # the model failed; a fixed, number-free text stands
DEGRADED_NARRATIVE = "narrative_unavailable"  # no document corpus is wired


def note_provider_error(trace: Trace, exc: ProviderError) -> None:
    """Why the model failed, as codes an eval run counts by: ``provider_error=rate_limit``,
    ``provider_status=http_429``. Never the message: it may quote the request."""
    trace.code("provider_error", exc.kind)
    if exc.status is not None:
        trace.code("provider_status", f"http_{exc.status}")


@dataclass(frozen=True)
class Request:
    question: str
    store: FactStore
    provider: LLMProvider
    reference_date: date
    profile: DomainProfile
    trace: Trace
    retriever: NarrativeRetriever | None = None
    clearance: str = DEFAULT_CLEARANCE
    rerank: bool = False
    # the language the answer's words are in, decided once from the question (wording.py)
    language: Language = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "language", language_of(self.question))
