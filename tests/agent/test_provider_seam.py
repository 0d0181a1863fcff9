"""The seam's contract: which failures degrade and which propagate, and how a missing SDK reads."""

from __future__ import annotations

import sys
from datetime import date

import pytest

from ragspine.agent.agent import PROVIDER_UNAVAILABLE, answer_question
from ragspine.agent.llm_provider import DEFAULT_ANTHROPIC_MODEL, AnthropicProvider
from ragspine.errors import ProviderConfigError, ProviderError, ProviderMisuseError
from ragspine.storage.fact_store import FactStore
from tests.fakes.providers import ScriptedProvider

REF = date(2025, 6, 30)


def test_missing_sdk_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anthropic", None)  # makes `import anthropic` fail
    with pytest.raises(ProviderConfigError, match=r"pip install 'ragspine\[llm\]'"):
        AnthropicProvider(api_key="k")


def test_default_model_is_the_documented_one() -> None:
    assert DEFAULT_ANTHROPIC_MODEL == "claude-opus-4-8"


@pytest.mark.parametrize(
    "error",
    [
        RuntimeError("a bug in a provider"),  # program errors are not outages
        ProviderMisuseError("driven wrongly"),  # misuse is a bug, never a degrade
        KeyError("x"),
    ],
)
def test_program_errors_propagate_instead_of_degrading(store: FactStore, error: Exception) -> None:
    with pytest.raises(type(error)):
        answer_question("香港FY2024营收", store, ScriptedProvider([error]), reference_date=REF)


def test_only_provider_errors_degrade(store: FactStore) -> None:
    result = answer_question(
        "香港FY2024营收", store, ScriptedProvider([ProviderError("503")]), reference_date=REF
    )
    assert result.answer == PROVIDER_UNAVAILABLE
