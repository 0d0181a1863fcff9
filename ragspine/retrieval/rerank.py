"""Listwise rerank: the model reorders the top candidates; any doubt keeps the fused order.

The model sees short candidate ids (c1, c2 …), never chunk ids, and must return every one of
them exactly once. A provider error, unparseable output, an unknown or repeated id or a partial
list all fall back to the input order, with a code saying why.
"""

from __future__ import annotations

import json
import re

from ragspine.errors import ProviderError
from ragspine.llm import LLMProvider, ask_model
from ragspine.llm.prompts import RERANK_SYSTEM, Candidate, rerank_message
from ragspine.retrieval.base import NarrativeHit

_ARRAY = re.compile(r"\[[^\[\]]*\]", re.DOTALL)

RERANKED = "reranked"


def rerank_prompt(question: str, hits: list[NarrativeHit]) -> str:
    return rerank_message(question, [Candidate(h.title, h.text) for h in hits])


def listwise_rerank(
    question: str, hits: list[NarrativeHit], provider: LLMProvider
) -> tuple[list[NarrativeHit], str]:
    """The hits reordered by the model, and a status code (``reranked`` or ``fallback_*``)."""
    if len(hits) < 2:
        return list(hits), "skipped_too_few"
    messages: list[dict[str, object]] = [{"role": "user", "content": rerank_prompt(question, hits)}]
    try:
        response = ask_model(provider, system=RERANK_SYSTEM, messages=messages, tools=[])
    except ProviderError:
        return list(hits), "fallback_provider_error"
    order, status = parse_order(response.text, len(hits))
    if order is None:
        return list(hits), status
    return [hits[i] for i in order], RERANKED


def parse_order(text: str, n: int) -> tuple[list[int] | None, str]:
    """Positions 0..n-1 in the model's order, or None and why not."""
    match = _ARRAY.search(text or "")
    if not match:
        return None, "fallback_unparseable"
    try:
        ids = json.loads(match.group())
    except ValueError:
        return None, "fallback_unparseable"
    if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
        return None, "fallback_unparseable"
    valid = {f"c{i}" for i in range(1, n + 1)}
    if any(x not in valid for x in ids):
        return None, "fallback_unknown_id"
    if len(set(ids)) != len(ids):
        return None, "fallback_duplicate_id"
    if len(ids) != n:
        return None, "fallback_partial"
    return [int(x[1:]) - 1 for x in ids], RERANKED
