"""The audit's citation reader: a found fact's source is a citation whatever its locator holds
(a column named with 、, the separator between two cited sources), so the digits of its document
name (a stock code in ``statements_600201_603339.xlsx``) are no claim; a figure in the sentence
is still read, even one equal to a digit-run of that name."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.evals.audit.citations import citations
from ragspine.evals.audit.findings import audit_answer

BOOK = "statements_600201_603339.xlsx"
COLUMN = "处置固定资产、无形资产和其他长期资产收回的现金净额"
LOCATOR = f"sheet=cash_flow_statement,year=2020,col={COLUMN}"
CAPEX_LOCATOR = (
    "sheet=cash_flow_statement,year=2020,col=购建固定资产、无形资产和其他长期资产支付的现金"
)


def _fact(locator: str, value: str) -> dict[str, Any]:
    return {
        "status": "found", "value": float(value), "value_text": value, "unit": "CNY",
        "metric_code": "X", "entity": "CO", "period_type": "FY", "period": "2020",
        "channel": "TOTAL", "source": {"doc": BOOK, "locator": locator},
    }  # fmt: skip


DISPOSAL = _fact(LOCATOR, "1580550.00")
CAPEX = _fact(CAPEX_LOCATOR, "372683484.20")


def _audit(answer: str, facts: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(f.number, f.reason) for f in audit_answer(answer, tool_results=facts)]


def test_a_found_facts_locator_holding_the_entry_separator_is_one_citation() -> None:
    line = f"现金净额:1,580,550.00 元(来源:{BOOK} · {LOCATOR})"
    assert [c.entries for c in citations(line, [(BOOK, LOCATOR)])] == [((BOOK, LOCATOR),)]
    # two found facts in one citation, each locator with its own 、
    two = f"(来源:{BOOK} · {LOCATOR}、{BOOK} · {CAPEX_LOCATOR})"
    known = [(BOOK, LOCATOR), (BOOK, CAPEX_LOCATOR)]
    assert [c.entries for c in citations(two, known)] == [((BOOK, LOCATOR), (BOOK, CAPEX_LOCATOR))]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # the real answer: the stock codes in the cited workbook's name are the citation
        (f"金宇生物 FY2020 {COLUMN}:1,580,550.00 元(来源:{BOOK} · {LOCATOR})", []),
        # the locator written without the middle dot, as the engine's plain form
        (f"金宇生物 FY2020 {COLUMN}:1,580,550.00 元(来源:{BOOK} {LOCATOR})", []),
        # a figure in the sentence equal to a digit-run of the file name is still a claim
        (
            f"金宇生物 FY2020 {COLUMN}:1,580,550.00 元,另有600201元。(来源:{BOOK} · {LOCATOR})",
            [("600201", "unsupported")],
        ),
        # a phrase glued after a known source makes the parentheses no citation: all is read
        (
            f"现金净额:1,580,550.00 元(来源:{BOOK} · {LOCATOR}、增长40%)",
            [("600201", "unsupported"), ("603339", "unsupported"), ("40%", "unsupported")],
        ),
        # a locator with 、 that is no found fact's stays malformed: a figure in it is read
        (
            f"现金净额:1,580,550.00 元(来源:{BOOK} · sheet=cash_flow_statement,col=收入、增长四成)",
            [("600201", "unsupported"), ("603339", "unsupported"), ("四成", "unsupported")],
        ),
    ],
)
def test_only_the_citation_is_exempt(answer: str, flagged: list[tuple[str, str]]) -> None:
    assert _audit(answer, [DISPOSAL]) == flagged
