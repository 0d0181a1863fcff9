"""One resolver for every entry point: built-in names, python:MODULE:ATTR, register(), plugins."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ragspine.errors import ProviderConfigError
from ragspine.llm import MockProvider, ProviderResponse, register, resolve
from ragspine.llm.registry import names
from tests.fakes import providers as fakes


def test_mock_is_selectable_by_name() -> None:
    assert isinstance(resolve("mock"), MockProvider)


@pytest.mark.parametrize(
    "spec",
    [
        "mock:model",  # the mock has no models
        "openai",  # no such provider
        "",  # empty
    ],
)
def test_unknown_provider_names_are_config_errors(spec: str) -> None:
    with pytest.raises(ProviderConfigError, match="unknown provider"):
        resolve(spec)


def test_anthropic_without_a_key_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ProviderConfigError, match="ANTHROPIC_API_KEY"):
        resolve("anthropic:claude-x")


def test_anthropic_model_comes_from_the_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    assert getattr(resolve("anthropic:claude-x"), "model", None) == "claude-x"


@pytest.mark.parametrize(
    ("attr", "model"),
    [
        ("MOCK_INSTANCE", "mock-slow"),  # an object with create_message is used as it is
        ("SlowMockProvider", "mock-slow"),  # a class is instantiated
        ("FailingProvider", None),  # a class without a model attribute
    ],
)
def test_python_spec_loads_an_instance_or_a_class(attr: str, model: str | None) -> None:
    provider = resolve(f"python:tests.fakes.providers:{attr}")
    assert callable(provider.create_message)
    assert getattr(provider, "model", None) == model


def test_python_spec_shares_one_instance() -> None:
    assert resolve("python:tests.fakes.providers:MOCK_INSTANCE") is fakes.MOCK_INSTANCE


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("python:os:path", "is not a provider"),  # a module, neither provider nor factory
        ("python:tests.fakes.providers:NOT_A_PROVIDER", "is not a provider"),  # a number
        ("python:tests.fakes.providers:broken_factory", r"failed: RuntimeError: no credentials"),
        ("python:tests.fakes.providers:returns_a_string", "returned str"),  # not a provider
        ("python:no_such_module_xyz:Thing", "cannot load no_such_module_xyz.Thing"),
        ("python:tests.fakes.providers:Missing", "cannot load"),  # no such attribute
        ("python:os", "write python:MODULE:ATTR"),  # attribute missing from the spec
        ("python:a:b:c", "write python:MODULE:ATTR"),  # one colon too many
    ],
)
def test_python_spec_that_names_no_provider_is_one_clear_error(spec: str, message: str) -> None:
    with pytest.raises(ProviderConfigError, match=message):
        resolve(spec)


class _Recorder:
    """A provider that wraps another: the shape a cassette takes."""

    def __init__(self, inner: object) -> None:
        self.inner = inner

    def create_message(self, **kwargs: object) -> ProviderResponse:
        return self.inner.create_message(**kwargs)  # type: ignore[attr-defined,no-any-return]


def test_a_registered_factory_can_wrap_another_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    from ragspine.llm import registry

    monkeypatch.setattr(registry, "_registered", {})
    register("recorder", lambda arg: _Recorder(resolve(arg)))
    wrapped = resolve("recorder:python:tests.fakes.providers:MOCK_INSTANCE")
    assert isinstance(wrapped, _Recorder) and wrapped.inner is fakes.MOCK_INSTANCE
    assert "recorder" in names()


@pytest.mark.parametrize("name", ["", "a:b"])  # empty; a colon would split the spec
def test_register_rejects_names_a_spec_cannot_hold(name: str) -> None:
    with pytest.raises(ValueError, match="without ':'"):
        register(name, lambda arg: MockProvider())


def test_an_installed_entry_point_is_a_provider_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plugin distribution on sys.path, found through importlib.metadata as pip would."""
    dist = tmp_path / "ragspine_plugin_demo-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: ragspine-plugin-demo\nVersion: 0.1\n"
    )
    (dist / "entry_points.txt").write_text(
        "[ragspine.providers]\n"
        "slowmock = tests.fakes.providers:slow_mock_from_spec\n"
        "broken = tests.fakes.providers:SlowMockProvider\n"  # takes no argument: a plugin bug
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    provider = resolve("slowmock:anything")
    assert getattr(provider, "model", None) == "mock-slow"
    assert {"slowmock", "broken"} <= set(names())
    with pytest.raises(ProviderConfigError, match="'broken': its factory failed: TypeError"):
        resolve("broken")
