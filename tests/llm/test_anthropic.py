"""AnthropicProvider against the real ``anthropic`` SDK and a fake Messages API on 127.0.0.1.

No key, no network: what is under test is the seam between the SDK's behaviour (retries,
timeouts, lenient parsing) and the provider's promise that every outside failure is a
ProviderError.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from ragspine.agent.query_tools import QUERY_METRIC_TOOL_ANTHROPIC
from ragspine.errors import ProviderConfigError, ProviderError
from ragspine.llm import AnthropicProvider, ProviderResponse, ToolCall
from tests.fakes.anthropic_server import (
    FakeAnthropicServer,
    RecordedRequest,
    Reply,
    error_body,
    text_message,
    tool_use_message,
)

MODEL = "claude-test-model"
SYSTEM = "you are a test"
MESSAGES: list[dict[str, object]] = [{"role": "user", "content": "中国内地FY2024的REVENUE是多少"}]
TOOLS: list[dict[str, object]] = [QUERY_METRIC_TOOL_ANTHROPIC]
ARGS = {"metric": "REVENUE", "entity": "ACME_CN", "period": "FY2024"}


def provider(server: FakeAnthropicServer, **kw: Any) -> AnthropicProvider:
    opts: dict[str, Any] = {"timeout": 2.0, "max_retries": 0} | kw
    return AnthropicProvider(model=MODEL, api_key="test-key", base_url=server.url, **opts)


def sent_key(req: RecordedRequest) -> str | None:
    # SDK 2.x sends the key as "Authorization: Bearer"; older ones used x-api-key.
    auth = req.headers.get("authorization", "")
    return (
        auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else req.headers.get("x-api-key")
    )


def ask(p: AnthropicProvider, tools: list[dict[str, object]] = TOOLS) -> ProviderResponse:
    return p.create_message(system=SYSTEM, messages=MESSAGES, tools=tools)


# --------------------------------------------------------------------------------------------
# Good replies
# --------------------------------------------------------------------------------------------


def test_tool_use_turn(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.script(
        tool_use_message(
            "query_metric", ARGS, tool_id="toolu_01", input_tokens=31, output_tokens=17
        )
    )
    resp = ask(provider(fake_anthropic))

    assert resp.tool_calls == [ToolCall(id="toolu_01", name="query_metric", input=ARGS)]
    assert resp.stop_reason == "tool_use"
    assert resp.text == ""
    assert resp.raw_content == [
        {"type": "tool_use", "id": "toolu_01", "name": "query_metric", "input": ARGS}
    ]
    assert resp.usage == {"input_tokens": 31, "output_tokens": 17}


def test_text_turn(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.script(text_message("中国内地 FY2024 收入 是 1,320 百万美元。"))
    resp = ask(provider(fake_anthropic))

    assert resp.text == "中国内地 FY2024 收入 是 1,320 百万美元。"
    assert resp.tool_calls == []
    assert resp.stop_reason == "end_turn"
    assert resp.raw_content == [{"type": "text", "text": resp.text}]


def test_request_carries_model_system_messages_tools(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.script(text_message("ok"))
    ask(provider(fake_anthropic, max_tokens=256))

    [req] = fake_anthropic.requests
    assert (req.method, req.path) == ("POST", "/v1/messages")
    assert sent_key(req) == "test-key"
    assert "anthropic-version" in req.headers
    assert req.body == {
        "model": MODEL,
        "max_tokens": 256,
        "system": SYSTEM,
        "messages": MESSAGES,
        "tools": TOOLS,
    }


def test_no_tools_sends_no_tools_key(fake_anthropic: FakeAnthropicServer) -> None:
    # An empty tools list is left out rather than sent as [].
    fake_anthropic.script(text_message("ok"))
    ask(provider(fake_anthropic), tools=[])
    assert "tools" not in fake_anthropic.requests[0].body


# --------------------------------------------------------------------------------------------
# Retries and transport failures: the SDK's own logic, surfaced as ProviderError
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        {"retry-after": "0.01"},  # the standard header; the SDK accepts fractional seconds
        {"retry-after-ms": "10"},  # the SDK's preferred millisecond variant
    ],
)
def test_429_then_success_is_retried_by_the_sdk(
    fake_anthropic: FakeAnthropicServer, header: dict[str, str]
) -> None:
    fake_anthropic.push(429, error_body("rate_limit_error", "slow down"), headers=header)
    fake_anthropic.script(text_message("after the retry"))

    # A small retry-after keeps this fast: "0" would fall back to the SDK's ~0.5 s backoff.
    resp = ask(provider(fake_anthropic, max_retries=2))

    assert resp.text == "after the retry"
    assert len(fake_anthropic.requests) == 2
    assert [r.headers["x-stainless-retry-count"] for r in fake_anthropic.requests] == ["0", "1"]
    assert fake_anthropic.requests[0].body == fake_anthropic.requests[1].body


@pytest.mark.parametrize(
    ("status", "error_type", "sdk_error", "kind"),
    [
        (500, "api_error", "InternalServerError", "server"),  # retryable, but max_retries=0
        (529, "overloaded_error", "OverloadedError", "overloaded"),  # Anthropic's "overloaded"
        (429, "rate_limit_error", "RateLimitError", "rate_limit"),  # retries exhausted
        (400, "invalid_request_error", "BadRequestError", "other"),  # never retried
        (401, "authentication_error", "AuthenticationError", "other"),  # a bad key
    ],
)
def test_error_status_is_provider_error(
    fake_anthropic: FakeAnthropicServer, status: int, error_type: str, sdk_error: str, kind: str
) -> None:
    fake_anthropic.push(status, error_body(error_type, "boom"))
    with pytest.raises(ProviderError, match=str(status)) as info:
        ask(provider(fake_anthropic, max_retries=0))
    assert type(info.value.__cause__).__name__ == sdk_error
    assert (info.value.kind, info.value.status) == (kind, status)
    assert len(fake_anthropic.requests) == 1


def test_500_with_html_body_is_provider_error(fake_anthropic: FakeAnthropicServer) -> None:
    # A proxy in front of the API answers with HTML, not the JSON error envelope.
    fake_anthropic.push(502, b"<html>bad gateway</html>", headers={"content-type": "text/html"})
    with pytest.raises(ProviderError, match="502") as info:
        ask(provider(fake_anthropic))
    assert info.value.__cause__ is not None


def test_timeout_is_provider_error(fake_anthropic: FakeAnthropicServer) -> None:
    # The reply would take 60 s; the bound only tells "gave up" from "waited" on a busy machine.
    fake_anthropic.push(200, text_message("too late"), delay=60.0)
    started = time.perf_counter()
    with pytest.raises(ProviderError, match="timed out") as info:
        ask(provider(fake_anthropic, timeout=0.3, max_retries=0))
    assert time.perf_counter() - started < 30
    assert type(info.value.__cause__).__name__ == "APITimeoutError"
    assert (info.value.kind, info.value.status) == ("timeout", None)


def test_connection_refused_is_provider_error() -> None:
    # A server that has gone away: the port is closed, nothing listens.
    with FakeAnthropicServer() as server:
        url = server.url
    p = AnthropicProvider(api_key="test-key", base_url=url, timeout=1.0, max_retries=0)
    with pytest.raises(ProviderError) as info:
        ask(p)
    assert type(info.value.__cause__).__name__ == "APIConnectionError"
    assert info.value.kind == "connection"


# --------------------------------------------------------------------------------------------
# Bodies the SDK lets through: the provider must catch them
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        b"<html>not json</html>",  # json.loads raises JSONDecodeError
        b"",  # empty body, also JSONDecodeError
        b'{"content": "\xff\xfe"}',  # not UTF-8: json.loads raises UnicodeDecodeError
    ],
)
def test_200_body_that_is_not_json_is_provider_error(
    fake_anthropic: FakeAnthropicServer, body: bytes
) -> None:
    # Content-type says JSON, so the SDK calls json.loads and lets its error escape.
    fake_anthropic.push(200, body)
    with pytest.raises(ProviderError, match="not JSON") as info:
        ask(provider(fake_anthropic))
    assert isinstance(info.value.__cause__, ValueError)


def test_200_html_body_is_provider_error(fake_anthropic: FakeAnthropicServer) -> None:
    # With a non-JSON content-type the SDK returns the body as a str instead of a Message;
    # there is no SDK exception to chain, so only the shape check can catch it.
    fake_anthropic.push(200, b"<html>hi</html>", headers={"content-type": "text/html"})
    with pytest.raises(ProviderError, match="malformed"):
        ask(provider(fake_anthropic))


@pytest.mark.parametrize(
    "body",
    [
        # the SDK builds a Message whose fields are all None
        pytest.param({"foo": 1}, id="foo"),
        # a list is passed through as-is
        pytest.param([], id="list"),
        # JSON null: the SDK returns None
        pytest.param(None, id="null"),
        # content is not a list
        pytest.param({"content": "text", "stop_reason": "end_turn"}, id="content-str"),
        # no stop_reason
        pytest.param({"content": [], "stop_reason": None}, id="no-stop-reason"),
        # a block without a type
        pytest.param({"content": [{"text": "x"}], "stop_reason": "end_turn"}, id="untyped"),
        # a block that is not an object
        pytest.param({"content": ["x"], "stop_reason": "end_turn"}, id="block-str"),
        # a text block without text
        pytest.param({"content": [{"type": "text"}], "stop_reason": "end_turn"}, id="no-text"),
    ],
)
def test_json_of_the_wrong_shape_is_provider_error(
    fake_anthropic: FakeAnthropicServer, body: Any
) -> None:
    fake_anthropic.script(Reply(200, b"null" if body is None else body))
    with pytest.raises(ProviderError, match=r"malformed|without"):
        ask(provider(fake_anthropic))


@pytest.mark.parametrize(
    "tool_input",
    [
        "metric=REVENUE",  # a string, as a confused model or proxy might send
        ["REVENUE", "ACME_CN"],  # a list
        None,  # missing
        42,  # a number
    ],
)
def test_tool_use_with_non_dict_input_is_provider_error(
    fake_anthropic: FakeAnthropicServer, tool_input: Any
) -> None:
    fake_anthropic.script(tool_use_message("query_metric", tool_input))
    with pytest.raises(ProviderError, match="tool_use"):
        ask(provider(fake_anthropic))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("id", None),  # no id: the tool_result could not be matched to it
        ("name", 7),  # a name that is not a string
    ],
)
def test_tool_use_with_bad_id_or_name_is_provider_error(
    fake_anthropic: FakeAnthropicServer, field: str, value: Any
) -> None:
    body = tool_use_message("query_metric", ARGS)
    body["content"][0][field] = value
    fake_anthropic.script(body)
    with pytest.raises(ProviderError, match="tool_use"):
        ask(provider(fake_anthropic))


def test_unknown_block_type_is_kept_in_raw_content(fake_anthropic: FakeAnthropicServer) -> None:
    # Newer block kinds (e.g. thinking) must survive so they can be sent back unchanged.
    body = text_message("answer")
    body["content"].insert(0, {"type": "thinking", "thinking": "hmm", "signature": "sig"})
    fake_anthropic.script(body)
    resp = ask(provider(fake_anthropic))
    assert resp.text == "answer"
    assert resp.raw_content[0] == {"type": "thinking", "thinking": "hmm", "signature": "sig"}


def test_bad_usage_is_dropped_not_trusted(fake_anthropic: FakeAnthropicServer) -> None:
    body = text_message("ok")
    body["usage"] = {"input_tokens": "many", "output_tokens": 3}
    fake_anthropic.script(body)
    assert ask(provider(fake_anthropic)).usage == {"output_tokens": 3}


# --------------------------------------------------------------------------------------------
# Configuration
# --------------------------------------------------------------------------------------------


def test_missing_api_key_is_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ProviderConfigError, match="ANTHROPIC_API_KEY"):
        AnthropicProvider(api_key=None, base_url="http://127.0.0.1:9")


def test_api_key_from_environment(
    fake_anthropic: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "env-key")
    fake_anthropic.script(text_message("ok"))
    AnthropicProvider(base_url=fake_anthropic.url, max_retries=0).create_message(
        system=SYSTEM, messages=MESSAGES, tools=TOOLS
    )
    assert sent_key(fake_anthropic.requests[0]) == "env-key"
