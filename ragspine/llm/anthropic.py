"""Claude through the official SDK, imported only when a provider is built.

Timeouts and retries are the SDK's own. Every SDK failure, and every reply the SDK lets through
unchecked (a non-JSON body, a message of the wrong shape), becomes ``ProviderError`` here.
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any

from ragspine.errors import ProviderConfigError, ProviderError
from ragspine.llm.base import ProviderResponse, ToolCall

DEFAULT_ANTHROPIC_MODEL = "claude-opus-4-8"
DEFAULT_BASE_URL = "https://api.anthropic.com"
MAX_TOKENS = 1024
# What a Messages API reply counts, as the price table prices it.
USAGE_KEYS = (
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
)


class AnthropicProvider:
    """Claude through the official SDK; timeouts and retries are the SDK's own."""

    def __init__(
        self,
        model: str = DEFAULT_ANTHROPIC_MODEL,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        max_tokens: int = MAX_TOKENS,
    ) -> None:
        # The key is checked first: it is cheap, and importing the SDK takes seconds.
        key = api_key or os.environ.get("ANTHROPIC_API_KEY")
        if not key:
            raise ProviderConfigError(
                "no Anthropic API key: set ANTHROPIC_API_KEY (a cassette replayed with "
                "--cassette-mode strict needs none)"
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
        self.endpoint = str(self._client.base_url).rstrip("/")
        _warm_up(anthropic)

    def probe(self) -> None:
        """One small request before a run's first case: listing one model (no tokens, no cost)
        reaches the endpoint with the key. A connection failure or a refused key would fail
        every case alike, so each is raised here, naming the endpoint; any other answer (a
        gateway with no models route) says the endpoint is there."""
        try:
            self._client.models.list(limit=1)
        except self._sdk.APIStatusError as exc:
            if exc.status_code in (401, 403):
                raise ProviderConfigError(
                    f"{self.endpoint} refused the API key (HTTP {exc.status_code}): check "
                    "ANTHROPIC_API_KEY; nothing was run"
                ) from exc
        except self._sdk.APIConnectionError as exc:  # a timeout too
            raise ProviderError(
                f"cannot reach the model at {self.endpoint} ({type(exc).__name__}): check "
                "--base-url or ANTHROPIC_BASE_URL, and the network; nothing was run",
                kind="connection",
            ) from exc
        except self._sdk.APIError:
            return  # an answer the SDK could not read: someone is there

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
            status = exc.status_code
            raise ProviderError(
                f"Anthropic API error {status} ({type(exc).__name__})",
                kind=_status_kind(status),
                status=status,
            ) from exc
        except self._sdk.APITimeoutError as exc:
            raise ProviderError("Anthropic API timed out", kind="timeout") from exc
        except self._sdk.APIConnectionError as exc:
            raise ProviderError(
                f"Anthropic API unreachable ({type(exc).__name__})", kind="connection"
            ) from exc
        except self._sdk.APIError as exc:
            raise ProviderError(f"Anthropic API call failed ({type(exc).__name__})") from exc
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            # The SDK decodes a JSON-typed body with json.loads and lets both errors escape.
            raise ProviderError(
                "Anthropic API returned a body that is not JSON", kind="malformed"
            ) from exc
        return _from_anthropic(message)


# A reply in the Messages API's shape: building one through the SDK's own types once, here,
# pays the SDK's first-parse cost (type caches for the content union, tens of ms) before the
# first request rather than on every worker's first reply at once.
_CANNED = {
    "id": "msg_warm_up",
    "type": "message",
    "role": "assistant",
    "model": "warm-up",
    "content": [
        {"type": "text", "text": ""},
        {"type": "tool_use", "id": "toolu_warm_up", "name": "query_metric", "input": {}},
    ],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 0, "output_tokens": 0},
}


def _warm_up(sdk: Any) -> None:
    # an SDK that builds its types otherwise: nothing to warm, nothing lost
    with contextlib.suppress(Exception):
        sdk.types.Message.construct(**_CANNED)


def _status_kind(status: int) -> str:
    if status == 429:
        return "rate_limit"
    if status == 529:
        return "overloaded"
    return "server" if status >= 500 else "other"


def _from_anthropic(message: Any) -> ProviderResponse:
    """Check what the SDK does not: a Message of the wrong shape comes back with None fields."""
    content = getattr(message, "content", None)
    stop_reason = getattr(message, "stop_reason", None)
    if not isinstance(content, list) or not isinstance(stop_reason, str):
        raise ProviderError(
            "Anthropic API returned a malformed message (no content or stop_reason)",
            kind="malformed",
        )
    texts: list[str] = []
    calls: list[ToolCall] = []
    raw: list[dict[str, Any]] = []
    for block in content:
        kind = getattr(block, "type", None)
        if kind == "text":
            text = getattr(block, "text", None)
            if not isinstance(text, str):
                raise ProviderError(
                    "Anthropic API returned a text block without text", kind="malformed"
                )
            texts.append(text)
            raw.append({"type": "text", "text": text})
        elif kind == "tool_use":
            call_id, name, args = (getattr(block, a, None) for a in ("id", "name", "input"))
            if not (isinstance(call_id, str) and isinstance(name, str) and isinstance(args, dict)):
                raise ProviderError(
                    "Anthropic API returned a malformed tool_use block", kind="malformed"
                )
            calls.append(ToolCall(id=call_id, name=name, input=args))
            raw.append({"type": "tool_use", "id": call_id, "name": name, "input": args})
        elif isinstance(kind, str) and hasattr(block, "model_dump"):
            raw.append(block.model_dump(mode="json", exclude_none=True))
        else:
            raise ProviderError(
                "Anthropic API returned a content block without a type", kind="malformed"
            )
    usage_obj = getattr(message, "usage", None)
    usage = {k: v for k in USAGE_KEYS if isinstance(v := getattr(usage_obj, k, None), int)}
    return ProviderResponse(
        text="".join(texts), tool_calls=calls, stop_reason=stop_reason, raw_content=raw, usage=usage
    )
