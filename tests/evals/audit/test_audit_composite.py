"""The audit's reading of composite answers and of notations that carry their own scale: a fact
line echoed under a change label, a found total given to one channel, two quoted sentences of
two passages joined by a comma, an inline ①②③ list whose item opens with a classifier
character, English number words with a scale word as the FROM value of a pair.

Instances are written here as strings (answers, found facts, passages as the harness hands them
over, with their heading path and document); each test lists the findings it expects."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.evals.audit.findings import audit_answer
from ragspine.evals.audit.sources import with_context
from ragspine.evals.run.runner import slot_names
from ragspine.profile import default_profile

NAMES = slot_names(default_profile())
MDA24, REV23, PLAN = "ACME_FY2024_MDA.md", "ACME_FY2023_Review.md", "ACME_2025_Store_Strategy.md"


def _doc(doc: str, heading: str, text: str) -> str:
    titles = {
        MDA24: ("ACME集团2024财年管理层讨论与分析", "FY2024"),
        REV23: ("ACME集团2023财年业务回顾", "FY2023"),
        PLAN: ("2025年门店发展策略", "2025"),
    }
    title, period = titles[doc]
    return with_context(text, title=f"{title} › {heading}", entity="ACME_GROUP", period=period)


PASSAGES = {
    (MDA24, "section=1.5,para=1"): _doc(
        MDA24,
        "五、东南亚与台湾",
        "东南亚收入由340百万美元增至395百万美元,同店销售增长为6.3%。增长来自既有门店的稳健表现以及"
        "年内新开门店的爬坡,年末东南亚门店数为176家。",
    ),
    (MDA24, "section=1.5,para=2"): _doc(
        MDA24, "五、东南亚与台湾", "2024年台湾收入为228百万美元,较上年小幅增长,年末门店数为63家。"
    ),
    (MDA24, "section=1.3,para=9"): _doc(MDA24, "三、线上业务", "台湾收入为41百万美元。"),
    (REV23, "section=1.5,para=1"): _doc(
        REV23, "五、台湾", "台湾收入为219百万美元,同店销售增长为2.1%。"
    ),
    (PLAN, "section=1.2,para=4"): _doc(
        PLAN, "二、分区域开关店计划", "台湾:2025年维持现有门店网络,不安排新开店的资本开支。"
    ),
    (PLAN, "section=1.7,para=1"): _doc(
        PLAN, "七、执行与检视", "门店网络委员会每季度召开两次检视会议。"
    ),
    (PLAN, "section=1.7,para=2"): _doc(
        PLAN, "七、执行与检视", "Two reviews a year are held across the group."
    ),
}


def _cite(*locators: str, doc: str = MDA24) -> str:
    return "(来源:" + "、".join(f"{doc} {at}" for at in locators) + ")"


def _fact(entity: str, metric: str, value: float, unit: str = "USD_M") -> dict[str, Any]:
    return {
        "status": "found", "value": value, "unit": unit, "metric_code": metric,
        "entity": entity, "period_type": "FY", "period": "2024", "channel": "TOTAL",
        "source": {"doc": "ACME_FY2024_Review.pptx",
                   "locator": f"slide=4,table=1,row={metric},col=FY2024"},
    }  # fmt: skip


TW_STORES = _fact("ACME_TW", "STORE_COUNT", 63.0, "COUNT")
TW_REVENUE = _fact("ACME_TW", "REVENUE", 228.0)


def _audit(answer: str, facts: list[dict[str, Any]] | None = None) -> list[tuple[str, str]]:
    found = audit_answer(
        answer,
        tool_results=facts or [],
        chunk_text=lambda doc, at: PASSAGES.get((doc, at)),
        names=NAMES,
    )
    return [(f.number, f.reason) for f in found]


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        # the store count's fact line echoed as the stores opened or closed in the year
        ("台湾 FY2024 关闭门店数:63 家", [("63", "wrong_metric")]),
        ("台湾 FY2024 新增的门店数:63 家", [("63", "wrong_metric")]),
        ("Taiwan FY2024 net new store count: 63 stores", [("63", "wrong_metric")]),
        # control: the fact line under its own label
        ("台湾 FY2024 门店数:63 家", []),
        ("台湾FY2024年末门店数为63家。", []),
    ],
)
def test_a_change_word_before_the_metric_makes_the_fact_line_another_quantity(
    answer: str, want: list[tuple[str, str]]
) -> None:
    assert _audit(answer, [TW_STORES]) == want


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        # the passage names no channel anywhere: its 228 is the total, the found fact's
        (f"台湾2024年线上收入为228百万美元。{_cite('section=1.5,para=2')}",
         [("228百万", "wrong_channel")]),
        (f"Taiwan's offline revenue was 228 million US dollars in 2024. "
         f"{_cite('section=1.5,para=2')}", [("228 million", "wrong_channel")]),
        # a section titled 线上业务 gives its figures its channel
        (f"台湾2024年线下收入为41百万美元。{_cite('section=1.3,para=9')}",
         [("41百万", "wrong_channel")]),
        # controls: the total as the total, the online section's figure as online
        (f"台湾2024年收入为228百万美元。{_cite('section=1.5,para=2')}", []),
        (f"台湾2024年整体收入为228百万美元。{_cite('section=1.5,para=2')}", []),
        (f"台湾2024年线上收入为41百万美元。{_cite('section=1.3,para=9')}", []),
    ],
)  # fmt: skip
def test_a_total_in_a_passage_is_not_a_channels_figure(
    answer: str, want: list[tuple[str, str]]
) -> None:
    assert _audit(answer, [TW_REVENUE]) == want


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        # two quoted sentences joined by a comma: the FY2023 one keeps no period from the
        # FY2024 one after it, the strategy's committee keeps no entity from 台湾: before it
        ("台湾收入为219百万美元,同店销售增长为2.1%,2024年台湾收入为228百万美元,较上年小幅增长,年末"
         f"门店数为63家。(来源:{REV23} section=1.5,para=1、{MDA24} section=1.5,para=2)", []),
        ("台湾:2025年维持现有门店网络,不安排新开店的资本开支,门店网络委员会每季度召开两次检视会议。"
         f"{_cite('section=1.2,para=4', 'section=1.7,para=1', doc=PLAN)}", []),
        ("台湾:2025年维持现有门店网络,不安排新开店的资本开支,Two reviews a year are held across "
         f"the group.{_cite('section=1.2,para=4', 'section=1.7,para=2', doc=PLAN)}", []),
        # still attacks: a label the passage does not write; a clause no passage holds (the
        # sentence is read whole, as before: its 2024 is the period of every figure in it)
        (f"台湾:门店网络委员会每季度召开两次检视会议。{_cite('section=1.7,para=1', doc=PLAN)}",
         [("两", "wrong_entity")]),
        ("台湾收入为219百万美元,同店销售增长为2.1%,2024年台湾收入为219百万美元。"
         f"(来源:{REV23} section=1.5,para=1、{MDA24} section=1.5,para=2)",
         [("219百万", "wrong_period"), ("2.1%", "wrong_period"), ("219百万", "wrong_period")]),
    ],
)  # fmt: skip
def test_quoted_sentences_joined_by_a_comma_each_keep_their_own_context(
    answer: str, want: list[tuple[str, str]]
) -> None:
    assert _audit(answer) == want


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        # ② and ③ open items that start with 位 and 人: list numbers in a run
        (f"台湾收入平稳的原因:①客流稳定②位于商场的门店表现稳健③人民币汇率影响有限。"
         f"{_cite('section=1.5,para=2')}", []),
        # a circled digit before a count, alone or out of the run, is an amount
        (f"台湾年内关闭门店⑨家。{_cite('section=1.5,para=2')}", [("9", "unsupported")]),
        (f"原因:①客流稳定②门店调整,年内关闭门店⑨家。{_cite('section=1.5,para=2')}",
         [("9", "unsupported")]),
    ],
)  # fmt: skip
def test_an_inline_list_number_is_a_label_whatever_word_follows(
    answer: str, want: list[tuple[str, str]]
) -> None:
    assert _audit(answer) == want


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        # a FROM value that carries its own scale word is not scaled again by its pair's
        (f"东南亚收入由three hundred and forty million US dollars增至395百万美元。"
         f"{_cite('section=1.5,para=1')}", []),
        (f"Southeast Asia revenue rose from three hundred and forty million to 395 million US "
         f"dollars. {_cite('section=1.5,para=1')}", []),
        (f"东南亚收入由3亿4000万美元增至395百万美元。{_cite('section=1.5,para=1')}", []),
        (f"东南亚收入由三亿四千万美元增至395百万美元。{_cite('section=1.5,para=1')}", []),
        # nor a figure of a 分别 list
        (f"东南亚收入分别为three hundred and forty million和395百万美元。"
         f"{_cite('section=1.5,para=1')}", []),
        # still read: another value in the same words
        (f"东南亚收入由three hundred and fifty million US dollars增至395百万美元。"
         f"{_cite('section=1.5,para=1')}", [("three hundred and fifty million", "unsupported")]),
    ],
)  # fmt: skip
def test_english_words_with_a_scale_word_keep_their_scale_in_a_pair(
    answer: str, want: list[tuple[str, str]]
) -> None:
    assert _audit(answer) == want
