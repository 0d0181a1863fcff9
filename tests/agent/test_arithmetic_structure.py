"""The arithmetic structure of a question (issue 27, round 6):

- a circumstance clause (在…的带动下, 在…的背景下, 受…影响, amid …, driven by …) between commas or
  in brackets says why, never whose figure nor which quantity (``circumstances``);
- a level and a quantity of it listed with its metric word left out (营业收入及其增长率, revenue
  and its growth rate): both asked (``elided``);
- one quantity compared with another (毛利率比营业利润率高几个百分点, by how much did current
  assets exceed current liabilities): both of the period asked, never a change over two periods
  (``change_cues.metric_comparisons``);
- a formula written out ((流动资产−存货)÷流动负债, revenue minus cost of sales): the profile's
  metric whose formula or standard identity it is, else declined by its words, never its
  operands' levels (``written_formulas``).
"""

from __future__ import annotations

import pytest

from ragspine.engine import Engine
from ragspine.profile import DomainProfile
from tests.agent.asking import ask, found
from tests.agent.parsing import parse_for

# ------------------------------------------------------------------ circumstance clauses


@pytest.mark.parametrize(
    ("which", "question", "metrics", "entities"),
    [
        # 在…共同带动下 between commas, holding another entity's alias (内地)
        ("acme", "香港2024年的收入,在旅游业复苏、内地访客回流和新店开业的共同带动下,"
         "同比增长了百分之多少?", ["REVENUE_YOY"], ["ACME_HK"]),
        # 在…的背景下 holding product words, which are no subject the passages must name
        ("jy", "金宇生物2021年的研发费用,在公司持续加强新型疫苗和宠物疫苗研发的背景下,"
         "同比增长了百分之多少?", ["RD_EXPENSES_GROWTH"], ["JINYU"]),
        # the clause first, its year kept: the rest of the question names none
        ("acme", "在2024年内地消费疲软的背景下,香港的收入同比增长了百分之多少?",
         ["REVENUE_YOY"], ["ACME_HK"]),
        # in brackets
        ("acme", "香港的收入(在内地访客回流的带动下)2024年同比增长了百分之多少?",
         ["REVENUE_YOY"], ["ACME_HK"]),
        # 受…影响 with another metric's word (净利润) in it
        ("acme", "香港2024年的收入,受内地净利润下滑影响,同比增长了百分之多少?",
         ["REVENUE_YOY"], ["ACME_HK"]),
        # English: driven by …, ending the question
        ("acme", "What was Hong Kong's revenue growth in 2024, driven by mainland visitors "
         "returning?", ["REVENUE_YOY"], ["ACME_HK"]),
        # English: amid … opening the question
        ("acme", "Amid weak demand in mainland China, what was Hong Kong's 2024 net profit?",
         ["NET_PROFIT"], ["ACME_HK"]),
        # inline, no comma around it: from the nearest 在 to its frame
        ("acme", "香港2024年的收入在内地访客回流的带动下同比增长了百分之多少?",
         ["REVENUE_YOY"], ["ACME_HK"]),
    ],
)  # fmt: skip
def test_a_circumstance_clause_names_no_entity_nor_quantity(
    which: str, question: str, metrics: list[str], entities: list[str], jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == metrics, intent
    assert intent.entities == entities, intent
    assert intent.subjects == [], intent


@pytest.mark.parametrize(
    ("question", "entities"),
    [
        # 在 opening a clause that names the place asked (no circumstance noun before 下)
        ("在香港,2024年的收入是多少?", ["ACME_HK"]),
        # a clause that asks something is part of the question
        (
            "What was Hong Kong's 2024 revenue, and how much was driven by mainland China?",
            ["ACME_HK", "ACME_CN"],
        ),
        # the same words not set apart by commas: part of the question's own phrase
        ("香港和内地2024年的收入分别是多少?", ["ACME_HK", "ACME_CN"]),
        # a condition the figure is measured under, not a circumstance: its words are kept
        (
            "What was Hong Kong's 2024 revenue growth, excluding the effect of mainland China?",
            ["ACME_HK", "ACME_CN"],
        ),
        ("在不含内地的情况下,集团2024年的收入是多少?", ["ACME_GROUP"]),
    ],
)
def test_a_clause_that_is_no_circumstance_keeps_its_words(
    question: str, entities: list[str], jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.entities == entities, intent


# ------------------------------------------------------------------ a level and its quantity


@pytest.mark.parametrize(
    ("which", "question", "metrics"),
    [
        # its year-on-year growth rate, English
        ("jy", "What were Jinyu's 2021 operating revenue and its year-on-year growth rate?",
         ["REVENUE", "REVENUE_GROWTH"]),
        # 及其增长率
        ("jy", "金宇生物2021年营业收入及其增长率是多少?", ["REVENUE", "REVENUE_GROWTH"]),
        # no word pointing back: the list item is the modifier alone
        ("jy", "金宇生物2021年营业收入和同比增长率分别是多少?", ["REVENUE", "REVENUE_GROWTH"]),
        ("jy", "What were Jinyu's 2021 net profit and its growth?",
         ["NET_PROFIT", "NET_PROFIT_GROWTH"]),
        # a share of the group, and a per-store quantity, the same way
        ("acme", "What were Hong Kong's 2024 revenue and its share of the group?",
         ["REVENUE", "REVENUE_SHARE"]),
        ("acme", "香港2024年的收入及单店收入是多少?", ["REVENUE", "REVENUE_PER_STORE"]),
        # a share whose whole holds the metric's word again (占集团收入的比重)
        ("acme", "香港2024年的收入及其占集团收入的比重是多少?", ["REVENUE", "REVENUE_SHARE"]),
        # negative: the growth rate of another metric, named after it
        ("acme", "What were Hong Kong's 2024 revenue and the growth rate of net profit?",
         ["REVENUE", "NET_PROFIT_YOY"]),
        # negative: the second item names a metric of its own
        ("jy", "What were Jinyu's 2021 operating revenue and net profit growth rate?",
         ["REVENUE", "NET_PROFIT_GROWTH"]),
        # negative: two entities of one metric listed
        ("acme", "香港2024年的收入和台湾的收入分别是多少?", ["REVENUE"]),
        # negative: each item with its own metric word already
        ("acme", "東南亞2024年的收入和收入增長率分別是多少?", ["REVENUE", "REVENUE_YOY"]),
    ],
)  # fmt: skip
def test_a_level_listed_with_a_quantity_of_it_asks_both(
    which: str, question: str, metrics: list[str], jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == metrics, intent
    assert intent.declined is None, intent


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        ("What were Hong Kong's 2024 store count and its growth rate?", "store count growth rate"),
        ("香港2024年的门店数及其增长率是多少?", "门店数增长率"),
    ],
)
def test_a_listed_quantity_the_profile_lacks_is_declined_by_the_metric_s_name(
    question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == ["STORE_COUNT"], intent  # the level listed is still asked
    assert intent.declined == declined, intent


# ------------------------------------------------------------------ two quantities compared


@pytest.mark.parametrize(
    ("question", "metrics", "period"),
    [
        # a gap in points between two ratios of one year
        ("金宇生物2020年的毛利率比营业利润率高几个百分点?",
         ["GROSS_MARGIN", "OPERATING_MARGIN"], "2020"),
        # English, how much higher … than its …
        ("How much higher was Jinyu's gross margin than its operating margin in 2020?",
         ["GROSS_MARGIN", "OPERATING_MARGIN"], "2020"),
        # an excess of one line over another, by how much … exceed
        ("By how much did Jinyu's current assets exceed its current liabilities at the end of "
         "2021?", ["CURRENT_ASSETS", "CURRENT_LIABILITIES"], "2021"),
        # 比…多多少
        ("金宇生物2021年末流动资产比流动负债多多少?",
         ["CURRENT_ASSETS", "CURRENT_LIABILITIES"], "2021"),
        # a gap: X与Y相差几个百分点, the gap between X and Y
        ("金宇生物2020年毛利率与营业利润率相差几个百分点?",
         ["GROSS_MARGIN", "OPERATING_MARGIN"], "2020"),
        ("How many percentage points was the gap between Jinyu's gross margin and its operating "
         "margin in 2020?", ["GROSS_MARGIN", "OPERATING_MARGIN"], "2020"),
    ],
)  # fmt: skip
def test_one_quantity_compared_with_another_is_both_of_one_period(
    question: str, metrics: list[str], period: str, jy: DomainProfile
) -> None:
    intent = parse_for("jy", question, jy)
    assert intent.metrics == metrics, intent
    assert [p.period for p in intent.periods] == [period], intent
    assert not intent.change, intent


@pytest.mark.parametrize(
    "question",
    [
        "金宇生物2020年的毛利率比上年高几个百分点?",  # compared with the year before: a change
        "By how much did Jinyu's revenue exceed its 2020 level in 2021?",  # with a period
        "金宇生物2021年的营业收入比2020年增长了多少?",  # 比 a year … 增长了多少
        "金宇生物2020年毛利率和2019年毛利率相差几个百分点?",  # one metric, two years: in time
        "金宇生物2020年毛利率和营业利润率分别提高了几个百分点?",  # a list, each one's change
    ],
)
def test_a_quantity_compared_with_another_period_stays_a_change(
    question: str, jy: DomainProfile
) -> None:
    intent = parse_for("jy", question, jy)
    assert intent.change and len(intent.periods) == 2, intent


# ------------------------------------------------------------------ formulas written out


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        # the profile's quick ratio, written with ÷ and a full-width minus
        ("jy", "金宇生物2019年末(流动资产−存货)÷流动负债是多少?", "QUICK_RATIO"),
        ("jy", "金宇生物2020年(流动资产-存货)/流动负债是多少?", "QUICK_RATIO"),  # ASCII signs
        ("jy", "金宇生物2020年流动资产÷流动负债是多少?", "CURRENT_RATIO"),
        ("jy", "金宇生物2020年(营业收入-营业成本)/营业收入×100%是多少?", "GROSS_MARGIN"),  # × 100%
        # a sum in brackets over revenue, its terms in any order
        ("jy", "金宇生物2020年(管理费用+销售费用+财务费用)/营业收入是多少?",
         "THREE_EXPENSES_SHARE"),
        # a standard identity: revenue less cost of sales is the demo's held gross profit
        ("acme", "What was Hong Kong's revenue minus cost of sales in 2024?", "GROSS_PROFIT"),
        # gross profit over revenue by a group's shape, on a profile that does not hold 毛利
        ("jy", "金宇生物2020年毛利/营业收入是多少?", "GROSS_MARGIN"),
        ("acme", "香港2024年净利润÷收入是多少?", "NET_MARGIN"),
    ],
)  # fmt: skip
def test_a_formula_written_out_is_the_metric_it_computes(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [metric], intent
    assert intent.declined is None, intent


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # a difference no formula holds: never the two levels
        ("jy", "金宇生物2020年流动资产减去流动负债是多少?", "流动资产减去流动负债"),
        ("jy", "What was Jinyu's 2020 operating revenue minus operating costs?",
         "operating revenue minus operating costs"),
        ("acme", "What was Hong Kong's revenue minus gross profit in 2024?",
         "revenue minus gross profit"),
        ("jy", "金宇生物2020年(流动资产-存货)÷营业收入是多少?", "(流动资产-存货)÷营业收入"),
    ],
)  # fmt: skip
def test_a_formula_matching_no_metric_is_declined_by_its_words(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [], intent
    assert intent.declined == declined, intent


@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        # a slash between items asked 分别: a list
        ("金宇生物2020年营业收入/净利润分别是多少?", ["REVENUE", "NET_PROFIT"]),
        # a hyphen inside words, not between two metrics
        ("What was Jinyu's year-on-year operating revenue growth in 2021?", ["REVENUE_GROWTH"]),
        # a sum alone (+) is left to the sum reader, whatever it makes of it
        ("金宇生物2020年流动资产+非流动资产是多少?", ["CURRENT_ASSETS", "NON_CURRENT_ASSETS"]),
    ],
)
def test_signs_that_write_no_formula_are_no_formula(
    question: str, metrics: list[str], jy: DomainProfile
) -> None:
    intent = parse_for("jy", question, jy)
    assert intent.metrics == metrics, intent
    assert intent.declined is None, intent


# ------------------------------------------------------------------ answered end to end


def test_the_quick_ratio_written_out_is_computed_from_sourced_operands(jinyu: Engine) -> None:
    result = ask(jinyu, "金宇生物2019年末(流动资产−存货)÷流动负债是多少?")
    assert found(result) == ["QUICK_RATIO"], result.answer
    assert "4.47" in result.answer and "4.92" not in result.answer


def test_revenue_minus_cost_of_sales_is_the_held_gross_profit(demo: Engine) -> None:
    result = ask(demo, "What was Hong Kong's revenue minus cost of sales in 2024?")
    assert found(result) == ["GROSS_PROFIT"], result.answer
    assert "182.5" in result.answer


def test_an_excess_of_one_line_over_another_answers_the_year_asked(jinyu: Engine) -> None:
    result = ask(
        jinyu,
        "By how much did Jinyu's current assets exceed its current liabilities at the end of 2021?",
    )
    assert found(result) == ["CURRENT_ASSETS", "CURRENT_LIABILITIES"], result.answer
    assert "2,760,640,049.4" in result.answer and "689,152,163.92" in result.answer
    assert "3,187,018,741.38" not in result.answer  # 2020's current assets: no year asked
