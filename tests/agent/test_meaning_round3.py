"""Issue 27, round 3: an unknown subject qualifying the metric is declined by its name, never
answered with the group's figure; held metrics are found by their Hong Kong-style, English
accounting and abbreviated names. Asked through ``Engine.ask`` on the demo and 金宇 stores."""

from __future__ import annotations

import pytest

from ragspine.engine import Engine
from tests.agent.asking import ask, found


@pytest.mark.parametrize(
    ("which", "question", "name"),
    [
        ("demo", "ACME白金会员2024年贡献了多少收入?", "白金会员"),  # a membership tier, 贡献 frame
        ("demo", "ACME黑卡会员2024年的毛利是多少?", "黑卡会员"),  # X的METRIC
        ("demo", "618當天ACME的銷售額是多少?", "618當天"),  # a promotion day, traditional
        ("demo", "ACME直播事业部2024年的净利润是多少?", "直播事业部"),  # a division
        ("demo", "How much revenue did the ACME kiosk generate in 2024?", "ACME kiosk"),  # a noun
        ("demo", "What was the kiosk revenue of ACME in 2024?", "kiosk revenue"),  # X revenue
        ("jy", "金宇生物宠物事业部2020年的营业收入是多少?", "宠物事业部"),  # the same on 金宇
    ],
)  # fmt: skip
def test_an_unknown_subject_qualifying_the_metric_is_declined_by_name(
    which: str, question: str, name: str, demo: Engine, jinyu: Engine
) -> None:
    result = ask(demo if which == "demo" else jinyu, question)
    assert found(result) == [], result.answer
    assert name in result.answer, result.answer


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        ("demo", "截至2024年底香港的收入是多少?", "REVENUE"),  # 截至: a time frame word
        ("demo", "How many stores does ACME operate in Taiwan as of 2024?", "STORE_COUNT"),  # verb
        ("demo", "Which region had the highest operating margin in 2024?", "OPERATING_MARGIN"),
        ("jy", "请计算出金宇生物2020年的净利润率,保留两位小数。", "NET_MARGIN"),  # a request
        ("jy", "金宇生物在2020年年报中提到的营业收入是多少?", "REVENUE"),  # the report named
    ],
)  # fmt: skip
def test_the_questions_own_frame_is_no_subject(
    which: str, question: str, metric: str, demo: Engine, jinyu: Engine
) -> None:
    result = ask(demo if which == "demo" else jinyu, question)
    assert metric in found(result), result.answer


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        # English accounting synonyms
        ("demo", "What was Hong Kong's operating income in 2024?", "OPERATING_PROFIT"),
        ("jy", "What was Jinyu's income before tax in 2020?", "TOTAL_PROFIT"),
        ("jy", "What were Jinyu's trade receivables at the end of 2020?", "ACCOUNTS_RECEIVABLE"),
        ("jy", "How many salespeople did Jinyu have in 2020?", "SALES_STAFF"),
        # Hong Kong-style traditional terms: 溢利 (profit), 店鋪 / 分店 (stores), 開支 (expenses)
        ("demo", "台灣2024年的經營溢利是多少?", "OPERATING_PROFIT"),
        ("demo", "香港2024年的分店數目是多少?", "STORE_COUNT"),
        ("jy", "金宇生物2020年的除稅前溢利是多少?", "TOTAL_PROFIT"),
        ("jy", "金宇生物2020年行政開支是多少?", "ADMIN_EXPENSES"),
        # a total written as 总额, a shortened name
        ("demo", "台湾2024年营业总额是多少?", "REVENUE"),
        ("jy", "金宇生物2020年末應收款項是多少?", "ACCOUNTS_RECEIVABLE"),
        # abbreviations
        ("demo", "Taiwan GP FY2024?", "GROSS_PROFIT"),
        ("demo", "What was Taiwan's NP in 2024?", "NET_PROFIT"),
    ],
)  # fmt: skip
def test_a_held_metric_is_found_by_its_standard_other_names(
    which: str, question: str, metric: str, demo: Engine, jinyu: Engine
) -> None:
    result = ask(demo if which == "demo" else jinyu, question)
    assert found(result) == [metric], result.answer


def test_a_quantity_the_profile_lacks_is_declined_by_its_name(demo: Engine) -> None:
    result = ask(demo, "How many sales employees did ACME have in Taiwan in 2024?")
    assert found(result) == [], result.answer
    assert "sales employees" in result.answer, result.answer


@pytest.mark.parametrize(
    ("which", "question", "name"),
    [
        ("demo", "香港2024年的门店装修费是多少?", "门店装修费"),  # no metric word at all
        ("demo", "中国内地2024年线上退货率是多少?", "线上退货率"),  # a channel glued to it
        ("demo", "How many online reviews did Hong Kong get in 2024?", "online reviews"),
        ("jy", "深证成指2020年的涨幅是多少?", "深证成指"),  # an index, not the company
    ],
)  # fmt: skip
def test_a_figure_of_no_metric_is_declined_by_its_name_not_asked_which(
    which: str, question: str, name: str, demo: Engine, jinyu: Engine
) -> None:
    result = ask(demo if which == "demo" else jinyu, question)
    assert found(result) == [], result.answer
    assert name in result.answer, result.answer
    assert "哪个指标" not in result.answer, result.answer


def test_the_whole_of_a_share_is_named_in_the_decline(demo: Engine) -> None:
    """占集团门店总数: 集团 is the whole the share is of, part of the quantity's name, not whose."""
    result = ask(demo, "2024年香港门店数占集团门店总数的比例是多少?")
    assert found(result) == [], result.answer
    assert "门店数占集团门店总数的比例" in result.answer, result.answer
