"""The seam every model sits behind: one Protocol, one method, in the Messages API shape."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from ragspine.errors import ProviderError, RagSpineError


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


def ask_model(
    provider: LLMProvider,
    *,
    system: str,
    messages: list[dict[str, object]],
    tools: list[dict[str, object]],
) -> ProviderResponse:
    """One call through the seam, whoever wrote the provider.

    A provider's own failure (any exception that is not one of ours) and a reply that is not a
    ``ProviderResponse`` with text are a ``ProviderError``, so the answer degrades honestly
    instead of crashing. The message names the exception's type, never its text: that may quote
    the request. Our own errors (a misuse, a cassette miss) propagate as they are.
    """
    try:
        response = provider.create_message(system=system, messages=messages, tools=tools)
    except RagSpineError:
        raise
    except Exception as exc:
        raise ProviderError(f"the provider raised {type(exc).__name__}", kind="other") from exc
    if not isinstance(response, ProviderResponse):
        raise ProviderError(
            f"the provider returned {type(response).__name__}, not a ProviderResponse",
            kind="malformed",
        )
    if not isinstance(response.text, str):
        raise ProviderError(
            f"the provider's reply text is {type(response.text).__name__}, not text",
            kind="malformed",
        )
    if not isinstance(response.tool_calls, list) or not all(
        isinstance(c, ToolCall) for c in response.tool_calls
    ):
        raise ProviderError("the provider's tool calls are not ToolCall objects", kind="malformed")
    return response


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


def probe(provider: object) -> None:
    """Before a run's first case, can the provider answer at all (its key, its endpoint)? Its
    ``probe()`` says, raising the one error every case would meet; a provider without one is
    taken as ready."""
    check = getattr(provider, "probe", None)
    if callable(check):
        check()
