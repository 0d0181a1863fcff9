"""The audit recomputes a derived metric from its operand facts with the profile's formula, in
its own arithmetic: the engine's figure for it is never taken on trust."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ragspine.evals.audit.findings import SlotNames, audit_answer


def _operand(code: str, year: str, text: str) -> dict[str, Any]:
    return {
        "status": "found", "value": float(text), "value_text": text, "unit": "CNY",
        "metric_code": code, "entity": "CO", "period_type": "FY", "period": year,
        "channel": "TOTAL", "source": {"doc": "book.xlsx", "locator": f"row={code},col={year}"},
    }  # fmt: skip


REVENUE_2019 = _operand("REVENUE", "2019", "1126782253.35")
REVENUE_2020 = _operand("REVENUE", "2020", "1581905632.48")
COST_2020 = _operand("COST", "2020", "607495250.51")
NAMES = SlotNames(
    metrics={"REVENUE": ["营业收入"], "COST": ["营业成本"], "GM": ["毛利率"], "GROWTH": ["增长率"]},
    entities={"CO": ["样例"]},
    channels={"TOTAL": ["合计"]},
    formulas={
        "GM": ("(REVENUE - COST) / REVENUE", True),
        "GROWTH": ("(REVENUE - prev(REVENUE)) / prev(REVENUE)", True),
    },
)


def _derived(code: str, value: str, operands: list[dict[str, Any]]) -> dict[str, Any]:
    """The engine's result, as it would hand it over: its own value, and the operands."""
    return {
        **operands[0], "metric_code": code, "unit": "PCT", "value": float(value),
        "value_text": value, "period": "2020", "operands": operands, "formula": "ignored",
    }  # fmt: skip


def _answer(code_name: str, shown: str, operands: list[dict[str, Any]]) -> str:
    lines = [f"样例 FY2020 {code_name}:{shown}(由公式计算:…)"]
    for o in operands:
        src = o["source"]
        lines.append(
            f"  其中 FY{o['period']} {o['metric_code']}:{o['value_text']} 元"
            f"(来源:{src['doc']} · {src['locator']})"
        )
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("code", "operands", "engine_value", "shown", "flagged"),
    [
        # a right answer: 61.60%, recomputed from the operands, raises nothing
        ("GM", [REVENUE_2020, COST_2020], "61.5971", "61.60%", []),
        # the engine's value is wrong and so is the answer: the audit does not take it on trust
        ("GM", [REVENUE_2020, COST_2020], "65.0000", "65.00%", ["65.00%"]),
        # a right value but rounded wrongly for two decimals
        ("GM", [REVENUE_2020, COST_2020], "61.5971", "61.70%", ["61.70%"]),
        # a growth rate reads last year's operand: 40.39%, the figure the 2020 report prints
        ("GROWTH", [REVENUE_2020, REVENUE_2019], "40.39", "40.39%", []),
        # a growth rate written as the wrong sign is not supported either
        ("GROWTH", [REVENUE_2020, REVENUE_2019], "40.39", "-40.39%", ["-40.39%"]),
    ],
)
def test_a_derived_value_is_checked_against_the_audits_own_arithmetic(
    code: str,
    operands: list[dict[str, Any]],
    engine_value: str,
    shown: str,
    flagged: list[str],
) -> None:
    answer = _answer("毛利率", shown, operands)
    findings = audit_answer(
        answer, tool_results=[_derived(code, engine_value, operands)], names=NAMES
    )
    # a wrong figure is both unsupported and, the line naming 毛利率, a contradiction of it
    assert sorted({f.number for f in findings}) == flagged


def test_without_the_profiles_formula_a_derived_value_is_unexplained() -> None:
    operands = [REVENUE_2020, COST_2020]
    answer = _answer("毛利率", "61.60%", operands)
    findings = audit_answer(answer, tool_results=[_derived("GM", "61.5971", operands)])
    assert [f.number for f in findings] == ["61.60%"]


def _at(operand: dict[str, Any], **where: str) -> dict[str, Any]:
    return {**operand, **where}


HK_2024 = _at(_operand("REVENUE", "2024", "455"), entity="HK")
GROUP_2024 = _at(_operand("REVENUE", "2024", "2398"), entity="GROUP")
HK_ONLINE = _at(_operand("REVENUE", "2024", "77"), entity="HK", channel="ONLINE")
SHARES = SlotNames(
    metrics={"REVENUE": ["收入"], "SHARE": ["收入占比"], "ONLINE_SHARE": ["线上占比"]},
    entities={"HK": ["香港"], "GROUP": ["集团"]},
    channels={"TOTAL": ["合计"], "ONLINE": ["线上"]},
    formulas={
        "SHARE": ("REVENUE / REVENUE[entity=GROUP]", True),
        "ONLINE_SHARE": ("REVENUE[channel=ONLINE] / REVENUE[channel=TOTAL]", True),
    },
)


@pytest.mark.parametrize(
    ("code", "operands", "shown", "flagged"),
    [
        # a share of the group: 455 / 2,398, the second operand fixed to the group's entity
        ("SHARE", [HK_2024, GROUP_2024], "18.97%", []),
        # the share the other way round (2,398 / 455) is not what the formula says
        ("SHARE", [HK_2024, GROUP_2024], "527.03%", ["527.03%"]),
        # a share of one channel: 77 / 455, each operand fixed to its channel
        ("ONLINE_SHARE", [HK_ONLINE, HK_2024], "16.92%", []),
        ("ONLINE_SHARE", [HK_ONLINE, HK_2024], "16.93%", ["16.93%"]),
    ],
)
def test_an_operand_fixed_to_another_entity_or_channel_is_read_as_the_formula_says(
    code: str, operands: list[dict[str, Any]], shown: str, flagged: list[str]
) -> None:
    result = {**_derived(code, "0", operands), "entity": "HK", "period": "2024"}
    answer = f"香港 FY2024 {code}:{shown}(由公式计算:…)"
    findings = audit_answer(answer, tool_results=[result], names=SHARES)
    assert sorted({f.number for f in findings}) == flagged


TOTAL = _operand("TOTAL", "2020", "6278282683.24")
CURRENT = _operand("CURRENT", "2020", "3187018741.38")
NON_CURRENT = _operand("NON_CURRENT", "2020", "3091263941.86")
SUMS = SlotNames(
    metrics={"TOTAL": ["资产总额"], "CURRENT": ["流动资产合计"], "NON_CURRENT": ["非流动资产合计"]},
    entities={"CO": ["样例"]},
    channels={"TOTAL": ["合计"]},
    formulas={"TOTAL": ("CURRENT + NON_CURRENT", False)},
)


@pytest.mark.parametrize(
    ("shown", "flagged"),
    [
        # an amount computed from amounts: the formula names its operands in the same sentence,
        # and the total is not a contradiction of either of them
        ("6,278,282,683.24", []),
        # a wrong total contradicts the total (and each operand it names)
        ("6,278,282,683.25", ["6,278,282,683.25"]),
    ],
)
def test_a_derived_amount_whose_formula_names_its_operands(shown: str, flagged: list[str]) -> None:
    derived = {**TOTAL, "operands": [CURRENT, NON_CURRENT], "formula": "ignored"}
    answer = f"样例 FY2020 资产总额:{shown} 元(由公式计算:流动资产合计 + 非流动资产合计)"
    findings = audit_answer(answer, tool_results=[derived], names=SUMS)
    assert sorted({f.number for f in findings}) == flagged
    assert all(f.reason in ("unsupported", "contradicts_fact") for f in findings)


@pytest.mark.parametrize(
    "question",
    [
        "What was Hong Kong's online sales share in 2024?",  # a share of one channel, named 线上
        "中国内地2024年线上收入占比是多少?",  # the same in Chinese
    ],
)
def test_a_share_of_one_channel_is_of_no_one_channel(demo_db: Path, question: str) -> None:
    """The demo's ONLINE_SHARE is REVENUE[channel=ONLINE] / REVENUE[channel=TOTAL]: its line says
    线上 while its slot is the total; neither is the figure's channel, and nothing is flagged."""
    from ragspine.engine import Engine
    from ragspine.evals.run.runner import CaseRunner
    from ragspine.evals.score.scorers import audit

    with Engine.open(demo_db) as engine:
        result = engine.ask(question, reference_date=date(2025, 6, 30))
        # the derived metric's name, in the answer's language
        assert (
            "online share of revenue" if question.isascii() else "线上收入占比"
        ) in result.answer
        seen = CaseRunner(engine).observe(result.to_record(), result.model_text)
        assert audit(seen, result.answer) == []
