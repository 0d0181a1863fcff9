from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from ragspine.evals.audit.findings import SlotNames
from ragspine.evals.golden.suite import Expect, GoldenCase, SourceRef
from ragspine.evals.score.scorers import Observed, score, unsupported_numbers
from tests.pg_stores import Place

FACT = {
    "status": "found",
    "value": 1320.0,
    "unit": "USD_M",
    "metric_code": "REVENUE",
    "entity": "ACME_CN",
    "period_type": "FY",
    "period": "2024",
    "channel": "TOTAL",
    "source": {
        "doc": "ACME_FY2024_Review.pptx",
        "locator": "slide=2,table=1,row=REVENUE,col=FY2024",
    },
}
BOOK = "statements_600201_603339.xlsx"
DISPOSAL_AT = (
    "sheet=cash_flow_statement,year=2020,col=处置固定资产、无形资产和其他长期资产收回的现金净额"
)
DISPOSAL = FACT | {
    "value": 1580550.0, "unit": "CNY", "metric_code": "CASH_FROM_ASSET_DISPOSAL",
    "entity": "JINYU", "period": "2020", "source": {"doc": BOOK, "locator": DISPOSAL_AT},
}  # fmt: skip
ANSWER = (
    "中国内地 FY2024 收入:1,320 百万美元"
    "(来源:ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024)"
)


def _case(**expect: Any) -> GoldenCase:
    return GoldenCase(
        "c",
        "中国内地FY2024的REVENUE是多少",
        ("t",),
        date(2025, 6, 30),
        "INTERNAL",
        Expect(**expect),
        "s",
        "f.yaml",
        1,
    )


def _seen(**kw: Any) -> Observed:
    base: dict[str, Any] = dict(
        question="中国内地FY2024的REVENUE是多少",
        answer=ANSWER,
        route="structured",
        clarification="none",
        assumption_note="",
        narrowing_options=[],
        tool_results=[FACT],
        sources=[FACT["source"]],
        guard_triggered=False,
    )
    return Observed(**(base | kw))


def _checks(case: GoldenCase, seen: Observed) -> dict[str, Any]:
    return {c.name: c for c in score(case, seen)}


def test_a_correct_answer_passes_every_check() -> None:
    case = _case(
        route="structured",
        clarification="none",
        statuses=["found"],
        guard_triggered=False,
        sources=[SourceRef(doc="ACME_FY2024_Review.pptx")],
        answer_contains=["1,320 百万美元"],
        answer_excludes=["9999"],
    )
    checks = _checks(case, _seen())
    assert set(checks) == {
        "route",
        "clarification",
        "statuses",
        "guard",
        "citations",
        "unsupported_numbers",
        "answer_contains",
        "answer_excludes",
        "model_tool_use",  # informational: the model looked the number up
    }
    assert all(c.passed for c in checks.values())
    assert all(c.passed for c in checks.values())


def test_unstated_expectations_are_not_checked() -> None:
    # and what every case says of the model: here, that it used the tool
    assert set(_checks(_case(), _seen())) == {"citations", "unsupported_numbers", "model_tool_use"}


@pytest.mark.parametrize(
    ("seen", "check", "passed"),
    [
        ({"forced_tool_call": True}, "model_tool_use", False),  # answered from memory
        ({"model_text": "收入增长了 99.9%(来源:MDA.md para=1)"}, "model_prose", False),  # invented
    ],
)
def test_what_the_model_did_is_measured_and_never_fails_the_case(
    seen: dict[str, Any], check: str, passed: bool
) -> None:
    result = _checks(_case(), _seen(**seen))[check]
    assert result.passed is passed and result.informational and result.why


@pytest.mark.parametrize(
    ("expect", "seen", "check", "why"),
    [
        ({"route": "narrative"}, {}, "route", "routed structured, expected narrative"),  # route
        ({"clarification": "ask_first"}, {}, "clarification", "expected ask_first"),  # mode
        ({"statuses": ["found", "found"]}, {}, "statuses", "multiset"),  # counts matter
        ({"guard_triggered": True}, {}, "guard", "guard did not fire"),  # a guard that stayed quiet
        (
            {"answer_contains": ["查不到"]},
            {},
            "answer_contains",
            "lacks ['查不到']",
        ),  # text missing
        ({"answer_excludes": ["1320"]}, {}, "answer_excludes", "contains ['1320']"),  # banned text
        # an expected source the answer does not have
        (
            {"sources": [SourceRef(doc="ACME_FY2024_MDA.md")]},
            {},
            "citations",
            "missing expected source",
        ),
        # a found fact whose source the answer does not name
        (
            {},
            {"answer": "中国内地 FY2024 收入:1,320 百万美元"},
            "citations",
            "not named in the answer",
        ),
        # a narrative source the answer never mentions
        (
            {},
            {"sources": [FACT["source"], {"doc": "MDA.md", "locator": "para=1"}]},
            "citations",
            "narrative source MDA.md",
        ),
        # a number nothing explains: the independent audit of the guard
        ({}, {"answer": ANSWER + " 去年是 8888"}, "unsupported_numbers", "8888"),
        # a derived metric expected, its raw input queried instead
        ({"metrics": ["GROSS_MARGIN"]}, {}, "metrics", "queried metrics differ"),
        # a section expected, a passage elsewhere cited
        (
            {"sources": [SourceRef(doc="ACME_FY2024_Review.pptx", locator_prefix="slide=9")]},
            {},
            "citations",
            "slide=9…",
        ),
        # thousands separators are ignored: an excluded 1320 is still found in 1,320
        ({"answer_excludes": ["1320"]}, {"answer": ANSWER}, "answer_excludes", "['1320']"),
        # a prefix ends at a boundary: page=3 is not page=37
        (
            {"sources": [SourceRef(doc="AR.pdf", locator_prefix="page=3")]},
            {"sources": [FACT["source"], {"doc": "AR.pdf", "locator": "page=37,para=2"}]},
            "citations",
            "AR.pdf · page=3…",
        ),
        # a list of prefixes: none of the pages cited
        (
            {"sources": [SourceRef(doc="AR.pdf", locator_prefix=["page=10", "page=11"])]},
            {"sources": [FACT["source"], {"doc": "AR.pdf", "locator": "page=12,para=1"}]},
            "citations",
            "page=10 | page=11…",
        ),
    ],
)
def test_each_scorer_fails_with_a_reason(
    expect: dict[str, Any], seen: dict[str, Any], check: str, why: str
) -> None:
    result = _checks(_case(**expect), _seen(**seen))[check]
    assert not result.passed and why in result.why


@pytest.mark.parametrize(
    ("answer", "extra", "bad"),
    [
        (
            "【假设】按最近完整财年 FY2024。(如需收窄:FY2023 / FY2022)",
            {"assumption_note": "FY2024", "narrowing_options": ["FY2023", "FY2022"]},
            [],
        ),  # surfaced assumptions explain their years
        (
            "香港 收入 FY2024 较 FY2023 变化:+45 百万美元",
            {"tool_results": [FACT | {"value": 410.0, "period": "2023"}, FACT | {"value": 455.0}]},
            [],
        ),  # a computed difference
        (
            "查不到:中国内地 FY2025 收入",
            {
                "tool_results": [{"status": "not_found", "normalized": {"period": "2025"}}],
                "sources": [],
            },
            [],
        ),  # what was looked for
        (
            "收入下降至1320百万美元,降幅5.7%。(来源:MDA.md section=1.2,para=3)",
            {
                "tool_results": [],
                "sources": [{"doc": "MDA.md", "locator": "section=1.2,para=3"}],
                "chunk_text": lambda d, loc: "收入由1400下降至1320百万美元,降幅约为5.7%。",
            },
            [],
        ),  # cited chunk text
        (
            "收入下降至1111百万美元。(来源:MDA.md para=3)",
            {
                "tool_results": [],
                "sources": [{"doc": "MDA.md", "locator": "para=3"}],
                "chunk_text": lambda d, loc: "收入下降。",
            },
            ["1111百万 (unsupported)"],
        ),  # a number the cited passage does not state
        (
            "中国内地FY2024收入为1400百万美元。(来源:MDA.md para=3)",
            {
                "tool_results": [FACT],
                "sources": [{"doc": "MDA.md", "locator": "para=3"}],
                "chunk_text": lambda d, loc: "中国内地收入由上年的1400百万美元下降。",
                "names": SlotNames({"REVENUE": ["收入"]}, {"ACME_CN": ["中国内地"]}, {}),
            },
            ["1400百万 (contradicts_fact)"],
        ),  # a passage's number, given to the fact's slot
        (
            f"金宇生物 FY2020 处置收回的现金净额:1,580,550.00 元(来源:{BOOK} · {DISPOSAL_AT})",
            {"tool_results": [DISPOSAL], "sources": [DISPOSAL["source"]]},
            [],
        ),  # the stock codes in the cited workbook's name, its column named with 、
        (
            f"金宇生物 FY2020 另有600201元。(来源:{BOOK} · {DISPOSAL_AT})",
            {"tool_results": [DISPOSAL], "sources": [DISPOSAL["source"]]},
            ["600201 (unsupported)"],
        ),  # the same digits in the sentence are a claim
    ],
)
def test_what_explains_a_number(answer: str, extra: dict[str, Any], bad: list[str]) -> None:
    assert unsupported_numbers(_seen(answer=answer, **extra)) == bad


@pytest.mark.parametrize(
    ("prefix", "locator"),
    [
        ("section=5.16", "section=5.16.2,para=3"),  # a subsection of the section
        ("page=37", "page=37,para=2"),  # a passage of the page
        (["page=10", "page=11"], "page=11,para=4"),  # any page of a section over two
    ],
)
def test_a_section_prefix_matches_its_passages(prefix: str | list[str], locator: str) -> None:
    assert SourceRef(doc="AR.pdf", locator_prefix=prefix).matches(
        {"doc": "AR.pdf", "locator": locator}
    )


FAQ_SOURCE = {"doc": "ACME_Store_Operations_FAQ.txt", "locator": "para=5"}
PASSAGE = "非质量问题的商品,自购买之日起七天内可以无理由退货。有质量问题的商品,三十天内可退可换。"


@pytest.mark.parametrize(
    ("answer", "bad"),
    [
        ("七天内可以无理由退货；三十天内可退可换。", []),  # what the item's passage states
        ("十天内可以无理由退货。", ["十 (unsupported)"]),  # a figure the passage does not give
    ],
)
def test_a_vetted_answer_is_held_to_its_items_sources(answer: str, bad: list[str]) -> None:
    case = _case(route="faq", sources=[SourceRef(**FAQ_SOURCE)])
    seen = _seen(
        question="退货政策是什么?",
        answer=answer,  # names no source: a vetted answer carries them beside it
        route="faq",
        tool_results=[],
        sources=[FAQ_SOURCE],
        chunk_text=lambda d, loc: PASSAGE if (d, loc) == tuple(FAQ_SOURCE.values()) else None,
    )
    checks = _checks(case, seen)
    assert checks["route"].passed and checks["citations"].passed
    assert checks["unsupported_numbers"].actual == bad


@pytest.mark.parametrize(
    "question",
    [
        "FY2020的毛利率是多少",  # derived: formula, operands, each operand's source
        "FY2020的营业收入增长率是多少",  # derived from last year's operand too
        "FY2019的营业收入增长率是多少",  # not found, naming the missing operand
        "FY2019的营业收入是多少",  # found, stored
        "FY2020的营业收入和营业成本是多少",  # several sub-tasks
        "2020年第五季度的营业收入是多少",  # an unrecognised period
    ],
)
def test_the_scorers_read_the_record_as_query_metric_gave_it(question: str, place: Place) -> None:
    from ragspine.engine import Engine
    from ragspine.llm.mock import MockProvider
    from ragspine.storage.fact_store import FactStore
    from tests.agent.test_derived_metrics import PROFILE, REF, _fact

    store = FactStore(place("facts.db"))
    store.init_schema()
    store.insert_facts(
        [
            _fact("REVENUE", "2019", "1175301034.32"),
            _fact("COST", "2019", "903236584.52"),
            _fact("REVENUE", "2020", "1581905632.48"),
            _fact("COST", "2020", "1000000000.00"),
        ]
    )
    with Engine(store, MockProvider(), profile=PROFILE) as engine:
        result = engine.ask(question, reference_date=REF)
    assert result.tool_results
    seen = Observed.of(result.to_record(), model_text=result.model_text)
    assert list(seen.tool_results) == result.tool_results  # not a field lost, none added
    assert list(seen.sources) == result.sources and seen.answer == result.answer
    assert (seen.route, seen.question) == (result.route, question)


@pytest.mark.parametrize(
    ("want", "answer", "found"),
    [
        ("339", "员工 1,580 人(来源:statements_600201_603339.xlsx)", False),  # inside a file name
        ("5.1", "同店销售增长:15.1%", False),  # the tail of another number
        ("12", "门店数:120 家", False),  # the head of a longer whole number
        ("17.3", "占比:17.30%", True),  # a figure with decimals, met at the precision written
        ("5.1%", "同店销售增长:5.1%", True),  # the figure itself
        ("1320", "收入:1,320 百万美元", True),  # thousands separators ignored
        ("21 million", "net profit: 21 million USD", True),  # a figure with its words
        ("FY2024", "FY2024 revenue", True),  # text that only ends with a digit
        ("查不到", "查不到:…", True),  # no digits: plain containment
    ],
)
def test_a_figure_is_matched_as_a_whole_number(want: str, answer: str, found: bool) -> None:
    """An expected or excluded figure matches where the answer's own number is that figure,
    never a run of digits inside a longer number or a file name."""
    contains = _checks(_case(answer_contains=[want]), _seen(answer=answer))["answer_contains"]
    excludes = _checks(_case(answer_excludes=[want]), _seen(answer=answer))["answer_excludes"]
    assert contains.passed is found and excludes.passed is not found
