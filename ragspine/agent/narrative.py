"""The narrative path: retrieve within the caller's clearance, optionally rerank, synthesise.

Synthesis trusts the model's prose but not its citations: any source document the model did
not name is appended, so provenance cannot be dropped by a forgetful model.
"""

from __future__ import annotations

from ragspine.agent.llm_provider import LLMProvider
from ragspine.errors import ProviderError
from ragspine.observability import Trace
from ragspine.retrieval.base import NarrativeHit, NarrativeRetriever
from ragspine.sensitivity import DEFAULT_CLEARANCE

__all__ = ["NarrativeHit", "NarrativeRetriever", "run_narrative"]

NARRATIVE_NOT_WIRED = (
    "未检索到相关文档:叙述通道尚未接入(not retrieved / not yet wired)。为避免误导,不提供任何推测。"
)
NARRATIVE_NO_HITS = "未检索到与问题相关的文档,无法据实回答;为避免误导,不提供任何推测。"
NARRATIVE_PROVIDER_DOWN = "AI 服务暂时不可用,无法生成文档归纳;为避免误导,不提供任何推测。"

NARRATIVE_SYSTEM = (
    "你是 RAGSpine 的文档问答助手。只根据用户消息中编号的资料片段回答,不要使用片段以外的知识,"
    "不要编造任何数字。每一句结论后用(来源:文档 位置)标注出处。资料不足时直接说明。"
)
TOP_K = 5
RERANK_POOL = 12


def _one_line(text: str) -> str:
    """Chunk text is untrusted: on one line it cannot forge a snippet header of its own."""
    return " ".join(text.split())


def run_narrative(
    question: str,
    retriever: NarrativeRetriever | None,
    provider: LLMProvider,
    trace: Trace,
    *,
    clearance: str = DEFAULT_CLEARANCE,
    rerank: bool = False,
    top_k: int = TOP_K,
) -> tuple[str, list[dict[str, str]]]:
    """Retrieve, synthesise from snippets only, and force every source into the answer."""
    if retriever is None:
        trace.code("narrative", "not_wired")
        return NARRATIVE_NOT_WIRED, []
    with trace.span("retrieve"):
        hits = retriever.retrieve(
            question, top_k=RERANK_POOL if rerank else top_k, clearance=clearance
        )
    trace.count("narrative_hits", len(hits))
    if not hits:
        trace.code("narrative", "no_hits")
        return NARRATIVE_NO_HITS, []
    if rerank:
        from ragspine.retrieval.rerank import listwise_rerank

        with trace.span("rerank"):
            hits, status = listwise_rerank(question, hits, provider)
        trace.code("rerank", status)
    hits = hits[:top_k]
    trace.add_ids("chunk_ids", [h.chunk_id for h in hits])
    snippets = "\n".join(
        f"[{i}] (来源:{h.doc_id} {h.locator}) {_one_line(h.text)}" for i, h in enumerate(hits, 1)
    )
    messages: list[dict[str, object]] = [
        {"role": "user", "content": f"问题:{question}\n\n资料:\n{snippets}"}
    ]
    try:
        with trace.span("synthesis"):
            response = provider.create_message(system=NARRATIVE_SYSTEM, messages=messages, tools=[])
    except ProviderError as exc:
        trace.code("provider_error", type(exc).__name__)
        trace.code("narrative", "provider_error")
        return NARRATIVE_PROVIDER_DOWN, []
    trace.count("llm_calls")
    for key, value in response.usage.items():
        trace.count(key, value)
    answer = response.text.strip() or "模型未给出归纳;以下为检索到的资料出处。"
    docs = list(dict.fromkeys(h.doc_id for h in hits))
    missing = [d for d in docs if d not in answer]
    if missing:
        trace.count("citations_appended", len(missing))
        answer += "\n(来源:" + "、".join(missing) + ")"
    sources: list[dict[str, str]] = []
    for h in hits:
        src = {"doc": h.doc_id, "locator": h.locator}
        if src not in sources:
            sources.append(src)
    trace.code("narrative", "answered")
    return answer, sources
