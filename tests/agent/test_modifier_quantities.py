"""Issue 27, class 1 again: a modifier that makes a quantity the base metric's level is not,
asked the way a user asks (through the engine), on the demo and on 金宇生物:

1. a change asked in points, or a count's net additions, is a change: both sourced levels and
   their difference, and the answer record says it answers a change (never the level alone);
2. a kind of growth no formula of the profile expresses (a compound annual rate, a quarter-on-
   quarter rate, a contribution to growth, the growth rate of a percentage) is declined by a name
   built from the metric's, never answered with its levels or its year-on-year growth;
3. 同比 asked as 多少 is the year-on-year rate where the profile holds it; a colloquial verb of
   change (shrink) asked in percent is the growth rate;
4. a per-share figure the profile lacks is declined by its name, never the amount;
5. a rank across the profile's entities compares each one's sourced figure and names the top.
"""

from __future__ import annotations

import re

import pytest

from ragspine.agent.agent import AgentResult
from ragspine.engine import Engine
from tests.agent.asking import ask, formula_given, found


def declines(result: AgentResult, name: str) -> None:
    """No figure, no fact, no source, and the quantity named."""
    assert result.tool_results == [] and result.sources == [], result.answer
    assert re.search(r"\d", result.answer) is None, result.answer
    assert result.clarification.declined == name and name in result.answer, result.answer


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "metric", "shown"),
    [
        ("demo", "By how many percentage points did Hong Kong's gross margin move between "
         "FY2023 and FY2024?", "GROSS_MARGIN", "+0.9 percentage points"),  # two periods named
        # one year named: the year before too
        ("demo", "香港2024年净利率提高了几个百分点?", "NET_MARGIN", "个百分点"),
        # traditional characters
        ("demo", "台灣2024年毛利率較上年變動了多少個百分點?", "GROSS_MARGIN", "个百分点"),
        # on 金宇生物, two years named
        ("jinyu", "金宇生物2020年净利率比2019年提高了几个百分点?", "NET_MARGIN", "+6.56 个百分点"),
        # net additions: a count's change
        ("demo", "2024年东南亚净增了多少家门店?", "STORE_COUNT", "+18 家"),
        # in English
        ("demo", "How many net new stores did Hong Kong add in 2024?", "STORE_COUNT", "+5 stores"),
        # a net closure is negative
        ("demo", "中国内地2024年门店净增数是多少?", "STORE_COUNT", "-45 家"),
    ],
)  # fmt: skip
def test_1_a_change_in_points_or_a_net_addition_is_a_change_and_says_so(
    request: pytest.FixtureRequest, which: str, question: str, metric: str, shown: str
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert found(result) == [metric, metric], result.answer
    assert shown in result.answer
    assert result.changes == [metric]
    assert result.to_record().changes == [metric]


def test_1_a_level_is_not_a_change(demo: Engine) -> None:
    result = ask(demo, "香港2024年的毛利率是多少?")
    assert found(result) == ["GROSS_MARGIN"] and result.to_record().changes == []


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "name"),
    [
        ("demo", "ACME集团2022年到2024年收入的年复合增长率是多少?", "收入复合增长率"),
        ("demo", "What was group revenue's compound annual growth rate from 2022 to 2024?",
         "revenue CAGR"),  # written out in English
        # the abbreviation, before the metric
        ("demo", "What was the CAGR of Hong Kong revenue between FY2022 and FY2024?",
         "revenue CAGR"),
        ("jinyu", "2019年至2021年金宇生物营业收入的年均复合增长率是多少?", "营业收入复合增长率"),
        ("demo", "2024年第三季度中国内地收入环比增长了多少?", "收入环比增长率"),
        ("demo", "What was mainland China's quarter-on-quarter revenue growth in 2024Q3?",
         "revenue quarter-on-quarter growth"),
        ("demo", "香港2024年第三季度毛利環比增速是多少?", "毛利环比增长率"),  # traditional
        ("demo", "2024年集团收入增长中香港贡献了多大比例?", "收入增长贡献率"),
        ("demo", "How much did Hong Kong contribute to group revenue growth in 2024?",
         "contribution to revenue growth"),
        ("demo", "What was the year-on-year growth of Hong Kong's net margin in 2024?",
         "net margin growth rate"),  # a percentage's relative rate: not held; built name
        ("demo", "香港2024年净利率同比增长率是多少?", "净利率同比增长率"),  # the question's words
        ("demo", "What was Hong Kong's net margin growth in 2024?", "net margin growth"),
    ],
)  # fmt: skip
def test_2_a_growth_no_formula_expresses_is_declined_by_name(
    request: pytest.FixtureRequest, which: str, question: str, name: str
) -> None:
    declines(ask(request.getfixturevalue(which), question), name)


@pytest.mark.parametrize(
    ("question", "metric", "shown"),
    [
        ("東南亞2024年毛利同比增長多少?", "GROSS_PROFIT_YOY", "19.28%"),  # traditional
        ("东南亚2024年毛利同比增长多少?", "GROSS_PROFIT_YOY", "19.28%"),
        ("How much did mainland China's net income shrink in 2024, in percent?",
         "NET_PROFIT_YOY", "-27.16%"),  # a colloquial verb, asked in percent
    ],
)  # fmt: skip
def test_3_yoy_asked_as_how_much_is_the_growth_rate(
    demo: Engine, question: str, metric: str, shown: str
) -> None:
    result = ask(demo, question)
    assert found(result) == [metric], result.answer
    assert shown in result.answer and formula_given(result)


@pytest.mark.parametrize(
    "question",
    [
        "金宇生物2020年每股经营现金流是多少元?",
        "金宇生物2020年每股经营活动现金流量净额是多少?",
    ],
)
def test_4_a_per_share_figure_the_profile_lacks_is_declined(jinyu: Engine, question: str) -> None:
    result = ask(jinyu, question)
    assert result.tool_results == [] and re.search(r"\d", result.answer) is None, result.answer
    assert result.clarification.declined.startswith("每股经营"), result.answer


@pytest.mark.parametrize(
    ("question", "metric", "top"),
    [
        ("Which region had the highest operating margin in 2024?", "OPERATING_MARGIN", "Hong Kong"),
        ("2024年哪个地区的收入最高?", "REVENUE", "中国内地"),
        ("哪個市場2024年的門店數最少?", "STORE_COUNT", "台湾"),  # traditional, lowest
    ],
)
def test_5_a_rank_compares_each_entity_and_names_the_top(
    demo: Engine, question: str, metric: str, top: str
) -> None:
    result = ask(demo, question)
    regions = {r["entity"] for r in result.tool_results if r["status"] == "found"}  # type: ignore[typeddict-item]
    assert set(found(result)) == {metric} and regions == {
        "ACME_CN",
        "ACME_HK",
        "ACME_TW",
        "ACME_SEA",
    }
    assert re.search(rf"(?:最高|最低):{top}|(?:highest|lowest) [a-z ]+: {top}", result.answer)
    assert result.clarification.assumption_note == ""  # no entity assumed: each is compared
