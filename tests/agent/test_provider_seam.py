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


def test_misuse_propagates_instead_of_degrading(store: FactStore) -> None:
    """Driving a provider wrongly is our bug: never hidden behind an honest degrade."""
    with pytest.raises(ProviderMisuseError):
        answer_question(
            "香港FY2024营收",
            store,
            ScriptedProvider([ProviderMisuseError("driven wrongly")]),
            reference_date=REF,
        )


@pytest.mark.parametrize(
    "error",
    [
        RuntimeError("a bug in a provider"),  # the provider's own bug, not ours
        KeyError("x"),  # likewise: whoever wrote it, the caller gets an answer, not a traceback
    ],
)
def test_a_providers_own_exception_degrades_with_its_kind(
    store: FactStore, error: Exception
) -> None:
    result = answer_question("香港FY2024营收", store, ScriptedProvider([error]), reference_date=REF)
    assert result.answer == PROVIDER_UNAVAILABLE
    assert result.trace.to_dict()["codes"]["provider_error"] == "other"


def test_only_provider_errors_degrade(store: FactStore) -> None:
    result = answer_question(
        "香港FY2024营收", store, ScriptedProvider([ProviderError("503")]), reference_date=REF
    )
    assert result.answer == PROVIDER_UNAVAILABLE
