"""The LLM layer, below both the agent and retrieval: the provider seam, the offline mock, the
Anthropic provider, the prompt formats they share, and the one registry of provider specs.

Importing it imports no SDK: ``AnthropicProvider`` loads ``anthropic`` when one is built.
"""

from ragspine.errors import ProviderError
from ragspine.llm.anthropic import DEFAULT_ANTHROPIC_MODEL, AnthropicProvider
from ragspine.llm.base import (
    LLMProvider,
    ProviderResponse,
    ToolCall,
    ask_model,
    endpoint_of,
    estimate_tokens,
    model_name,
)
from ragspine.llm.cassette import CassetteMissError, CassetteProvider, episode
from ragspine.llm.mock import MockProvider
from ragspine.llm.registry import LiveOptions, register, resolve

__all__ = [
    "DEFAULT_ANTHROPIC_MODEL",
    "AnthropicProvider",
    "CassetteMissError",
    "CassetteProvider",
    "LLMProvider",
    "LiveOptions",
    "MockProvider",
    "ProviderError",
    "ProviderResponse",
    "ToolCall",
    "ask_model",
    "endpoint_of",
    "episode",
    "estimate_tokens",
    "model_name",
    "register",
    "resolve",
]
