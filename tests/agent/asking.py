"""Asking an engine as a user does, at each company's reference date, and reading what it found."""

from __future__ import annotations

from datetime import date

from ragspine.agent.agent import AgentResult
from ragspine.engine import Engine

REF = date(2025, 6, 30)
JY_REF = date(2022, 6, 30)


def ask(engine: Engine, question: str) -> AgentResult:
    ref = REF if engine.profile.home_entity_code == "ACME_GROUP" else JY_REF
    return engine.ask(question, reference_date=ref, clearance="INTERNAL")


def found(result: AgentResult) -> list[str]:
    return [r["metric_code"] for r in result.tool_results if r["status"] == "found"]  # type: ignore[typeddict-item]


def formula_given(result: AgentResult) -> bool:
    """The answer gives a derived figure's formula, said in the answer's language."""
    return ("(computed: " if result.language == "en" else "由公式计算") in result.answer
