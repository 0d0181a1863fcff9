"""The seeds' import path for the provider seam; the code lives in ``ragspine.llm``."""

from ragspine.llm import (
    DEFAULT_ANTHROPIC_MODEL,
    AnthropicProvider,
    LLMProvider,
    MockProvider,
    ProviderError,
    ProviderResponse,
    ToolCall,
    estimate_tokens,
)

__all__ = [
    "DEFAULT_ANTHROPIC_MODEL",
    "AnthropicProvider",
    "LLMProvider",
    "MockProvider",
    "ProviderError",
    "ProviderResponse",
    "ToolCall",
    "estimate_tokens",
]
