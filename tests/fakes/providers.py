"""Fake providers passed in through the LLMProvider seam (no patching)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ragspine.agent.llm_provider import ProviderResponse, ToolCall
from ragspine.errors import ProviderError

Step = ProviderResponse | Exception | Callable[[list[dict[str, object]]], ProviderResponse]


def text_reply(text: str) -> ProviderResponse:
    return ProviderResponse(
        text=text, stop_reason="end_turn", raw_content=[{"type": "text", "text": text}]
    )


def tool_reply(*calls: dict[str, object], text: str = "") -> ProviderResponse:
    tool_calls = [
        ToolCall(id=f"toolu_{i}", name=str(c.get("name", "query_metric")), input=dict(c["input"]))  # type: ignore[arg-type]
        for i, c in enumerate(calls)
    ]
    raw: list[dict[str, object]] = [{"type": "text", "text": text}] if text else []
    raw += [{"type": "tool_use", "id": t.id, "name": t.name, "input": t.input} for t in tool_calls]
    return ProviderResponse(
        text=text, tool_calls=tool_calls, stop_reason="tool_use", raw_content=raw
    )


@dataclass
class ScriptedProvider:
    """Plays back a script, one step per call; records every call; fails loudly past the end."""

    steps: list[Step]
    calls: list[dict[str, object]] = field(default_factory=list)

    def create_message(
        self,
        *,
        system: str,
        messages: list[dict[str, object]],
        tools: list[dict[str, object]],
    ) -> ProviderResponse:
        self.calls.append({"system": system, "messages": list(messages), "tools": tools})
        if not self.steps:
            raise AssertionError("ScriptedProvider called more times than scripted")
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        if callable(step):
            return step(messages)
        return step


class ExplodingProvider:
    """For paths that must never reach the LLM: any call fails the test."""

    def create_message(self, **_: object) -> ProviderResponse:
        raise AssertionError("the LLM must not be called on this path")


class FailingProvider:
    """Every call is a provider outage."""

    def create_message(self, **_: object) -> ProviderResponse:
        raise ProviderError("simulated outage")


class RaisingProvider:
    """A provider with a bug of its own: it raises something that is not a ProviderError."""

    def create_message(self, **_: object) -> ProviderResponse:
        raise RuntimeError("internal state corrupted: request body was …")


class NoneTextProvider:
    """A provider whose reply carries no text at all (``text=None``), on every route."""

    def create_message(self, **_: object) -> ProviderResponse:
        return ProviderResponse(text=None, stop_reason="end_turn")  # type: ignore[arg-type]


class SlowMockProvider:
    """The mock, a little slow, so a test can kill a run half-way (python:MODULE:ATTR)."""

    model = "mock-slow"

    def __init__(self) -> None:
        from ragspine.agent.llm_provider import MockProvider

        self._inner = MockProvider()

    def create_message(self, **kwargs: object) -> ProviderResponse:
        import time

        time.sleep(0.05)
        return self._inner.create_message(**kwargs)  # type: ignore[arg-type]


class LoggingSlowMockProvider(SlowMockProvider):
    """The slow mock, writing each case it finished answering to $RAGSPINE_TEST_ANSWER_LOG: the
    answers a run was given, to compare with the results it kept."""

    def create_message(self, **kwargs: object) -> ProviderResponse:
        import os

        from ragspine.llm.cassette import current_episode

        response = super().create_message(**kwargs)
        case = current_episode()
        if not response.tool_calls and case is not None:
            with open(os.environ["RAGSPINE_TEST_ANSWER_LOG"], "a", encoding="utf-8") as log:
                log.write(f"{case[0]}\n")
        return response


class StuckMockProvider(SlowMockProvider):
    """A model that takes a minute: each call it starts is a line in $RAGSPINE_TEST_STARTED_LOG,
    so a test knows when answers are under way."""

    def create_message(self, **kwargs: object) -> ProviderResponse:
        import os
        import time

        with open(os.environ["RAGSPINE_TEST_STARTED_LOG"], "a", encoding="utf-8") as log:
            log.write("started\n")
        time.sleep(60)
        return super().create_message(**kwargs)


class OutageOnRevenue:
    """Fails for questions about revenue only: some cases error, the rest run."""

    model = "flaky"

    def create_message(self, **kwargs: object) -> ProviderResponse:
        from ragspine.agent.llm_provider import MockProvider

        if "REVENUE" in str(kwargs.get("messages")):
            raise ProviderError("simulated outage")
        return MockProvider().create_message(**kwargs)  # type: ignore[arg-type]


# -- targets for python:MODULE:ATTR specs in the registry tests -------------------------------

MOCK_INSTANCE = SlowMockProvider()
NOT_A_PROVIDER = 42


def broken_factory() -> ProviderResponse:
    raise RuntimeError("no credentials in this environment")


def returns_a_string() -> str:
    return "not a provider"


def slow_mock_from_spec(arg: str) -> SlowMockProvider:
    """A registry factory: gets the text after the spec's first colon."""
    return SlowMockProvider()
