"""Issue 27, class 4: recall of what the profile holds, asked the way people ask. Colloquial
verbs (卖了多少钱 for revenue, 赚了多少 for net profit), common English abbreviations and
synonyms (rev, debt ratio, store network), and a near-miss typo (one wrong character in a
metric name of three or more characters, only where it can be no other word) all read as the
profile's metric and are answered with its sourced figure."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.agent import AgentResult
from ragspine.engine import Engine


def ask(engine: Engine, question: str) -> AgentResult:
    jy = engine.profile.home_entity_code != "ACME_GROUP"
    ref = date(2022, 6, 30) if jy else date(2025, 6, 30)
    return engine.ask(question, reference_date=ref, clearance="INTERNAL")


def found(result: AgentResult) -> list[tuple[str, str]]:
    return [
        (r["metric_code"], r["entity"])  # type: ignore[typeddict-item]
        for r in result.tool_results
        if r["status"] == "found"
    ]


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "metric", "entity"),
    [
        # colloquial verbs: what was sold is revenue, what was earned is net profit
        ("demo", "台湾2023年卖了多少钱?", "REVENUE", "ACME_TW"),
        ("demo", "東南亞2024年賣了多少?", "REVENUE", "ACME_SEA"),  # traditional, no 钱
        ("demo", "集团2023年赚了多少钱?", "NET_PROFIT", "ACME_GROUP"),
        ("demo", "How much did Taiwan sell in FY2023?", "REVENUE", "ACME_TW"),
        ("demo", "How much did the group earn in FY2024?", "NET_PROFIT", "ACME_GROUP"),
        ("jinyu", "金宇生物2020年挣了多少?", "NET_PROFIT", "JINYU"),
        ("jinyu", "生物股份2019年一共卖了多少钱?", "REVENUE", "JINYU"),
        ("demo", "How large was the store network in Hong Kong at the end of 2023?", "STORE_COUNT",
         "ACME_HK"),  # the size of a network: its count of stores
        ("demo", "2024年底台湾的门店网络有多大?", "STORE_COUNT", "ACME_TW"),
        # English abbreviations and synonyms of the profile's metrics
        ("demo", "SEA rev FY23?", "REVENUE", "ACME_SEA"),
        ("demo", "What was the group's bottom line in FY2024?", "NET_PROFIT", "ACME_GROUP"),
        ("demo", "What was the size of the store network in Taiwan at end-2024?", "STORE_COUNT",
         "ACME_TW"),
        ("jinyu", "Jinyu debt ratio FY2019?", "DEBT_TO_ASSETS", "JINYU"),
        ("jinyu", "What was Jinyu's liability-to-asset ratio in 2020?", "DEBT_TO_ASSETS", "JINYU"),
        # one wrong character in a metric name of three or more characters
        ("demo", "中国内地2023年的营业颔是多少?", "REVENUE", "ACME_CN"),  # 颔 for 额
        ("jinyu", "金宇生物2020年营业成夲是多少?", "OPERATING_COSTS", "JINYU"),  # 夲 for 本
        ("jinyu", "金宇生物2019年淨力潤是多少?", "NET_PROFIT", "JINYU"),  # traditional, 力 for 利
    ],
)  # fmt: skip
def test_a_held_metric_asked_another_way_is_answered(
    request: pytest.FixtureRequest, which: str, question: str, metric: str, entity: str
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert (metric, entity) in found(result), result.answer


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "not_metric"),
    [
        # a counter after 卖了多少 counts what was sold (stores), not money
        ("demo", "ACME 2024年在台湾卖了多少家门店?", "REVENUE"),
        # 税后利润 is one character from 税前利润, but 后 is a word of other terms: no typo
        ("jinyu", "金宇生物2020年税后利润是多少?", "TOTAL_PROFIT"),
        # the store network is a document topic; only its size asked is a count
        ("demo", "门店网络和会员有什么变化?", "STORE_COUNT"),
        # 营业时 is one character from 营业额, but 营业时间 is a longer word: no typo
        ("demo", "2025年门店营业时间是几点?", "REVENUE"),
        # a metric word in the question: the colloquial verb adds nothing
        ("demo", "集团2024年毛利赚了多少?", "NET_PROFIT"),
    ],
)  # fmt: skip
def test_a_near_reading_that_could_be_another_word_is_not_taken(
    request: pytest.FixtureRequest, which: str, question: str, not_metric: str
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert not_metric not in [m for m, _ in found(result)], result.answer
