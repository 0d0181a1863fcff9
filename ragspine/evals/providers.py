"""Providers by name for eval runs: mock, anthropic[:MODEL], or python:MODULE:ATTR."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from datetime import date

from ragspine.agent.llm_provider import (
    DEFAULT_ANTHROPIC_MODEL,
    AnthropicProvider,
    LLMProvider,
    MockProvider,
)
from ragspine.errors import ProviderConfigError

ProviderFactory = Callable[[date], LLMProvider]


def provider_factory(spec: str) -> tuple[ProviderFactory, str | None]:
    """A factory giving the provider for a case (by its reference date), and the model name.

    ``python:MODULE:ATTR`` names a provider object, a class, or a zero-argument factory: the
    way to evaluate a fake, adversarial or in-house provider without touching the harness.
    """
    name, _, rest = spec.partition(":")
    if name == "mock" and not rest:
        return (lambda ref: MockProvider(reference_date=ref)), "mock"
    if name == "anthropic":
        shared = AnthropicProvider(model=rest or DEFAULT_ANTHROPIC_MODEL)
        return (lambda ref: shared), shared.model
    if name == "python" and rest.count(":") == 1:
        module_name, attr = rest.split(":")
        try:
            target = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise ProviderConfigError(
                f"--provider {spec}: cannot load {module_name}.{attr}: {exc}"
            ) from exc
        is_instance = hasattr(target, "create_message") and not isinstance(target, type)
        provider = target if is_instance else target()
        if not callable(getattr(provider, "create_message", None)):
            raise ProviderConfigError(f"--provider {spec}: {attr} has no create_message method")
        return (lambda ref: provider), getattr(provider, "model", attr)
    raise ProviderConfigError(
        f"unknown provider {spec!r}: use mock, anthropic, anthropic:MODEL or python:MODULE:ATTR"
    )
