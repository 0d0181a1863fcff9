"""The two expectations of issue 27, read by the harness's own reading (score/reading.py):
`declined` (the answer declines, and names the quantity) and `metric` (the one metric code the
answer is about). Each row says what it shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ragspine.agent.record import AnswerRecord
from ragspine.evals.compare.diff import diff_runs
from ragspine.evals.compare.diff_render import render_diff
from ragspine.evals.report.wording import check_text
from ragspine.evals.score.reading import metrics_about, numbers_in, read_decline
from ragspine.evals.score.scorers import Observed
from tests.evals.compare.test_diff import make_run, result
from tests.evals.score.test_scorers import ANSWER, FACT, _case, _checks, _seen

DECLINE = "「同店销售额」不在事实表中:中国内地 FY2024 无法提供。为避免误导,不提供任何数字。"
NOT_FOUND = {
    "status": "not_found",
    "metric_code": "SSSG",
    "entity": "ACME_TW",
    "period_type": "FY",
    "period": "2024",
    "channel": "TOTAL",
}
SSSG = FACT | {"metric_code": "SSSG", "value": -4.1, "unit": "PCT"}
SSSG_ANSWER = (
    "中国内地 FY2024 同店销售增长:-4.1%"
    "(来源:ACME_FY2024_Review.pptx · slide=2,table=1,row=SSSG,col=FY2024)"
)
YOY = FACT | {"metric_code": "REVENUE_YOY", "operands": [FACT, FACT | {"period": "2023"}]}
NO_FACT: dict[str, Any] = {"tool_results": [], "sources": []}


@pytest.mark.parametrize(
    ("want", "seen", "passed", "why"),
    [
        # a decline naming the quantity: no number, no fact, no source
        ("同店销售额", {"answer": DECLINE, **NO_FACT}, True, ""),
        # true: any decline will do; the period label FY2024 is not a number
        (True, {"answer": DECLINE, **NO_FACT}, True, ""),
        # any of a list names the quantity (the English or the Chinese name)
        (["same-store sales", "同店销售额"], {"answer": DECLINE, **NO_FACT}, True, ""),
        # the words are compared folded: traditional characters, case and spaces do not matter
        ("同店銷售額", {"answer": DECLINE, **NO_FACT}, True, ""),
        ("SAME-STORE  sales", {"answer": "same-store sales is not in the fact table", **NO_FACT},
         True, ""),
        # a not-found answer is a decline too: the fact was looked for, nothing is given
        (True, {"answer": "查不到:台湾 FY2024 同店销售增长 未在事实表中找到。",
                "tool_results": [NOT_FOUND], "sources": []}, True, ""),
        # the base metric's level, found and cited: not a decline, on three counts
        ("同店销售额", {}, False, "answered REVENUE; gives 1,320 百万; cites"),
        # no number and no fact, but it does not name the quantity asked
        ("坪效", {"answer": DECLINE, **NO_FACT}, False, "does not name 坪效"),
        # a number in prose, with no fact behind it: a guess is not a decline
        (True, {"answer": "同店销售额约为 900 百万美元。", **NO_FACT}, False, "gives 900 百万"),
        # passages about something else, cited: presented as the answer, so not a decline
        (True, {"answer": "没有找到相关内容(来源:ACME_Strategy.md section=2,para=1)",
                "tool_results": [], "sources": [{"doc": "ACME_Strategy.md",
                                                   "locator": "section=2,para=1"}]},
         False, "cites ACME_Strategy.md"),
        # "which metric?" is a question back, even when its examples hold the words
        ("同店销售", {"answer": "请问您想查询哪个指标?例如:同店销售增长、收入等。",
                      "clarification": "ask_first", **NO_FACT}, False, "asks which metric"),
        # false: the case wants an answer; a decline fails it, an answer passes
        (False, {"answer": DECLINE, **NO_FACT}, False, "the answer declines"),
        (False, {}, True, ""),
    ],
)  # fmt: skip
def test_declined(want: Any, seen: dict[str, Any], passed: bool, why: str) -> None:
    check = _checks(_case(declined=want), _seen(**seen))["declined"]
    assert check.passed is passed
    assert why in check.why and (passed or check.why)


@pytest.mark.parametrize(
    ("want", "seen", "passed", "why"),
    [
        # the answer's found fact is the metric asked
        ("REVENUE", {}, True, ""),
        ("SSSG", {"answer": SSSG_ANSWER, "tool_results": [SSSG]}, True, ""),
        # a derived metric is its own code, not its operands' (REVENUE here)
        ("REVENUE_YOY", {"tool_results": [YOY]}, True, ""),
        # a not-found answer is about what it looked for
        ("SSSG", {"tool_results": [NOT_FOUND]}, True, ""),
        # the level of a word inside the question: same-store sales answered with revenue
        ("SSSG", {}, False, "answered REVENUE, asked SSSG"),
        # a growth question answered with the level (two periods of it, counted once)
        ("REVENUE_YOY", {"tool_results": [FACT, FACT | {"period": "2023"}]}, False,
         "answered REVENUE, asked REVENUE_YOY"),
        # the right metric and another one beside it: the answer is about one metric
        ("REVENUE_YOY", {"tool_results": [YOY, FACT]}, False,
         "answered REVENUE_YOY, REVENUE, asked REVENUE_YOY"),
        # looked for another metric and did not find it
        ("REVENUE", {"tool_results": [NOT_FOUND]}, False, "looked for SSSG, asked REVENUE"),
        # no tool result at all (a decline, a question back, a narrative answer)
        ("SSSG", NO_FACT, False, "answered no metric, asked SSSG"),
        # the record says it gives the change asked (two levels and their difference)
        ("change(REVENUE)", {"tool_results": [FACT, FACT | {"period": "2023"}],
                             "changes": ["REVENUE"]}, True, ""),
        # a change asked, answered with the level: another quantity
        ("change(REVENUE)", {}, False, "answered REVENUE, asked change(REVENUE)"),
        # a level asked, answered with a change: another quantity too
        ("REVENUE", {"tool_results": [FACT, FACT | {"period": "2023"}], "changes": ["REVENUE"]},
         False, "answered change(REVENUE), asked REVENUE"),
        # the fastest-growing market's revenue: the growths only picked the entity described
        ("REVENUE", {"tool_results": [YOY, FACT], "criteria": ["REVENUE_YOY"]}, True, ""),
        # the same figures with no criterion recorded: two metrics, the answer is about both
        ("REVENUE", {"tool_results": [YOY, FACT]}, False,
         "answered REVENUE_YOY, REVENUE, asked REVENUE"),
        # a criterion alone, the asked figure missing: still about the criterion
        ("REVENUE", {"tool_results": [YOY], "criteria": ["REVENUE_YOY"]}, False,
         "answered REVENUE_YOY, asked REVENUE"),
    ],
)  # fmt: skip
def test_metric(want: str, seen: dict[str, Any], passed: bool, why: str) -> None:
    check = _checks(_case(metric=want), _seen(**seen))["metric"]
    assert (check.passed, check.why) == (passed, why)


def test_a_wrong_metric_reads_with_both_codes_in_the_report_and_the_diff() -> None:
    # report.md, diff.md and JUnit all word a failed check through check_text
    check = _checks(_case(metric="SSSG"), _seen(answer=ANSWER))["metric"]
    assert check_text(check) == "answered REVENUE, asked SSSG"
    declined = _checks(_case(declined="同店销售额"), _seen())["declined"]
    assert check_text(declined).startswith("the answer does not decline: answered REVENUE")


def test_unstated_they_are_not_checked() -> None:
    assert not {"declined", "metric"} & set(_checks(_case(), _seen()))


@pytest.mark.parametrize(
    ("answer", "numbers"),
    [
        # period labels, quarters and citations' locators are not numbers
        ("查不到:香港 FY2024、2024年、2024Q3 收入(来源:A.pptx · slide=2,row=3)", []),
        # every notation the audit reads is a number: CJK numerals, percent, words
        ("约一成,即 12.5% 或 three hundred", ["一成", "12.5%", "three hundred"]),
        # a quantity's own name is quoted, not a figure: 前五名客户 names no amount
        ("「前五名客户销售额」不在事实表中", []),
    ],
)
def test_numbers_in_reads_what_the_audit_reads(answer: str, numbers: list[str]) -> None:
    assert numbers_in(answer, quoting=["前五名客户销售额"]) == numbers


def test_the_reading_is_the_harness_own() -> None:
    # from tool results and text only: no profile, no parser
    assert metrics_about([YOY, YOY, FACT]) == ["REVENUE_YOY", "REVENUE"]
    reading = read_decline(DECLINE, tool_results=[], sources=[], quantity=["同店销售额"])
    assert (reading.declined, reading.named) == (True, "同店销售额")


def test_a_wrong_metric_regression_reads_with_both_codes_in_diff_md(tmp_path: Path) -> None:
    # the baseline answered SSSG; the run answers REVENUE: diff.md names both metrics
    right = _checks(_case(metric="SSSG"), _seen(answer=SSSG_ANSWER, tool_results=[SSSG]))
    wrong = _checks(_case(metric="SSSG"), _seen())
    base = result("c1")
    before = make_run(tmp_path / "a", [base.model_copy(update={"checks": [right["metric"]]})])
    failed = base.model_copy(update={"passed": False, "checks": [wrong["metric"]]})
    after = make_run(tmp_path / "b", [failed])
    assert "answered REVENUE, asked SSSG" in render_diff(diff_runs(before, after))


BUDGET = (
    "「研發費用預算」不在事实表中:没有这个指标的数据,也不会用其他指标的数字代替。"
    "为避免误导,不提供任何数字。可查询的指标如:研发费用、销售费用等。"
)
WHICH = "请问您想查询哪个指标?例如:研发费用、销售费用等。"


@pytest.mark.parametrize(
    ("want", "seen", "passed", "why"),
    [
        # the record states a decline (a quantity not held): its ask_first mode is no question
        # back, though the answer offers what may be asked instead
        (True, {"answer": BUDGET, "clarification": "ask_first", "declined_kind": "quantity",
                **NO_FACT}, True, ""),
        # the same answer with no decline stated: ask_first is then a question back
        (True, {"answer": BUDGET, "clarification": "ask_first", **NO_FACT}, False,
         "asks which metric instead"),
        # "which metric?" asks back whatever the record states: the text asks a question
        (True, {"answer": WHICH, "clarification": "ask_first", "declined_kind": "quantity",
                **NO_FACT}, False, "asks which metric instead"),
        # a question back read from the text alone, in English too, whatever the mode says
        (True, {"answer": "Which metric would you like? For example: revenue.", **NO_FACT},
         False, "asks which metric instead"),
        # a question mark inside the quantity's quoted name asks nothing
        (True, {"answer": "「哪个地区的收入最高?」无法排名,不提供任何数字。",
                "clarification": "out_of_scope_entity", "declined_kind": "ranking", **NO_FACT},
         True, ""),
        # a stated decline is still read from the text: a figure in it is no decline
        (True, {"answer": BUDGET + "约 1.3 亿元。", "clarification": "ask_first",
                "declined_kind": "quantity", **NO_FACT}, False, "gives 1.3 亿"),
    ],
)  # fmt: skip
def test_a_stated_decline_is_not_a_question_back(
    want: Any, seen: dict[str, Any], passed: bool, why: str
) -> None:
    check = _checks(_case(declined=want), _seen(**seen))["declined"]
    assert check.passed is passed, check.why
    assert why in check.why


def test_the_observed_decline_is_the_records_own() -> None:
    record = AnswerRecord.model_validate(
        {
            "request_id": "r1",
            "question": "金宇生物2025年的研發費用預算是多少?",
            "answer": BUDGET,
            "route": "structured",
            "clarification": {
                "mode": "ask_first",
                "declined": "研發費用預算",
                "declined_kind": "quantity",
            },
        }
    )
    seen = Observed.of(record)
    assert (seen.declined, seen.declined_kind) == ("研發費用預算", "quantity")
    assert _checks(_case(declined=True), seen)["declined"].passed


@pytest.mark.parametrize(
    ("quantity", "answer", "passed"),
    [
        # a decline that names the quantity and offers what can be asked is still a decline
        ("同店销售额",
         "「同店销售额」不在事实表中,不提供任何数字。可查询的指标如:同店销售增长、收入等。", True),
        # asking which metric, with the quantity only inside a longer offered name: no decline
        ("同店销售", "请问您想查询哪个指标?例如:同店销售增长、收入等。", False),
    ],
)  # fmt: skip
def test_a_decline_names_its_quantity_as_a_whole_term(
    quantity: str, answer: str, passed: bool
) -> None:
    seen = _seen(answer=answer, clarification="ask_first", **NO_FACT)
    check = _checks(_case(declined=quantity), seen)["declined"]
    assert check.passed is passed, check.why
