"""One question and what answering it needs, handed down the agent's functions as one object."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ragspine.llm import LLMProvider
from ragspine.observability import Trace
from ragspine.profile import DomainProfile
from ragspine.retrieval.base import NarrativeRetriever
from ragspine.sensitivity import DEFAULT_CLEARANCE
from ragspine.storage.fact_store import FactStore

# AgentResult.degraded: why an answer is less than it would be with every part working.
DEGRADED_PROVIDER = "provider_unavailable"  # the model failed; a fixed, number-free text stands
DEGRADED_NARRATIVE = "narrative_unavailable"  # no document corpus is wired


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
