"""The LLM provider seam: one Protocol, one method, in the Anthropic Messages API shape.

``MockProvider`` is a real provider (offline, deterministic) that fails loudly when driven in a
way it cannot serve. ``AnthropicProvider`` wraps the official SDK, imported only when used; SDK
failures, and the replies the SDK lets through unchecked, become ``ProviderError`` here.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

from ragspine.errors import ProviderConfigError, ProviderError, ProviderMisuseError
from ragspine.profile import DomainProfile

__all__ = [
    "DEFAULT_ANTHROPIC_MODEL",
    "AnthropicProvider",
    "LLMProvider",
    "MockProvider",
    "ProviderError",
    "ProviderResponse",
    "ToolCall",
    "estimate_tokens",
    "make_provider",
]

DEFAULT_ANTHROPIC_MODEL = "claude-opus-4-8"

Message = dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class ProviderResponse:
    text: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    stop_reason: str | None = None
    raw_content: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)


class LLMProvider(Protocol):
    def create_message(
        self,
        *,
        system: str,
        messages: list[dict[str, object]],
        tools: list[dict[str, object]],
    ) -> ProviderResponse: ...


def estimate_tokens(*parts: object) -> int:
    """A stable, rough token count (about four characters a token) for offline providers."""
    return (
        sum(len(p if isinstance(p, str) else json.dumps(p, ensure_ascii=False)) for p in parts) // 4
    )


# --------------------------------------------------------------------------------------------
# MockProvider
# --------------------------------------------------------------------------------------------

SLOTS_LINE = re.compile(r"^\[slots\]\s+(.+)$", re.MULTILINE)
SNIPPET_LINE = re.compile(r"^\[(\d+)\]\s*\(来源:([^)\n]+)\)\s*(.+)$", re.MULTILINE)
RERANK_LINE = re.compile(r"^\[(c\d+)\]\s*(.*)$", re.MULTILINE)
_WORD = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]")
_SENTENCE_END = re.compile(r"(?<=[。!?!?;;])|(?<=\.)\s")


class MockProvider:
    """Offline and deterministic: calls query_metric once, then renders the tool results.

    Without tools it synthesises extractively from numbered snippets, citing each. Anything else
    (no messages, a last turn that is not the user's, a tool it does not know) is a misuse.
    """

    model = "mock"

    def __init__(
        self, *, profile: DomainProfile | None = None, reference_date: date | None = None
    ) -> None:
        self._profile = profile
        self._reference_date = reference_date
        self._calls = 0

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
            return self._render_results(system, messages, results)
        text = content if isinstance(content, str) else _joined_text(blocks)
        if text.startswith("[rerank]"):
            return self._rerank(system, messages, text)
        if tools:
            names = {t.get("name") for t in tools if isinstance(t, dict)}
            if "query_metric" not in names:
                raise ProviderMisuseError(f"MockProvider only knows query_metric, got {names}")
            return self._call_tool(system, messages, text)
        if SNIPPET_LINE.search(text):
            return self._synthesise(system, messages, text)
        raise ProviderMisuseError(
            "MockProvider: without tools it only synthesises from numbered snippets "
            "('[1] (来源:doc locator) text')"
        )

    def _usage(self, system: str, messages: object, out: object) -> dict[str, int]:
        return {
            "input_tokens": estimate_tokens(system, messages),
            "output_tokens": estimate_tokens(out),
        }

    def _text(self, system: str, messages: object, reply: str) -> ProviderResponse:
        return ProviderResponse(
            text=reply,
            stop_reason="end_turn",
            raw_content=[{"type": "text", "text": reply}],
            usage=self._usage(system, messages, reply),
        )

    def _call_tool(self, system: str, messages: object, text: str) -> ProviderResponse:
        args = _slots_from_line(text)
        if args is None:
            from ragspine.agent.intent import parse_intent

            intent = parse_intent(text, self._reference_date, profile=self._profile)
            if not (intent.metric and intent.entity and intent.period):
                reply = "无法从问题中确定要查询的指标、实体和期间。"
                return self._text(system, messages, reply)
            args = {
                "metric": intent.metric,
                "entity": intent.entity,
                "period": intent.period.label,
                "channel": intent.channel or "TOTAL",
            }
        self._calls += 1
        call = ToolCall(id=f"toolu_mock_{self._calls:04d}", name="query_metric", input=args)
        raw = [{"type": "tool_use", "id": call.id, "name": call.name, "input": call.input}]
        return ProviderResponse(
            text="",
            tool_calls=[call],
            stop_reason="tool_use",
            raw_content=raw,
            usage=self._usage(system, messages, raw),
        )

    def _render_results(
        self, system: str, messages: object, results: list[dict[str, Any]]
    ) -> ProviderResponse:
        lines = []
        for block in results:
            try:
                result = json.loads(block.get("content") or "")
            except (TypeError, ValueError) as exc:
                raise ProviderMisuseError("MockProvider: tool_result content must be JSON") from exc
            lines.append(_render_result(result))
        reply = "\n".join(lines)
        return self._text(system, messages, reply)

    def _rerank(self, system: str, messages: object, text: str) -> ProviderResponse:
        """Order candidates by how many of the question's character pairs and words they hold."""
        from ragspine.text import fold

        question = re.search(r"^问题:(.*)$", text, re.MULTILINE)
        candidates = RERANK_LINE.findall(text)
        if question is None or not candidates:
            raise ProviderMisuseError("MockProvider: a rerank prompt needs 问题: and [cN] lines")
        wanted = _pairs(fold(question.group(1)))
        scored = [
            (-len(wanted & _pairs(fold(body))), i, cid) for i, (cid, body) in enumerate(candidates)
        ]
        reply = json.dumps([cid for _, _, cid in sorted(scored)])
        return self._text(system, messages, reply)

    def _synthesise(self, system: str, messages: object, text: str) -> ProviderResponse:
        """Extractive: from each snippet, the sentence sharing most with the question, cited.

        Snippets sharing nothing with the question are left out unless none share anything.
        """
        from ragspine.text import fold

        question = re.search(r"^问题:(.*)$", text, re.MULTILINE)
        wanted = _pairs(fold(question.group(1))) if question else set()
        picked: list[tuple[int, str, str]] = []
        for _, cite, body in SNIPPET_LINE.findall(text):
            sentences = [s.strip() for s in _SENTENCE_END.split(body.strip()) if s.strip()]
            scored = [(len(wanted & _pairs(fold(s))), -i, s) for i, s in enumerate(sentences)]
            overlap, _, best = max(scored)
            picked.append((overlap, best, cite.strip()))
        relevant = [p for p in picked if p[0] > 0] or picked[:1]
        reply = "\n".join(f"{s}(来源:{cite})" for _, s, cite in relevant[:3])
        return self._text(system, messages, reply)


def _pairs(text: str) -> set[str]:
    """Latin words and CJK character pairs: enough overlap signal for a deterministic rerank."""
    units = _WORD.findall(text)
    pairs = {a + b for a, b in itertools.pairwise(units) if len(a) == len(b) == 1}
    return pairs | {u for u in units if len(u) > 1}


def _joined_text(blocks: list[Any]) -> str:
    return "\n".join(
        str(b.get("text", "")) for b in blocks if isinstance(b, dict) and b.get("type") == "text"
    )


def _slots_from_line(text: str) -> dict[str, str] | None:
    m = SLOTS_LINE.search(text)
    if not m:
        return None
    pairs = dict(p.split("=", 1) for p in m.group(1).split() if "=" in p)
    return {k: pairs[k] for k in ("metric", "entity", "period", "channel") if k in pairs}


def _render_result(result: dict[str, Any]) -> str:
    status = result.get("status")
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


# --------------------------------------------------------------------------------------------
# AnthropicProvider
# --------------------------------------------------------------------------------------------


class AnthropicProvider:
    """Claude through the official SDK; timeouts and retries are the SDK's own."""

    def __init__(
        self,
        model: str = DEFAULT_ANTHROPIC_MODEL,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        max_tokens: int = 1024,
    ) -> None:
        # The key is checked first: it is cheap, and importing the SDK takes seconds.
        key = api_key or os.environ.get("ANTHROPIC_API_KEY")
        if not key:
            raise ProviderConfigError(
                "no Anthropic API key: set ANTHROPIC_API_KEY or pass api_key= to AnthropicProvider"
            )
        try:
            import anthropic
        except ImportError as exc:
            raise ProviderConfigError(
                "the anthropic SDK is not installed: pip install 'ragspine[llm]'"
            ) from exc
        self.model = model
        self.max_tokens = max_tokens
        self._sdk = anthropic
        self._client = anthropic.Anthropic(
            api_key=key, base_url=base_url, timeout=timeout, max_retries=max_retries
        )

    def create_message(
        self,
        *,
        system: str,
        messages: list[dict[str, object]],
        tools: list[dict[str, object]],
    ) -> ProviderResponse:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": system,
            "messages": messages,
        }
        if tools:
            kwargs["tools"] = tools
        try:
            message = self._client.messages.create(**kwargs)
        except self._sdk.APIStatusError as exc:
            raise ProviderError(
                f"Anthropic API error {exc.status_code} ({type(exc).__name__})"
            ) from exc
        except self._sdk.APITimeoutError as exc:
            raise ProviderError("Anthropic API timed out") from exc
        except self._sdk.APIError as exc:
            raise ProviderError(f"Anthropic API call failed ({type(exc).__name__})") from exc
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            # The SDK decodes a JSON-typed body with json.loads and lets both errors escape.
            raise ProviderError("Anthropic API returned a body that is not JSON") from exc
        return _from_anthropic(message)


def _from_anthropic(message: Any) -> ProviderResponse:
    """Check what the SDK does not: a Message of the wrong shape comes back with None fields."""
    content = getattr(message, "content", None)
    stop_reason = getattr(message, "stop_reason", None)
    if not isinstance(content, list) or not isinstance(stop_reason, str):
        raise ProviderError(
            "Anthropic API returned a malformed message (no content or stop_reason)"
        )
    texts: list[str] = []
    calls: list[ToolCall] = []
    raw: list[dict[str, Any]] = []
    for block in content:
        kind = getattr(block, "type", None)
        if kind == "text":
            text = getattr(block, "text", None)
            if not isinstance(text, str):
                raise ProviderError("Anthropic API returned a text block without text")
            texts.append(text)
            raw.append({"type": "text", "text": text})
        elif kind == "tool_use":
            call_id, name, args = (getattr(block, a, None) for a in ("id", "name", "input"))
            if not (isinstance(call_id, str) and isinstance(name, str) and isinstance(args, dict)):
                raise ProviderError("Anthropic API returned a malformed tool_use block")
            calls.append(ToolCall(id=call_id, name=name, input=args))
            raw.append({"type": "tool_use", "id": call_id, "name": name, "input": args})
        elif isinstance(kind, str) and hasattr(block, "model_dump"):
            raw.append(block.model_dump(mode="json", exclude_none=True))
        else:
            raise ProviderError("Anthropic API returned a content block without a type")
    usage_obj = getattr(message, "usage", None)
    usage = {
        k: v
        for k in ("input_tokens", "output_tokens")
        if isinstance(v := getattr(usage_obj, k, None), int)
    }
    return ProviderResponse(
        text="".join(texts), tool_calls=calls, stop_reason=stop_reason, raw_content=raw, usage=usage
    )


def make_provider(spec: str, *, reference_date: date | None = None) -> LLMProvider:
    """A provider by name: ``mock``, ``anthropic`` or ``anthropic:MODEL``."""
    name, _, model = spec.partition(":")
    if name == "mock" and not model:
        return MockProvider(reference_date=reference_date)
    if name == "anthropic":
        return AnthropicProvider(model=model or DEFAULT_ANTHROPIC_MODEL)
    raise ProviderConfigError(f"unknown provider {spec!r}: use mock, anthropic or anthropic:MODEL")
