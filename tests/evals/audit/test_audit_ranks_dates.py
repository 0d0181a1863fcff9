"""An ordinal is a claim about its item (the cited passage must give the item that rank, or the
named entities' sourced figures must put it there), and a date a clause ties to an event is a
claim about the event (a cited passage that dates the event otherwise contradicts it)."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.evals.audit.findings import audit_answer
from ragspine.evals.audit.sources import with_context
from tests.evals.audit.test_audit_fresh import NAMES, _fact

DOC = "Plan.md"
PASSAGES = {
    "section=1,para=1": "资本开支按以下顺序分配:第一是门店改造,第二是社区店新开,第三是旗舰店。",
    "section=1,para=2": "Energy efficiency is our first lever. Solar power is our second lever.",
    "section=1,para=3": "所得款项主要用于偿还将于2026年下半年到期的银行贷款。",
    "section=1,para=4": "Our goal is to phase out paper receipts in all shops by the end of 2027.",
    "section=1,para=5": "新店须在开业后第三年实现经营盈利。",
    "section=1,para=6": "北区收入为300百万美元,南区收入为200百万美元。",
}
FACTS: list[dict[str, Any]] = [
    _fact("ACME_HK", "2024", 455.0),
    _fact("ACME_SEA", "2024", 395.0),
]


def _audit(answer: str, facts: list[dict[str, Any]] | None = None) -> list[tuple[str, str]]:
    found = audit_answer(
        answer,
        chunk_text=lambda doc, at: with_context(PASSAGES[at], title="Plan") if doc == DOC else None,
        names=NAMES,
        tool_results=facts or [],
    )
    return [(f.number, f.reason) for f in found]


def _cite(i: int) -> str:
    return f"(来源:{DOC} section=1,para={i})"


# (what, the answer, its findings: [] for a control)
CASES = [
    # the passage's order restated with 排第N位 (位 is no count of people here)
    ("ranks kept", f"按优先级,社区店新开排第二位,旗舰店排第三位。{_cite(1)}", []),
    # the third item given the second rank
    ("ranks swapped", f"旗舰店排在第二优先级,仅次于门店改造。{_cite(1)}",
     [("第二", "wrong_rank")]),
    # the passage's own ordinal, in English
    ("ordinal kept en", f"Solar power is ACME's second lever.{_cite(2)}", []),
    # the second lever called the first
    ("ordinal moved en", f"Solar power is our first lever for cutting emissions.{_cite(2)}",
     [("first", "wrong_rank")]),
    # an answer's own enumeration marker is no rank of an item
    ("enumeration marker", f"第一,门店改造优先。{_cite(1)}", []),
    # a section number in prose is no rank
    ("section number", f"据第1.4节,第二是社区店新开。{_cite(1)}", []),
    # a year position (第三年) is an ordinal of its item too
    ("year position moved", f"新店须在开业后第二年实现经营盈利。{_cite(5)}",
     [("第二", "wrong_rank")]),
    # a size rank the named entities' figures bear out (455 > 395)
    ("size rank computed", "2024年香港和东南亚中,东南亚收入第二大。", []),
    # a size rank over a whole the sentence does not name: nothing bears it out
    ("size rank unsupported", f"东南亚是集团收入第二大的区域。{_cite(6)}",
     [("第二大", "wrong_rank")]),
    # a size rank the named figures contradict
    ("size rank contradicted", "2024年香港和东南亚中,香港收入最小。", [("最小", "wrong_rank")]),
    # the due date restated
    ("due date kept", f"贷款将于2026年下半年到期。{_cite(3)}", []),
    # the due date restated with its year only (coarser, not another date)
    ("due year kept", f"银行贷款于2026年到期。{_cite(3)}", []),
    # the due half-year moved
    ("due half moved", f"所得款项用于偿还2026年上半年到期的银行贷款。{_cite(3)}",
     [("2026年上半年", "wrong_date")]),
    # the plan year kept, in English
    ("plan year kept en", f"ACME aims to phase out paper receipts by the end of 2027.{_cite(4)}",
     []),
    # the plan year moved, in English
    ("plan year moved en",
     f"Our goal is to phase out paper receipts in all shops by the end of 2026.{_cite(4)}",
     [("2026", "wrong_date")]),
    # a period that labels a figure stays a label (its figure is checked as before)
    ("period labels a figure", f"北区收入为300百万美元。{_cite(6)}", []),
]  # fmt: skip


@pytest.mark.parametrize(("what", "answer", "findings"), CASES, ids=[c[0] for c in CASES])
def test_ranks_and_event_dates_are_claims_about_their_item(
    what: str, answer: str, findings: list[tuple[str, str]]
) -> None:
    assert _audit(answer, FACTS) == findings
