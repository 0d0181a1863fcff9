"""What a figure's words make of it beyond its value: the time base of a rate (a year is not a
month), a bound's side (至少 is not 最多), and what a count counts (stores are not people)."""

from __future__ import annotations

import pytest

from ragspine.evals.audit.findings import audit_answer
from ragspine.evals.audit.sources import with_context
from tests.evals.audit.test_audit_fresh import NAMES

DOC = "Policy.md"
PASSAGES = {
    "section=1,para=1": "The committee meets at least four times a year to review progress.",
    "section=1,para=2": "关店原则上至少提前60天通知业主和员工。",
    "section=1,para=3": "年内中国内地净关闭45家门店,年末门店数为540家。",
    "section=1,para=4": "委员会每年至少召开四次会议。",
}


def _audit(answer: str) -> list[tuple[str, str]]:
    found = audit_answer(
        answer,
        chunk_text=lambda doc, at: (
            with_context(PASSAGES[at], title="Policy") if doc == DOC else None
        ),
        names=NAMES,
    )
    return [(f.number, f.reason) for f in found]


def _cite(at: str) -> str:
    return f"(来源:{DOC} {at})"


P1, P2, P3, P4 = (_cite(f"section=1,para={i}") for i in range(1, 5))


# (what, the answer, its figure's finding, or None for a control)
CASES = [
    # the source's rate, restated
    ("a year's rate kept", f"The committee meets at least four times a year.{P1}", None),
    # a year's rate given a month's base
    ("a year's rate as a month's", f"The committee meets at least four times a month.{P1}",
     ("four times", "wrong_unit")),
    # 每年 in the source, 每月 in the answer
    ("每年 as 每月", f"委员会每月至少召开四次会议。{P4}", ("四", "wrong_unit")),
    # the source's minimum notice kept
    ("a minimum kept", f"关店至少提前60天通知业主和员工。{P2}", None),
    # a minimum stated as a maximum, a verb between bound and number
    ("a minimum as a maximum", f"关店最多提前60天通知业主和员工。{P2}",
     ("60", "wrong_bound")),
    # stores restated as stores
    ("stores kept", f"年内中国内地净关闭45家门店。{P3}", None),
    # 45 stores as 45 employees
    ("stores as employees", f"年内中国内地裁减45名员工。{P3}", ("45", "wrong_unit")),
]  # fmt: skip


@pytest.mark.parametrize(("what", "answer", "finding"), CASES, ids=[c[0] for c in CASES])
def test_a_rate_a_bound_and_a_count_keep_their_words(
    what: str, answer: str, finding: tuple[str, str] | None
) -> None:
    assert _audit(answer) == ([] if finding is None else [finding])
