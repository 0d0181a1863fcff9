"""The seam every model sits behind: one Protocol, one method, in the Messages API shape."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol


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


def model_name(provider: object) -> str | None:
    """The model a provider answers with, when it says (``provider.model``)."""
    model = getattr(provider, "model", None)
    return model if isinstance(model, str) else None


def endpoint_of(provider: object) -> str | None:
    """Where a provider reaches its model (a base URL, a cassette), when it says; never a key."""
    endpoint = getattr(provider, "endpoint", None)
    return endpoint if isinstance(endpoint, str) else None
