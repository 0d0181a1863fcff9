"""Issue 27 round 11, class 4 (recall): a held metric named by a word the shipped vocabulary
gains. 规模 after an amount names that amount's size (销售规模 the sales, 资产规模 the total
assets), 保有量 a stock of things held (门店保有量 the store count), 盈利 alone the bottom line
as Hong Kong and Taiwan write it, SSG the same-store growth, 'gross profit dollars' the gross
profit in money; a segment word glued to an entity's name (香港分部, Hong Kong segment)
is that entity (业务 is the business itself, a thing sold); an analyst's '% chg' the
growth and 'vs LY' the last year. Each with rows where the same characters or letters
name no held metric or another one, so a new word never turns the question into another
quantity."""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        ("acme", "东南亚2024年的销售规模有多大?", "REVENUE"),  # 销售规模: the size of sales
        ("acme", "中国内地2024年末的门店保有量是多少?", "STORE_COUNT"),  # 保有量: stores held
        ("acme", "台灣2024年盈利多少?", "NET_PROFIT"),  # 盈利 alone: the bottom line
        ("acme", "What was Hong Kong's SSG in FY24?", "SSSG"),  # SSG: same-store growth
        # gross profit in money, never the margin
        ("acme", "How many gross profit dollars did SE Asia make in 2024?", "GROSS_PROFIT"),
        ("jy", "金宇生物2020年末的资产规模有多大?", "TOTAL_ASSETS"),  # 资产规模: the total assets
    ],
)  # fmt: skip
def test_a_shipped_word_reads_as_the_held_metric(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [metric] and intent.declined is None, intent


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        ("acme", "香港2024年的盈利能力如何?", "NET_PROFIT"),  # profitability: no amount
        ("acme", "香港2024年经营盈利是多少?", "NET_PROFIT"),  # the operating line, not the net
        ("acme", "香港2024年的盈利水平怎么样?", "NET_PROFIT"),  # the level of profitability
        ("jy", "金宇生物2020年末的净资产规模有多大?", "TOTAL_ASSETS"),  # net assets: equity
        ("acme", "What was Hong Kong's ssg in FY24?", "SSSG"),  # lower case: no initialism
    ],
)  # fmt: skip
def test_the_same_words_elsewhere_name_no_such_metric(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert metric not in intent.metrics, intent


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("香港分部2024年的經營利潤是多少?", "OPERATING_PROFIT"),  # the Hong Kong segment: 香港
        ("香港板块2024年的经营利润是多少?", "OPERATING_PROFIT"),  # 板块 glued to the entity
        ("Hong Kong segment operating profit in 2024?", "OPERATING_PROFIT"),  # in English
    ],
)  # fmt: skip
def test_a_part_word_glued_to_an_entity_is_that_entity(
    question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == [metric] and intent.entities == ["ACME_HK"], intent
    assert intent.declined is None, intent


@pytest.mark.parametrize(
    ("which", "question"),
    [
        ("acme", "香港母婴分部2024年的收入是多少?"),  # a part named by other words: declined
        ("jy", "金宇生物兽用疫苗业务2020年的营业收入是多少?"),  # a product line, not the company
        ("acme", "ACME把台湾业务卖了多少钱?"),  # the business sold: its price, no revenue
    ],
)  # fmt: skip
def test_a_part_named_by_other_words_stays_declined(
    which: str, question: str, jy: DomainProfile
) -> None:
    assert parse_for(which, question, jy).declined is not None


@pytest.mark.parametrize(
    ("question", "metric", "subjects"),
    [
        ("Jinyu net profit FY21 vs LY, % chg?", "NET_PROFIT_GROWTH", []),  # LY: last year
        ("Jinyu net profit FY21, % chg?", "NET_PROFIT_GROWTH", []),  # % chg: the growth
        ("Jinyu revenue 2021, pct change?", "REVENUE_GROWTH", []),  # pct change
        ("Jinyu revenue 2021 vs PY?", "REVENUE", []),  # PY: prior year, no growth asked
        # LY after no comparison word: the place code, as before
        ("What was Jinyu's revenue in LY in 2021?", "REVENUE", ["LY"]),
    ],
)  # fmt: skip
def test_an_analysts_column_head_reads_as_written(
    question: str, metric: str, subjects: list[str], jy: DomainProfile
) -> None:
    intent = parse_for("jy", question, jy)
    assert intent.metrics == [metric], intent
    assert [s.name for s in intent.subjects] == subjects, intent
