"""The offline provider: deterministic, no key, no network, and loud when misused.

It plays a careful model: on the structured path it calls ``query_metric`` with the ``[slots]``
the agent wrote, then renders the tool results; without tools it answers a rerank request or
synthesises extractively from numbered snippets. Every format it reads is ``prompts``'s.
"""

from __future__ import annotations

import itertools
import json
import re
from functools import lru_cache
from typing import Any

from ragspine.errors import ProviderMisuseError
from ragspine.llm import prompts
from ragspine.llm.base import ProviderResponse, ToolCall, estimate_tokens
from ragspine.text import fold

_WORD = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]")
_SENTENCE_END = re.compile(r"(?<=[。!?!?;;])|(?<=\.)\s|\s\|\s")  # | : a row break


class MockProvider:
    """Offline, deterministic and stateless: one instance serves every question and thread.

    Anything it cannot serve (no messages, a last turn that is not the user's, a tool it does
    not know, a tool turn without a ``[slots]`` line, free-form chat) raises
    ``ProviderMisuseError``: a bug in the caller, never an outage to degrade around.
    """

    model = "mock"

    def create_message(
        self,
        *,
        system: str,
        messages: list[dict[str, object]],
        tools: list[dict[str, object]],
    ) -> ProviderResponse:
        if not isinstance(messages, list) or not messages:
            raise ProviderMisuseError("MockProvider.create_message needs at least one message")
        last = messages[-1]
        if not isinstance(last, dict) or last.get("role") != "user":
            raise ProviderMisuseError("MockProvider: the last message must be a user turn")
        content = last.get("content")
        blocks = content if isinstance(content, list) else []
        results = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"]
        if results:
            return _reply(system, messages, "\n".join(_render(block) for block in results))
        text = content if isinstance(content, str) else _joined_text(blocks)
        if (rerank := prompts.read_rerank(text)) is not None:
            return _reply(system, messages, _rerank(*rerank))
        if tools:
            return self._call_tool(system, messages, text, tools)
        if (request := prompts.read_snippets(text)) is not None:
            return _reply(system, messages, _synthesise(*request))
        raise ProviderMisuseError(
            "MockProvider: without tools it only synthesises from numbered snippets "
            "('[1] (来源:doc locator) text') or answers a [rerank] request"
        )

    def _call_tool(
        self,
        system: str,
        messages: list[dict[str, object]],
        text: str,
        tools: list[dict[str, object]],
    ) -> ProviderResponse:
        names = {t.get("name") for t in tools if isinstance(t, dict)}
        if "query_metric" not in names:
            raise ProviderMisuseError(f"MockProvider only knows query_metric, got {names}")
        args = prompts.read_slots(text)
        if args is None:
            raise ProviderMisuseError(
                "MockProvider: a query_metric turn needs the agent's [slots] line"
            )
        # The id depends on the conversation only: the mock keeps no state between calls.
        turn = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
        call = ToolCall(id=f"toolu_mock_{turn + 1:04d}", name="query_metric", input=args)
        raw = [{"type": "tool_use", "id": call.id, "name": call.name, "input": call.input}]
        return ProviderResponse(
            text="",
            tool_calls=[call],
            stop_reason="tool_use",
            raw_content=raw,
            usage=_usage(system, messages, raw),
        )


def _usage(system: str, messages: object, out: object) -> dict[str, int]:
    return {
        "input_tokens": estimate_tokens(system, messages),
        "output_tokens": estimate_tokens(out),
    }


def _reply(system: str, messages: object, text: str) -> ProviderResponse:
    return ProviderResponse(
        text=text,
        stop_reason="end_turn",
        raw_content=[{"type": "text", "text": text}],
        usage=_usage(system, messages, text),
    )


def _rerank(question: str | None, candidates: list[tuple[str, str]]) -> str:
    """Order candidates by how many of the question's character pairs and words they hold."""
    if question is None or not candidates:
        raise ProviderMisuseError("MockProvider: a rerank prompt needs 问题: and [cN] lines")
    wanted = _pairs(fold(question))
    scored = [
        (-len(wanted & _pairs(fold(body))), i, cid) for i, (cid, body) in enumerate(candidates)
    ]
    return json.dumps([cid for _, _, cid in sorted(scored)])


def _synthesise(question: str | None, snippets: list[prompts.Snippet]) -> str:
    """Extractive: from each snippet, the sentence sharing most with the question, cited.

    Snippets sharing nothing with the question are left out unless none share anything.
    """
    wanted = _pairs(fold(question)) if question is not None else set()
    picked: list[tuple[int, str, str]] = []
    for snippet in snippets:
        scored = [(len(wanted & pairs), -i, s) for i, (s, pairs) in enumerate(_read(snippet.text))]
        overlap, _, best = max(scored)
        picked.append((overlap, best, snippet.cite))
    relevant = [p for p in picked if p[0] > 0] or picked[:1]
    return "\n".join(f"{s}(来源:{cite})" for _, s, cite in relevant[:3])


@lru_cache(maxsize=4096)
def _read(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """A passage's sentences with their overlap signal, read once however often it is cited."""
    sentences = [s.strip() for s in _SENTENCE_END.split(text.strip()) if s.strip()]
    return tuple((s, frozenset(_pairs(fold(s)))) for s in sentences)


def _pairs(text: str) -> set[str]:
    """Latin words and CJK character pairs: enough overlap signal for a deterministic rerank."""
    units = _WORD.findall(text)
    pairs = {a + b for a, b in itertools.pairwise(units) if len(a) == len(b) == 1}
    return pairs | {u for u in units if len(u) > 1}


def _joined_text(blocks: list[Any]) -> str:
    return "\n".join(
        str(b.get("text", "")) for b in blocks if isinstance(b, dict) and b.get("type") == "text"
    )


def _render(block: dict[str, Any]) -> str:
    try:
        result = json.loads(block.get("content") or "")
    except (TypeError, ValueError) as exc:
        raise ProviderMisuseError("MockProvider: tool_result content must be JSON") from exc
    status = result.get("status") if isinstance(result, dict) else None
    if status == "found":
        return (
            f"{result['entity']} {result['period']} {result['metric_code']}:"
            f"{result['value']} {result['unit']}"
        )
    if status == "not_found":
        return "查不到该数据。"
    if status == "unrecognized_param":
        return f"无法识别参数 {result.get('param')}。"
    return "工具返回了未知结果。"
