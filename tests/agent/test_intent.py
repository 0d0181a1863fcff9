from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import (
    CLARIFY_ANSWER_WITH_ASSUMPTIONS,
    CLARIFY_ASK_FIRST,
    CLARIFY_NONE,
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ROUTE_COMPOSITE,
    ROUTE_NARRATIVE,
    ROUTE_STRUCTURED,
    ParsedIntent,
    RuleIntentParser,
    clarify_scope,
    parse_intent,
)
from ragspine.agent.security_gate import SECURITY_REFUSE_OUT_OF_SCOPE
from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.periods import Period

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "metric", "entity", "period", "channel"),
    [
        # the seeds' example: codes and aliases mixed
        ("中国内地FY2024的REVENUE是多少", "REVENUE", "ACME_CN", "FY2024", None),
        # traditional Chinese reads as simplified (HK and TW users)
        ("台灣2024年的門店數是多少?", "STORE_COUNT", "ACME_TW", "FY2024", None),
        ("香港2024年第三季度營收", "REVENUE", "ACME_HK", "2024Q3", None),
        # English with a channel
        ("What was Hong Kong online revenue in FY2024?", "REVENUE", "ACME_HK", "FY2024", "ONLINE"),
        # relative period
        ("东南亚去年的毛利率", "GROSS_MARGIN", "ACME_SEA", "FY2024", None),
        # longest metric alias: 毛利率 is not 毛利
        ("集团2023年毛利率", "GROSS_MARGIN", "ACME_GROUP", "FY2023", None),
        # nothing but a metric
        ("营收是多少", "REVENUE", None, None, None),
    ],
)
def test_four_slots(
    question: str, metric: str | None, entity: str | None, period: str | None, channel: str | None
) -> None:
    intent = parse_intent(question, REF)
    assert intent.metric == metric
    assert intent.entity == entity
    assert (intent.period.label if intent.period else None) == period
    assert intent.channel == channel
    assert intent.raw_question == question


@pytest.mark.parametrize(
    ("question", "route"),
    [
        ("中国内地FY2024的收入是多少", ROUTE_STRUCTURED),  # metric, no narrative cue
        ("为什么中国内地FY2024收入下降?", ROUTE_COMPOSITE),  # metric + why
        ("Why did mainland China revenue fall in FY2024?", ROUTE_COMPOSITE),  # English why
        ("个人信息保护合规指引有哪些要求?", ROUTE_NARRATIVE),  # regulation, no metric
        ("2025年门店策略是什么?", ROUTE_NARRATIVE),  # strategy, no metric
        ("中国内地FY2024是多少?", ROUTE_STRUCTURED),  # numeric cue without a metric
        ("你好", ROUTE_NARRATIVE),  # nothing: narrative (it needs no slots)
    ],
)
def test_routes(question: str, route: str) -> None:
    assert parse_intent(question, REF).route == route


def test_multi_value_slots_keep_order_and_dedupe() -> None:
    intent = parse_intent("香港和台湾2023和2024年的营收与毛利", REF)
    assert intent.metrics == ["REVENUE", "GROSS_PROFIT"]
    assert intent.entities == ["ACME_HK", "ACME_TW"]
    assert intent.periods == [Period("FY", "2023"), Period("FY", "2024")]
    assert intent.is_multi


def test_competitor_is_masked_before_entity_matching() -> None:
    """'竞安中国' contains '中国' but must never read as ACME_CN."""
    intent = parse_intent("竞安中国FY2024收入是多少", REF)
    assert intent.entities == []
    assert intent.external_entity == "竞安"


@pytest.mark.parametrize(
    ("question", "param", "raw"),
    [
        ("ACME_JP FY2024 revenue", "entity", "ACME_JP"),  # entity-shaped code we do not have
        ("香港2024Q5的收入", "period", "2024Q5"),  # a quarter that cannot exist
        ("香港第五季度的收入", "period", "第五季度"),
    ],
)
def test_unknown_slots_are_kept_not_defaulted(question: str, param: str, raw: str) -> None:
    intent = parse_intent(question, REF)
    assert intent.unrecognized == {param: raw}
    clar = clarify_scope(intent, REF)
    assert param not in clar.assumed_slots


def test_rule_parser_is_an_intent_parser() -> None:
    assert RuleIntentParser().parse("香港FY2024营收", REF).entity == "ACME_HK"


# -- the clarification gateway ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "mode"),
    [
        ("竞安FY2024收入是多少", CLARIFY_OUT_OF_SCOPE_ENTITY),  # competitor: refuse
        ("竞安为什么增长?", CLARIFY_OUT_OF_SCOPE_ENTITY),  # refusal beats the narrative return
        ("竞安中国是多少?", CLARIFY_OUT_OF_SCOPE_ENTITY),  # refusal beats the missing metric
        ("个人信息保护合规指引有哪些要求?", CLARIFY_NONE),  # narrative: no slots needed
        ("中国内地FY2024是多少?", CLARIFY_ASK_FIRST),  # missing metric: ask
        ("中国内地的收入是多少?", CLARIFY_ANSWER_WITH_ASSUMPTIONS),  # missing period: assume
        ("FY2024收入是多少?", CLARIFY_ANSWER_WITH_ASSUMPTIONS),  # missing entity: assume
        ("中国内地FY2024收入是多少?", CLARIFY_NONE),  # complete
    ],
)
def test_clarification_modes_in_strict_order(question: str, mode: str) -> None:
    assert clarify_scope(parse_intent(question, REF), REF).mode == mode


def test_refusal_mode_equals_the_gate_constant() -> None:
    assert CLARIFY_OUT_OF_SCOPE_ENTITY == SECURITY_REFUSE_OUT_OF_SCOPE


def test_ask_first_offers_a_short_list_not_every_metric() -> None:
    clar = clarify_scope(parse_intent("中国内地FY2024是多少?", REF), REF)
    # nothing in the question names a metric: the first six declared, and "等" for the rest
    assert clar.narrowing_options == [
        "REVENUE",
        "GROSS_PROFIT",
        "GROSS_MARGIN",
        "OPERATING_PROFIT",
        "NET_PROFIT",
        "STORE_COUNT",
    ]
    assert "收入" in clar.question and "等" in clar.question and "?" in clar.question
    assert "REVENUE" not in clar.question  # names, not codes


def test_ask_first_offers_the_metrics_closest_to_the_words_used() -> None:
    clar = clarify_scope(parse_intent("集团FY2024的利润是多少?", REF), REF)
    assert clar.mode == CLARIFY_ASK_FIRST
    # 利润 is in 毛利润, 经营利润 and 净利润, two characters each: declared order breaks ties
    assert clar.narrowing_options[:3] == ["GROSS_PROFIT", "OPERATING_PROFIT", "NET_PROFIT"]


def test_missing_entity_and_period_are_assumed_and_surfaced() -> None:
    clar = clarify_scope(parse_intent("收入是多少?", REF), REF)
    assert clar.assumed_slots == {"entity": "ACME_GROUP", "period": "FY2024"}
    assert clar.assumption_note.startswith("【假设】")
    assert "ACME集团" in clar.assumption_note and "FY2024" in clar.assumption_note
    assert "如需收窄" in clar.assumption_note
    assert "ACME_CN" in clar.narrowing_options and "FY2023" in clar.narrowing_options


def test_latest_complete_fiscal_year_follows_the_reference_date() -> None:
    clar = clarify_scope(parse_intent("香港收入是多少?", date(2026, 1, 5)), date(2026, 1, 5))
    assert clar.assumed_slots == {"period": "FY2025"}


def test_gateway_screens_the_raw_question_not_the_parsed_field() -> None:
    """An LLM parser that forgets the competitor cannot defeat the refusal."""
    forged = ParsedIntent(
        metric="REVENUE",
        entity="ACME_CN",
        period=Period("FY", "2024"),
        channel=None,
        route=ROUTE_STRUCTURED,
        raw_question="竞安中国FY2024收入",
        external_entity=None,
    )
    assert clarify_scope(forged, REF).mode == CLARIFY_OUT_OF_SCOPE_ENTITY


@pytest.mark.parametrize(
    ("question", "entities", "periods", "unrecognized"),
    [
        # an impossible quarter is named back, not read as the year beside it
        ("中国内地2024年第五季度收入是多少?", ["ACME_CN"], [], {"period": "2024年第五季度"}),
        ("What was Hong Kong revenue in Q7 2024?", ["ACME_HK"], [], {"period": "Q7 2024"}),
        # an unknown entity listed with a known one is kept beside it
        ("ACME_JP和香港FY2024的收入是多少?", ["ACME_HK"], ["FY2024"], {"entity": "ACME_JP"}),
        # a yearless quarter after a dated one takes its year
        ("集团2024年第一季度和第二季度收入", ["ACME_GROUP"], ["2024Q1", "2024Q2"], {}),
        ("香港2024年上半年和下半年的营收", ["ACME_HK"], ["2024H1", "2024H2"], {}),
        # 中国香港 is Hong Kong, not mainland China and Hong Kong
        ("中国香港FY2024收入是多少?", ["ACME_HK"], ["FY2024"], {}),
        ("中国内地和香港FY2024收入", ["ACME_CN", "ACME_HK"], ["FY2024"], {}),  # a list still is one
    ],
)
def test_slots_the_golden_review_found_wrong(
    question: str, entities: list[str], periods: list[str], unrecognized: dict[str, str]
) -> None:
    intent = parse_intent(question, REF)
    assert intent.entities == entities
    assert [p.label for p in intent.periods] == periods
    assert intent.unrecognized == unrecognized


def test_a_yearless_quarter_is_the_latest_complete_one_and_said_so() -> None:
    intent = parse_intent("香港第三季度收入是多少?", REF)
    assert intent.assumed_period == Period("Q", "2024Q3")
    clar = clarify_scope(intent, REF)
    assert clar.mode == CLARIFY_ANSWER_WITH_ASSUMPTIONS and "2024Q3" in clar.assumption_note
    # at a later reference date the same words mean this year's third quarter
    assert parse_intent("香港第三季度收入", date(2025, 11, 1)).periods == [Period("Q", "2025Q3")]


@pytest.mark.parametrize(
    "question",
    [
        "香港FY2024净利率是多少?",  # 净利 + 率: a ratio, not net profit
        "中国内地FY2024经营利润率是多少?",  # 经营利润 + 率
        "香港FY2024收入增长率是多少?",  # a growth rate, not revenue
    ],
)
def test_a_ratio_the_profile_lacks_is_not_its_amount(question: str) -> None:
    # the demo profile without its derived metrics: the ratio is declined, never the amount
    bare = DomainProfile.model_validate(
        default_profile().model_dump(exclude_none=True) | {"derived_metrics": []}
    )
    intent = parse_intent(question, REF, profile=bare)
    clar = clarify_scope(intent, REF, profile=bare)
    assert clar.mode == CLARIFY_ASK_FIRST and intent.metrics == []
    assert clar.decline_kind == "quantity" and clar.declined in question


@pytest.mark.parametrize(
    "question",
    [
        "数字会员体系上线后有什么变化?",  # 数字 here means digital
        "What is the dual-sourcing rule for suppliers?",  # 'what is' asks about a rule
        "What is the payback hurdle for new store projects in 2025?",
    ],
)
def test_document_questions_are_narrative(question: str) -> None:
    assert parse_intent(question, REF).route == ROUTE_NARRATIVE


@pytest.mark.parametrize(
    ("question", "periods"),
    [
        ("香港2024年收入增长了多少?", ["FY2023", "FY2024"]),  # a change needs the year before
        ("How much did Hong Kong revenue grow in FY2024?", ["FY2023", "FY2024"]),
        ("东南亚2024年门店数同比增长多少?", ["FY2023", "FY2024"]),  # no growth metric: levels
        ("香港2024年第三季度收入同比增长多少?", ["2024Q3"]),  # 同比: the held growth rate
        ("香港FY2024收入是多少?", ["FY2024"]),  # a level stays a level
        ("香港2023和2024年收入增长了多少?", ["FY2023", "FY2024"]),  # two named: kept as named
    ],
)
def test_a_change_question_also_asks_for_the_period_before(
    question: str, periods: list[str]
) -> None:
    assert [p.label for p in parse_intent(question, REF).periods] == periods


@pytest.mark.parametrize(
    ("question", "route"),
    [
        # a metric plus 介绍…情况: the number, then what the documents say about it
        ("请介绍一下集团2024年收入情况", "composite"),
        ("分析一下香港FY2024的毛利率", "composite"),
        # 的情况下 is a condition, not a request for a narrative
        ("在保留两位小数的情况下,集团2024年的毛利率是多少", "structured"),
        # "what was" asks for a figure only when a metric is named
        ("What was the audit opinion on the 2024 report?", "narrative"),
        ("What was Hong Kong revenue in FY2024?", "structured"),
    ],
)
def test_routing_cues_from_real_questions(question: str, route: str) -> None:
    assert parse_intent(question, REF).route == route


def test_an_english_ask_first_offers_metrics_sharing_a_word_not_letters() -> None:
    clar = clarify_scope(parse_intent("What was the profit in FY2024?", REF), REF)
    assert clar.mode == CLARIFY_ASK_FIRST
    # gross profit, operating profit, net profit share the word "profit"
    assert clar.narrowing_options[:3] == ["GROSS_PROFIT", "OPERATING_PROFIT", "NET_PROFIT"]
