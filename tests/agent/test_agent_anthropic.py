"""answer_question end to end through AnthropicProvider, the real SDK and a fake Messages API.

Checks what only the wire shows: the tool_use / tool_result round trip the model would see,
and that the anti-fabrication guard and the honest degrade hold with a real SDK underneath.
"""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

import pytest

from ragspine.agent.agent import PROVIDER_UNAVAILABLE, STRUCTURED_SYSTEM, answer_question
from ragspine.agent.llm_provider import AnthropicProvider
from ragspine.agent.query_tools import QUERY_METRIC_TOOL_ANTHROPIC
from ragspine.storage.fact_store import FactStore
from tests.fakes.anthropic_server import (
    FakeAnthropicServer,
    Reply,
    error_body,
    text_message,
    tool_use_message,
)

QUESTION = "中国内地FY2024的REVENUE是多少"
REF = date(2025, 6, 30)
ARGS = {"metric": "REVENUE", "entity": "ACME_CN", "period": "FY2024"}
MODEL = "claude-test-model"


def provider(server: FakeAnthropicServer, **kw: Any) -> AnthropicProvider:
    opts: dict[str, Any] = {"timeout": 2.0, "max_retries": 0} | kw
    return AnthropicProvider(model=MODEL, api_key="test-key", base_url=server.url, **opts)


def test_tool_round_trip_and_fabricated_number_is_discarded(
    fake_anthropic: FakeAnthropicServer, store: FactStore
) -> None:
    fake_anthropic.script(
        tool_use_message("query_metric", ARGS, tool_id="toolu_e2e_1", text="让我查一下。"),
        text_message("中国内地 FY2024 收入 是 1320, and also 9999"),
    )
    result = answer_question(QUESTION, store, provider(fake_anthropic), reference_date=REF)

    assert "1,320 百万美元" in result.answer
    assert "ACME_FY2024_Review.pptx" in result.answer
    assert "9999" not in result.answer  # the model's prose is not what the user sees
    assert [s["doc"] for s in result.sources] == ["ACME_FY2024_Review.pptx"]

    first, second = (r.body for r in fake_anthropic.requests)
    assert first["model"] == MODEL
    assert first["system"] == STRUCTURED_SYSTEM
    assert first["tools"] == [QUERY_METRIC_TOOL_ANTHROPIC]
    assert first["messages"][0]["role"] == "user"
    assert QUESTION in first["messages"][0]["content"]

    # The second turn replays the model's tool_use, then answers it with a matching tool_result.
    assert len(second["messages"]) == 3
    assert second["messages"][0] == first["messages"][0]
    assistant, user = second["messages"][1:]
    assert assistant["role"] == "assistant"
    assert {"type": "tool_use", "id": "toolu_e2e_1", "name": "query_metric", "input": ARGS} in (
        assistant["content"]
    )
    assert user["role"] == "user"
    [block] = user["content"]
    assert block["type"] == "tool_result"
    assert block["tool_use_id"] == "toolu_e2e_1"
    tool_result = json.loads(block["content"])
    assert tool_result["status"] == "found"
    assert tool_result["value"] == 1320

    trace = result.trace.to_dict()
    assert trace["counts"]["llm_calls"] == 2
    assert trace["counts"]["input_tokens"] == 20 + 10  # usage from both fake replies
    assert "provider_error" not in trace["codes"]


@pytest.mark.parametrize(
    ("replies", "kw", "kind"),
    [
        # the request fails outright and is not retried
        pytest.param([Reply(500, error_body("api_error", "boom"))], {}, "server", id="500"),
        # the API is too slow for the client's timeout
        pytest.param(
            [Reply(200, text_message("1320"), delay=1.0)], {"timeout": 0.2}, "timeout", id="timeout"
        ),
        # a body the SDK cannot parse
        pytest.param([Reply(200, b"<html>1320</html>")], {}, "malformed", id="not-json"),
        # a tool call whose input is not an object
        pytest.param(
            [Reply(200, tool_use_message("query_metric", "REVENUE 1320"))],
            {},
            "malformed",
            id="bad-tool-input",
        ),
        # the first turn is fine, the second fails: the value already found is not shown either
        pytest.param(
            [
                Reply(200, tool_use_message("query_metric", ARGS)),
                Reply(529, error_body("overloaded_error", "busy")),
            ],
            {},
            "overloaded",
            id="second-turn-529",
        ),
    ],
)
def test_provider_failure_degrades_without_numbers(
    fake_anthropic: FakeAnthropicServer,
    store: FactStore,
    replies: list[Reply],
    kw: dict[str, Any],
    kind: str,
) -> None:
    fake_anthropic.script(*replies)
    result = answer_question(QUESTION, store, provider(fake_anthropic, **kw), reference_date=REF)

    assert result.answer == PROVIDER_UNAVAILABLE
    assert not re.search(r"\d", result.answer)
    assert result.sources == []
    assert result.trace.to_dict()["codes"]["provider_error"] == kind
    assert len(fake_anthropic.requests) == len(replies)
