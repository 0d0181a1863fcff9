"""Lane 27-G, classes 2-4: a later clause pointing back at the earlier clause's figure (这笔收入,
这笔钱, that figure) is that metric, and what the clause writes around it modifies it; a share
asked of a part named inside its whole (收入里线上部分占了百分之几) is the part's share; a
declined name drops the measure word its number took (多少名区域经理: 区域经理); a growth asked
of a growth (growth in revenue growth) is its change in points, never the growth itself."""

from __future__ import annotations

import pytest

from ragspine.agent.measure_words import without_measure_word
from ragspine.profile import DomainProfile
from ragspine.profile.periods import Period
from tests.agent.parsing import parse_for


def FY(year: str) -> Period:
    return Period("FY", year)


@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        ("先告诉我香港2024年的收入,再算一下这笔收入里线上部分占了百分之几。",
         ["REVENUE", "ONLINE_SHARE"]),  # 这笔收入: the revenue; 里线上部分占: its online share
        ("先说香港2024年的收入,再说这笔钱里线上占多少", ["REVENUE", "ONLINE_SHARE"]),  # 这笔钱
        ("What was Hong Kong's revenue in 2024, and what was that figure's growth?",
         ["REVENUE", "REVENUE_YOY"]),  # that figure: the revenue, its growth
        ("香港2024年的收入里线上部分占了百分之几?", ["ONLINE_SHARE"]),  # one clause
        ("香港2024年收入中线上部分的占比是多少?", ["ONLINE_SHARE"]),  # 中…的占比
        ("集团2024年收入当中香港占多少?", ["REVENUE_SHARE"]),  # an entity as the part
    ],
)  # fmt: skip
def test_a_pointing_clause_and_a_part_inside_its_whole(
    question: str, metrics: list[str], jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == metrics and intent.declined is None, intent


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        ("香港2024年收入中会员占多少?", "收入中会员占"),  # 会员: no channel nor entity, no share
        ("先告诉我台湾2024年的毛利,再算一下这个数字占集团的比重", "这个数字占集团的比重"),  # no
        # gross profit share in the profile: declined, never the gross profit as the answer
    ],
)  # fmt: skip
def test_a_part_or_a_pointed_share_the_profile_lacks_is_declined(
    question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.declined == declined and "GROSS_PROFIT_SHARE" not in intent.metrics, intent


@pytest.mark.parametrize(
    ("name", "question", "expected"),
    [
        ("名区域经理", "ACME有多少名区域经理?", "区域经理"),  # 多少名: the count's measure word
        ("家旗舰店", "香港有几家旗舰店?", "旗舰店"),  # 几家
        ("個配送中心", "ACME有3個配送中心嗎?", "配送中心"),  # a digit, traditional
        ("项目", "ACME有多少项目?", "项目"),  # one word: 项 is not cut off
        ("名区域经理", "ACME的名区域经理是谁?", "名区域经理"),  # no number before it
    ],
)  # fmt: skip
def test_a_declined_name_drops_the_measure_word_its_number_took(
    name: str, question: str, expected: str
) -> None:
    assert without_measure_word(name, question) == expected


def test_the_parser_declines_by_the_noun_not_its_measure_word(jy: DomainProfile) -> None:
    assert parse_for("acme", "ACME有多少名区域经理?", jy).declined == "区域经理"


@pytest.mark.parametrize(
    "question",
    [
        "What was the growth in Hong Kong's revenue growth in 2024?",  # growth in … growth
        "香港2024年收入增长率的增长是多少?",  # 增长率的增长
        "香港2024年收入增速的增幅是多少?",  # 增速的增幅
    ],
)  # fmt: skip
def test_a_growth_of_a_growth_is_its_change_over_two_years(
    question: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == ["REVENUE_YOY"] and intent.change, intent
    assert intent.periods == [FY("2023"), FY("2024")]


@pytest.mark.parametrize(
    "question",
    [
        "What was Hong Kong's revenue growth in 2024?",  # one growth: the growth itself
        "What was the growth in Hong Kong's revenue in 2024?",  # growth in the level
        "香港2024年收入增长率是多少?",  # 增长率 alone
    ],
)  # fmt: skip
def test_a_single_growth_stays_the_growth(question: str, jy: DomainProfile) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.metrics == ["REVENUE_YOY"] and not intent.change, intent
    assert intent.periods == [FY("2024")]
