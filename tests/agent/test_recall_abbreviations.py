"""Issue 27, round 5, class 4: a held figure asked in the shorthand people write. A year in
Chinese numerals (二〇二四年) or counted back (大前年), a metric's initialism in capitals (OP,
NPAT), an entity's country or region code (TW), a regional synonym (每股盈利, working capital
ratio), a colloquial count of people (多少号人): each read as what the profile holds. And the
same letters where they are something else (OPEN, NP-200, two, a lower-case word) never are."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.agent.slots import ParsedIntent
from ragspine.engine import Engine

REF = date(2025, 6, 30)


def read(engine: Engine, question: str) -> ParsedIntent:
    return parse_intent(question, REF, profile=engine.profile)


def found(engine: Engine, question: str) -> list[tuple[str, str, str]]:
    result = engine.ask(question, reference_date=REF, clearance="INTERNAL")
    return [
        (r["metric_code"], r["entity"], r["period"])  # type: ignore[typeddict-item]
        for r in result.tool_results
        if r["status"] == "found"
    ]


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "metric", "period"),
    [
        ("demo", "二〇二四年香港的净利率是多少?", "NET_MARGIN", "2024"),  # 〇 for zero
        # a year in numerals, never a name 二一
        ("jinyu", "二〇二一年金宇生物的营业成本率是多少?", "OPERATING_COST_RATIO", "2021"),
        ("jinyu", "金宇生物二零二零年的净利润是多少?", "NET_PROFIT", "2020"),  # 零 for zero
        ("demo", "東南亞大前年的淨利率是多少?", "NET_MARGIN", "2022"),  # three years back, not 前年
        ("demo", "香港前年的净利润是多少?", "NET_PROFIT", "2023"),  # two years back
    ],
)  # fmt: skip
def test_a_year_in_numerals_or_counted_back_is_that_year(
    request: pytest.FixtureRequest, which: str, question: str, metric: str, period: str
) -> None:
    intent = read(request.getfixturevalue(which), question)
    assert (intent.metrics, [p.period for p in intent.periods]) == ([metric], [period])
    assert intent.subjects == [] and intent.declined is None, intent


@pytest.mark.parametrize(
    "question",
    [
        "香港近三四年的收入趋势如何?",  # three or four years: no year
        "香港第一二三四家门店的收入是多少?",  # ordinals, no 年 after them
    ],
)  # fmt: skip
def test_numerals_that_are_no_year_name_none(demo: Engine, question: str) -> None:
    assert read(demo, question).periods == []


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "metric", "entity"),
    [
        ("demo", "Group OP FY2023?", "OPERATING_PROFIT", "ACME_GROUP"),  # OP in capitals
        ("demo", "Mainland China NPAT FY22?", "NET_PROFIT", "ACME_CN"),  # NPAT, a two-digit FY
        ("jinyu", "Jinyu OP 2019?", "OPERATING_PROFIT", "JINYU"),  # OP beside the company's name
        ("demo", "香港2024年的NP是多少?", "NET_PROFIT", "ACME_HK"),  # inside a Chinese sentence
        ("demo", "TW net profit FY24?", "NET_PROFIT", "ACME_TW"),  # Taiwan's ISO code
        ("demo", "TWN revenue FY2024?", "REVENUE", "ACME_TW"),  # its alpha-3 code
        ("demo", "CN GP FY2023?", "GROSS_PROFIT", "ACME_CN"),  # mainland China's geography CN
        ("jinyu", "金宇生物2020年度每股盈利為多少?", "BASIC_EPS", "JINYU"),  # Hong Kong's 每股盈利
        ("jinyu", "金宇生物2020年稀释每股盈利是多少?", "DILUTED_EPS", "JINYU"),  # diluted
        ("jinyu", "What was Jinyu's working capital ratio at the end of 2019?", "CURRENT_RATIO",
         "JINYU"),  # current assets over current liabilities
        ("demo", "What was same-shop sales growth in Southeast Asia in 2024?", "SSSG", "ACME_SEA"),
        ("demo", "What was same-outlet sales growth in Hong Kong in 2024?", "SSSG", "ACME_HK"),
        ("jinyu", "金宇生物2021年底有多少号人?", "EMPLOYEES", "JINYU"),  # 号, a counter of people
        ("jinyu", "2021年底金宇生物一共有几号人?", "EMPLOYEES", "JINYU"),  # 几 for 多少
        ("jinyu", "How many people did Jinyu employ at the end of 2021?", "EMPLOYEES", "JINYU"),
    ],
)  # fmt: skip
def test_a_held_metric_in_shorthand_is_read_as_it(
    request: pytest.FixtureRequest, which: str, question: str, metric: str, entity: str
) -> None:
    intent = read(request.getfixturevalue(which), question)
    assert (intent.metrics, intent.entities) == ([metric], [entity]), intent
    assert intent.unknown_subject is None and intent.declined is None, intent


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "not_metric"),
    [
        ("demo", "What was Hong Kong's op in 2024?", "OPERATING_PROFIT"),  # op: not in capitals
        ("demo", "What was Hong Kong's np in 2024?", "NET_PROFIT"),  # np: not in capitals
        ("demo", "How much did the OPEN campaign add to Hong Kong revenue in 2024?",
         "OPERATING_PROFIT"),  # OP inside OPEN
        ("demo", "How many NP-200 units did Hong Kong sell in 2024?", "NET_PROFIT"),  # a code
        ("jinyu", "金宇生物2021年会员有多少人?", "EMPLOYEES"),  # the members are counted
        ("jinyu", "金宇生物2021年有多少人参加了培训?", "EMPLOYEES"),  # people who did something
        ("jinyu", "金宇生物2021年营业收入是多少人民币?", "EMPLOYEES"),  # 人民币 is money
        ("jinyu", "金宇生物2020年稀释每股盈利是多少?", "BASIC_EPS"),  # diluted, never basic
    ],
)  # fmt: skip
def test_the_same_letters_as_something_else_are_not_read_as_it(
    request: pytest.FixtureRequest, which: str, question: str, not_metric: str
) -> None:
    assert not_metric not in read(request.getfixturevalue(which), question).metrics


def test_two_is_not_taiwans_code(demo: Engine) -> None:
    intent = read(demo, "What was the combined net profit of the two largest regions in 2024?")
    assert "ACME_TW" not in intent.entities


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("SG net profit FY24?", "SG"),  # Singapore's code: no entity of the demo
        ("What was net profit in SG in FY24?", "SG"),  # after the metric
        ("SG的净利润2024年是多少?", "SG"),  # in a Chinese sentence
        ("HK and SG net profit FY24?", "SG"),  # listed with an entity
        ("XY net profit FY24?", "XY"),  # a code no list knows, owning the metric
    ],
)  # fmt: skip
def test_a_code_the_profile_has_not_is_declined_never_the_group(
    demo: Engine, question: str, name: str
) -> None:
    assert read(demo, question).unknown_subject == name
    assert found(demo, question) == []


@pytest.mark.parametrize(
    ("question", "entity"),
    [
        ("WHAT WAS HONG KONG NET PROFIT IN 2024?", "ACME_HK"),  # IN: a word, in capitals or not
        ("HK net profit FY24 in USD?", "ACME_HK"),  # a currency's code is no place
    ],
)  # fmt: skip
def test_capitals_that_are_words_or_currencies_are_no_subject(
    demo: Engine, question: str, entity: str
) -> None:
    assert ("NET_PROFIT", entity, "2024") in found(demo, question)


def test_a_metric_name_with_a_word_changed_is_a_quantity_not_an_entity(demo: Engine) -> None:
    intent = read(demo, "What was same-branch sales growth in Southeast Asia in 2024?")
    assert (intent.declined, intent.unknown_subject, intent.metrics) == (
        "same-branch sales growth",
        None,
        [],
    )


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("What was the ACME app revenue in 2024?", "ACME app"),  # app: in no quantity's name
        ("What was Falcon revenue in 2024?", "Falcon"),  # a name
    ],
)  # fmt: skip
def test_a_word_in_no_quantitys_name_still_owns_the_metric(
    demo: Engine, question: str, name: str
) -> None:
    assert read(demo, question).unknown_subject == name
