"""Provider specs to providers: the one resolver every entry point uses.

::

    mock                 MockProvider
    anthropic[:MODEL]    AnthropicProvider (the SDK is imported only when one is built)
    python:MODULE:ATTR   an object with create_message, a class, or a zero-argument factory
    NAME[:ARG]           a factory added with register(), or a "ragspine.providers" entry point

A factory gets the text after the first colon. It may resolve another spec itself, which is how
a provider that wraps another one is written: ``register("logged", lambda arg: Log(resolve(arg)))``.

``LiveOptions`` carry what a user sets for a live model on the command line (base URL, timeout,
retries) and the cassette that records or replays it; they reach the Anthropic provider, and a
provider that cannot use them (the mock) refuses them rather than ignore them.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from ragspine.errors import ProviderConfigError, RagSpineError
from ragspine.llm.base import LLMProvider

Factory = Callable[[str], LLMProvider]


@dataclass(frozen=True)
class LiveOptions:
    base_url: str | None = None
    timeout: float | None = None
    max_retries: int | None = None
    cassette: Path | None = None
    cassette_mode: str = "replay"

    def connection(self) -> dict[str, Any]:
        """The options the SDK client takes, only those that were set."""
        given = {
            "base_url": self.base_url,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
        }
        return {k: v for k, v in given.items() if v is not None}


ENTRY_POINT_GROUP = "ragspine.providers"

_registered: dict[str, Factory] = {}


def register(name: str, factory: Factory) -> None:
    """Make ``NAME[:ARG]`` resolve through ``factory(ARG)``."""
    if not name or ":" in name:
        raise ValueError(f"a provider name is a word without ':', got {name!r}")
    _registered[name] = factory


def resolve(spec: str, live: LiveOptions | None = None) -> LLMProvider:
    """The provider a spec names; a spec that names nothing usable is a ``ProviderConfigError``."""
    live = live or LiveOptions()
    if live.cassette is not None:
        return _cassette(spec, live)
    name, _, arg = spec.partition(":")
    factory = _BUILTIN.get(name) or _registered.get(name) or _entry_point(name)
    if factory is None:
        known = ", ".join(["mock", "anthropic", "anthropic:MODEL", "python:MODULE:ATTR", *names()])
        raise ProviderConfigError(f"unknown provider {spec!r}: use {known}")
    if name == "anthropic":
        return _anthropic(arg, live)
    if live.connection():
        given = ", ".join(f"--{k.replace('_', '-')}" for k in live.connection())
        raise ProviderConfigError(f"{given}: for a live model (anthropic), not {spec!r}")
    if name in _BUILTIN:
        return factory(arg)
    try:
        return factory(arg)
    except RagSpineError:
        raise
    except Exception as exc:  # a plugin's bug must still read as one line naming the spec
        raise ProviderConfigError(
            f"provider {spec!r}: its factory failed: {type(exc).__name__}: {exc}"
        ) from exc


def _cassette(spec: str, live: LiveOptions) -> LLMProvider:
    """The spec's provider behind a cassette; built only when a reply must be recorded."""
    from ragspine.llm.cassette import CassetteProvider

    assert live.cassette is not None
    name, _, arg = spec.partition(":")
    params: dict[str, Any] = {}
    endpoint = None
    if name == "anthropic":
        from ragspine.llm.anthropic import DEFAULT_ANTHROPIC_MODEL, MAX_TOKENS

        spec, params = f"anthropic:{arg or DEFAULT_ANTHROPIC_MODEL}", {"max_tokens": MAX_TOKENS}
        endpoint = _anthropic_endpoint(live)
    inner = LiveOptions(live.base_url, live.timeout, live.max_retries)
    return CassetteProvider(
        live.cassette,
        live.cassette_mode,  # type: ignore[arg-type]
        model_id=spec,
        params=params,
        build=lambda: resolve(spec, inner),
        endpoint=endpoint,
    )


def _anthropic_endpoint(live: LiveOptions) -> str:
    from ragspine.llm.anthropic import DEFAULT_BASE_URL

    return (live.base_url or os.environ.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")


def names() -> list[str]:
    """Names added by register() or by installed entry points, beside the built-in ones."""
    found = {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)} | set(_registered)
    return sorted(found - set(_BUILTIN))


def _entry_point(name: str) -> Factory | None:
    for ep in entry_points(group=ENTRY_POINT_GROUP, name=name):
        factory = ep.load()
        if callable(factory):
            return factory  # type: ignore[no-any-return]
    return None


def _mock(arg: str) -> LLMProvider:
    if arg:
        raise ProviderConfigError(f"unknown provider 'mock:{arg}': the mock has no models")
    from ragspine.llm.mock import MockProvider

    return MockProvider()


def _anthropic(arg: str, live: LiveOptions | None = None) -> LLMProvider:
    from ragspine.llm.anthropic import DEFAULT_ANTHROPIC_MODEL, AnthropicProvider

    options = live.connection() if live else {}
    return AnthropicProvider(model=arg or DEFAULT_ANTHROPIC_MODEL, **options)


def _python(arg: str) -> LLMProvider:
    """``MODULE:ATTR``: the way to plug in a fake, hostile or in-house provider, no code change."""
    spec = f"python:{arg}"
    module_name, _, attr = arg.partition(":")
    if not module_name or not attr or ":" in attr:
        raise ProviderConfigError(f"provider {spec!r}: write python:MODULE:ATTR")
    try:
        target = getattr(importlib.import_module(module_name), attr)
    except Exception as exc:  # an import runs arbitrary code: any failure is the spec's
        raise ProviderConfigError(
            f"provider {spec!r}: cannot load {module_name}.{attr}: {type(exc).__name__}: {exc}"
        ) from exc
    if _is_provider(target) and not isinstance(target, type):
        return target  # type: ignore[no-any-return]
    if not callable(target):
        raise ProviderConfigError(
            f"provider {spec!r}: {module_name}.{attr} is not a provider "
            "(no create_message method) nor a class or factory that makes one"
        )
    try:
        provider = target()
    except Exception as exc:
        raise ProviderConfigError(
            f"provider {spec!r}: {module_name}.{attr}() failed: {type(exc).__name__}: {exc}"
        ) from exc
    if not _is_provider(provider):
        raise ProviderConfigError(
            f"provider {spec!r}: {module_name}.{attr}() returned "
            f"{type(provider).__name__}, which has no create_message method"
        )
    return provider  # type: ignore[no-any-return]


def _is_provider(obj: object) -> bool:
    return callable(getattr(obj, "create_message", None))


_BUILTIN: dict[str, Factory] = {"mock": _mock, "anthropic": _anthropic, "python": _python}
