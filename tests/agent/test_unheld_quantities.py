"""Issue 27, round 6, quantities the profile does not hold (read by the rule parser):

- an English figure question ("what was …" of an entity or a period) whose metric phrase is
  unknown (an acronym, a multi-word name) is declined by that phrase; "which metric?" is asked
  only where no phrase names a quantity at all;
- a temporal window on a line (trailing twelve months, TTM, 滚动12个月) is a sum no fact gives;
- a statistic across entities (中位数, standard deviation, variance) is declined by its phrase, and
  四个区域 counts the regions, it names no district;
- a part of a line by when it falls due (一年内到期的非流动负债, due within one year) and a
  sub-item of a line (销售费用中的广告宣传费, advertising expenses within selling expenses) are
  other lines, never the line's level;
- a share of a part no fact holds (前五名客户销售额占年度销售总额的比例) records the part a report
  may state the share beside (``ParsedIntent.stated``); a held line's share records none.
"""

from __future__ import annotations

import pytest

from ragspine.agent.intent import ROUTE_NARRATIVE
from ragspine.agent.scope import out_of_scope
from ragspine.profile import DomainProfile, default_profile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # an acronym no profile word names, asked of an entity and a year
        ("acme", "What was Hong Kong's GMROI in 2024?", "GMROI"),
        # a multi-word name whose first word (net) is a common word: the whole name
        ("acme", "What was ACME's net promoter score in Hong Kong in 2024?", "net promoter score"),
        # asked of a period alone, with a present tense
        ("acme", "What is the customer satisfaction score for 2024?",
         "customer satisfaction score"),
        # the same on 金宇生物
        ("jy", "What was Jinyu's vaccine batch release rate in 2020?",
         "vaccine batch release rate"),
    ],
)  # fmt: skip
def test_an_unknown_english_metric_phrase_is_declined_by_it(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [] and intent.declined == declined, intent


@pytest.mark.parametrize(
    ("question", "route"),
    [
        # no phrase names a quantity: "which metric?" (no decline)
        ("What was Hong Kong's figure in FY2024?", "structured"),
        ("What is the number for Southeast Asia in 2023?", "structured"),
        # a vague word for the numbers is no quantity's name
        ("What was Hong Kong's performance in 2024?", "structured"),
        ("What were Taiwan's results in 2024?", "structured"),
        # "what was" of no entity and no period asks no figure: nothing declined
        ("What was the CEO's name?", ROUTE_NARRATIVE),
    ],
)  # fmt: skip
def test_a_question_with_no_quantity_named_is_not_declined(question: str, route: str) -> None:
    intent = parse_for("acme", question, default_profile())
    assert intent.metrics == [] and intent.declined is None, intent
    assert intent.route == route, intent


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # the hyphenated window before the line, asked as of a quarter's end
        ("What was ACME Group's trailing-twelve-month revenue as of the end of Q3 2024?",
         "trailing-twelve-month revenue"),
        # its initialism, in capitals: no name of a subject
        ("What was ACME's TTM revenue as of Q3 2024?", "TTM revenue"),
        # after the line
        ("What was Hong Kong's revenue over the last twelve months?",
         "revenue over the last twelve months"),
        # Chinese, digits and numerals
        ("ACME集团截至2024年第三季度的滚动12个月收入是多少?", "滚动12个月收入"),
        ("香港近十二个月的营收是多少?", "近十二个月的营收"),
    ],
)  # fmt: skip
def test_a_temporal_window_on_a_line_is_declined_by_its_whole_phrase(
    question: str, declined: str
) -> None:
    intent = parse_for("acme", question, default_profile())
    assert intent.metrics == [] and intent.declined == declined, intent
    assert intent.unknown_subject is None, intent  # a quantity, never "not an entity"


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        # one period back is that period: the latest quarter's level
        ("What was revenue in the last quarter?", "REVENUE"),
        # a quarter named: its level
        ("What was ACME's revenue in Q3 2024?", "REVENUE"),
        # "last year" is a period, no window of months
        ("What was Hong Kong's revenue last year?", "REVENUE"),
    ],
)  # fmt: skip
def test_a_single_period_is_no_window(question: str, metric: str) -> None:
    intent = parse_for("acme", question, default_profile())
    assert intent.metrics == [metric] and intent.declined is None, intent


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # a median across the four regions: the count of regions is part of its name
        ("2024年四个区域净利率的中位数是多少?", "四个区域净利率的中位数"),
        # standard deviation: no rule (标准) and no level
        ("2024年各区域净利率的标准差是多少?", "区域净利率的标准差"),
        ("What was the standard deviation of regional net margins in 2024?",
         "standard deviation of regional net margins"),
        # variance and the extreme value across regions
        ("What was the variance of revenue across the regions in 2024?", "variance of revenue"),
        ("2024年各区域净利率的最大值是多少?", "区域净利率的最大值"),
    ],
)  # fmt: skip
def test_a_statistic_across_entities_is_declined_by_its_phrase(
    question: str, declined: str
) -> None:
    intent = parse_for("acme", question, default_profile())
    assert intent.metrics == [] and intent.declined == declined, intent
    assert intent.unknown_subject is None, intent  # 四个区域: no district named 四个区


@pytest.mark.parametrize(
    ("question", "metric", "route"),
    [
        # the region ranked by its margin: a rank, no statistic
        ("2024年哪个区域净利率最高?", "NET_MARGIN", "structured"),
        # standards a document sets: a narrative question, no statistic
        ("ACME的收入确认标准是什么?", None, ROUTE_NARRATIVE),
    ],
)  # fmt: skip
def test_words_near_a_statistic_keep_their_reading(
    question: str, metric: str | None, route: str
) -> None:
    intent = parse_for("acme", question, default_profile())
    assert intent.metric == metric and intent.route == route, intent


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # a current liability whose name holds the non-current total's
        ("What were Jinyu's non-current liabilities due within one year at the end of 2020?",
         "non-current liabilities due within one year"),
        ("金宇生物2020年末一年內到期的非流動負債是多少?", "一年內到期的非流動負債"),
        # an ageing band of a balance
        ("金宇生物2020年末账龄一年以内的应收账款是多少?", "账龄一年以内的应收账款"),
        ("What were Jinyu's accounts receivable aged over one year at the end of 2020?",
         "accounts receivable aged over one year"),
        # a sub-item of a line: the part, never the line (traditional, 中的)
        ("金宇生物2020年銷售費用中的廣告宣傳費是多少?", "銷售費用中的廣告宣傳費"),
        ("金宇生物2020年管理费用中的折旧费是多少?", "管理费用中的折旧费"),
        # 中 glued, no 的
        ("金宇生物2020年销售费用中职工薪酬是多少?", "销售费用中职工薪酬"),
        # English: within, and in with an amount noun
        ("What were the advertising expenses within Jinyu's selling expenses in 2020?",
         "advertising expenses within selling expenses"),
        ("What were the advertising expenses in Jinyu's selling expenses in 2020?",
         "advertising expenses in selling expenses"),
    ],
)  # fmt: skip
def test_a_part_of_a_line_is_another_line(question: str, declined: str, jy: DomainProfile) -> None:
    intent = parse_for("jy", question, jy)
    assert intent.metrics == [] and intent.declined == declined, intent


@pytest.mark.parametrize(
    ("question", "metric", "declined"),
    [
        # the line itself, at a year end
        ("What were Jinyu's non-current liabilities at the end of 2020?",
         "NON_CURRENT_LIABILITIES", None),
        ("金宇生物2020年末的非流动负债是多少?", "NON_CURRENT_LIABILITIES", None),
        # growth in the line: a growth, no sub-item
        ("What was the growth in Jinyu's revenue in 2020?", "REVENUE_GROWTH", None),
        # 中位数 after a line: a statistic, no sub-item 位数
        ("金宇生物2020年营业收入的中位数是多少?", None, "营业收入的中位数"),
        # a share of a part inside the line: named whole by the share's reading
        ("金宇生物2020年职工中研发人员的占比是多少?", None, "研发人员的占比"),
        # a year before 以后 is a period, no ageing band
        ("金宇生物2020年以后的营业收入是多少?", "REVENUE", None),
    ],
)  # fmt: skip
def test_the_same_words_elsewhere_keep_their_reading(
    question: str, metric: str | None, declined: str | None, jy: DomainProfile
) -> None:
    intent = parse_for("jy", question, jy)
    assert intent.metric == metric and intent.declined == declined, intent


def test_a_share_of_a_part_inside_a_line_is_named_whole_on_the_demo() -> None:
    # 销售额中会员占多少比例: the share's reading, never the sub-item 会员 alone
    intent = parse_for("acme", "2024年集团销售额中会员占多少比例?", default_profile())
    assert intent.declined == "销售额中会员占多少比例", intent


@pytest.mark.parametrize(
    ("which", "question", "part"),
    [
        # the top five customers' share: the part a report states it beside
        ("jy", "金宇生物2020年前五名客戶銷售額佔年度銷售總額的比例是多少?", "前五名客户销售额"),
        # a part no metric names, asked with 占比
        ("jy", "金宇生物2020年海外客户销售额占比是多少?", "海外客户销售额"),
    ],
)  # fmt: skip
def test_a_share_of_an_unheld_part_records_the_part(
    which: str, question: str, part: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [] and intent.stated is not None, intent
    assert intent.stated.stem == part and intent.stated.name == intent.declined, intent


@pytest.mark.parametrize(
    ("which", "question"),
    [
        # a held line's share of another: its formula's, or declined, never a passage's
        ("jy", "金宇生物2020年净利润占利润总额的比例是多少?"),
        # a period's share of the year: no part but the period and the line
        ("acme", "中国内地2024年上半年收入占全年收入的比重是多少?"),
        # a sub-item with no share: declined, nothing stated
        ("jy", "金宇生物2020年銷售費用中的廣告宣傳費是多少?"),
    ],
)  # fmt: skip
def test_a_share_of_a_held_part_records_none(which: str, question: str, jy: DomainProfile) -> None:
    assert parse_for(which, question, jy).stated is None


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        # the company's own top customers: a disclosure, no ranking of companies
        ("金宇生物2020年前五名客户销售额占年度销售总额的比例是多少?", None),
        ("金宇生物2020年前十名股东的持股比例是多少?", None),
        # a ranking of listed companies stays out of scope
        ("营业收入排名前五名的上市公司有哪些?", "ranking"),
        ("2020年营业收入前十名的公司是哪些?", "ranking"),
    ],
)  # fmt: skip
def test_the_companys_own_top_counterparties_are_no_ranking_of_companies(
    question: str, kind: str | None, jy: DomainProfile
) -> None:
    beyond = out_of_scope(question, jy)
    assert (beyond.kind if beyond else None) == kind


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # an initialism in capitals inside a Chinese question: the quantity's name
        ("香港2024年GMROI是多少?", "GMROI"),
        # NPS in capitals is no plural of NP (net profit): another initialism
        ("香港2024年的NPS是多少?", "NPS"),
    ],
)  # fmt: skip
def test_an_initialism_in_a_chinese_question_is_declined_by_it(
    question: str, declined: str
) -> None:
    intent = parse_for("acme", question, default_profile())
    assert intent.metrics == [] and intent.declined == declined, intent


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        # NP in capitals is net profit's initialism, in either language
        ("What was Hong Kong's NP in 2024?", "NET_PROFIT"),
        ("香港2024年的NP是多少?", "NET_PROFIT"),
        # a year or FY label is no initialism to decline: "which metric?"
        ("香港FY2024是多少?", None),
    ],
)  # fmt: skip
def test_a_held_initialism_or_a_period_label_is_no_unknown_name(
    question: str, metric: str | None
) -> None:
    intent = parse_for("acme", question, default_profile())
    assert intent.metric == metric and intent.declined is None, intent
