"""The seeds' names stay importable from the module paths the seed pages give."""

from __future__ import annotations

import importlib

import pytest

import ragspine.llm as llm
from ragspine.agent import llm_provider


@pytest.mark.parametrize(
    ("module", "names"),
    [
        # the orchestrator and its result
        ("ragspine.agent.agent", ["answer_question", "AgentResult", "MAX_TOOL_ITERATIONS"]),
        # intent, the gateway and their constants
        (
            "ragspine.agent.intent",
            [
                "ParsedIntent",
                "ClarificationResult",
                "IntentParser",
                "RuleIntentParser",
                "parse_intent",
                "clarify_scope",
                "ROUTE_STRUCTURED",
                "ROUTE_NARRATIVE",
                "ROUTE_COMPOSITE",
                "CLARIFY_OUT_OF_SCOPE_ENTITY",
                "CLARIFY_ASK_FIRST",
                "CLARIFY_ANSWER_WITH_ASSUMPTIONS",
                "CLARIFY_NONE",
            ],
        ),
        # the deterministic gate
        (
            "ragspine.agent.security_gate",
            ["SecurityGate", "SECURITY_ALLOW", "SECURITY_REFUSE_OUT_OF_SCOPE"],
        ),
        # the structured channel's tool
        (
            "ragspine.agent.query_tools",
            [
                "execute_query_metric",
                "build_query_metric_tool_anthropic",
                "build_query_metric_tool_openai",
                "QUERY_METRIC_TOOL_ANTHROPIC",
                "QUERY_METRIC_TOOL_OPENAI",
            ],
        ),
        # the provider seam, at the seeds' path
        (
            "ragspine.agent.llm_provider",
            [
                "LLMProvider",
                "MockProvider",
                "AnthropicProvider",
                "ProviderResponse",
                "ProviderError",
                "ToolCall",
                "DEFAULT_ANTHROPIC_MODEL",
            ],
        ),
        # storage and retrieval
        ("ragspine.storage.fact_store", ["FactStore", "Fact"]),
        ("ragspine.retrieval", ["rrf_fuse", "listwise_rerank", "NarrativeRetriever"]),
    ],
)
def test_seed_names_import_from_their_documented_paths(module: str, names: list[str]) -> None:
    mod = importlib.import_module(module)
    assert [n for n in names if not hasattr(mod, n)] == []


def test_the_seeds_provider_path_is_the_llm_package_itself() -> None:
    for name in llm_provider.__all__:
        assert getattr(llm_provider, name) is getattr(llm, name)
