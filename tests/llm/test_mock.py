from __future__ import annotations

import json

import pytest

from ragspine.agent.query_tools import QUERY_METRIC_TOOL_ANTHROPIC
from ragspine.errors import ProviderMisuseError
from ragspine.llm import MockProvider

TOOLS = [QUERY_METRIC_TOOL_ANTHROPIC]


def _user(content: object) -> list[dict[str, object]]:
    return [{"role": "user", "content": content}]


def test_first_turn_calls_query_metric_from_the_slots_line() -> None:
    reply = MockProvider().create_message(
        system="s",
        messages=_user("问题\n\n[slots] metric=REVENUE entity=ACME_CN period=FY2024 channel=TOTAL"),
        tools=TOOLS,
    )
    assert reply.stop_reason == "tool_use"
    (call,) = reply.tool_calls
    assert call.name == "query_metric"
    assert call.input == {
        "metric": "REVENUE",
        "entity": "ACME_CN",
        "period": "FY2024",
        "channel": "TOTAL",
    }
    assert reply.raw_content == [
        {"type": "tool_use", "id": call.id, "name": "query_metric", "input": call.input}
    ]
    assert reply.usage["input_tokens"] > 0


def test_second_turn_renders_the_tool_results() -> None:
    result = {"status": "not_found", "normalized": {}}
    messages = [
        *_user("q"),
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "query_metric", "input": {}}],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": json.dumps(result)}
            ],
        },
    ]
    reply = MockProvider().create_message(system="s", messages=messages, tools=TOOLS)
    assert reply.tool_calls == [] and "查不到" in reply.text


def test_without_tools_it_synthesises_extractively_with_citations() -> None:
    prompt = (
        "问题:门店关闭为什么拖累收入?\n\n资料:\n"
        "[1] (来源:MDA.md section=2) 其余略。门店关闭拖累收入。\n"
        "[2] (来源:ESG.md section=1) 节能。\n"
        "[3] (来源:FY.md section=3) 线上收入增长。"
    )
    reply = MockProvider().create_message(system="s", messages=_user(prompt), tools=[])
    # the best-matching sentence of each snippet; a snippet sharing nothing is left out
    assert (
        reply.text
        == "门店关闭拖累收入。(来源:MDA.md section=2)\n线上收入增长。(来源:FY.md section=3)"
    )


def test_is_deterministic() -> None:
    def run() -> object:
        return MockProvider().create_message(
            system="s", messages=_user("香港FY2024营收\n\n[slots] metric=REVENUE"), tools=TOOLS
        )

    assert run() == run()


def test_tool_call_ids_depend_on_the_conversation_not_on_earlier_calls() -> None:
    mock = MockProvider()
    question = _user("q\n\n[slots] metric=REVENUE entity=ACME_HK period=FY2024")
    first = mock.create_message(system="s", messages=question, tools=TOOLS)
    again = mock.create_message(system="s", messages=question, tools=TOOLS)
    assert first.tool_calls[0].id == again.tool_calls[0].id == "toolu_mock_0001"


@pytest.mark.parametrize(
    ("messages", "tools", "match"),
    [
        ([], TOOLS, "at least one message"),  # nothing to answer
        ([{"role": "assistant", "content": "x"}], TOOLS, "last message"),  # not a user turn
        (_user("q"), [{"name": "web_search"}], "only knows query_metric"),  # a tool it cannot play
        (_user("tell me a joke"), [], "numbered snippets"),  # free-form chat is not offline-able
        (
            _user("香港去年的营收是多少"),
            TOOLS,
            r"\[slots\] line",
        ),  # a tool turn the agent did not write
        (_user("[rerank]\n候选:\n[c1] a"), [], "问题:"),  # a rerank request without its question
        (
            _user([{"type": "tool_result", "tool_use_id": "t", "content": "not json"}]),
            TOOLS,
            "JSON",
        ),  # a tool result it cannot read
    ],
)
def test_misuse_fails_loudly(
    messages: list[dict[str, object]], tools: list[dict[str, object]], match: str
) -> None:
    with pytest.raises(ProviderMisuseError, match=match):
        MockProvider().create_message(system="s", messages=messages, tools=tools)
