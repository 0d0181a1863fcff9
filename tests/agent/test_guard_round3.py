"""The guard keeps a careful model's computed figures and structural readings (round 3).

One arithmetic step a sentence names over figures it states: a change verb's difference between
a from/to pair (由14个整合为9个,净减少5个), a relative change from a points change and its base
(33.1% → 32.4%: 相对降幅约2.1%), a duration from two clock times (上午10点至晚上10点: 12小时), a
per-X ratio of two counts (540家门店和9个配送中心: 每个约60家). Wrong arithmetic stays removed.
A date's day is no amount; bullets under a bold heading take its entity; a condition's
threshold restated as a condition is the source's bound.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.agent import answer_question
from ragspine.agent.grounding import REMOVED_MARKER
from ragspine.agent.narrative import NarrativeHit
from ragspine.storage.fact_store import FactStore
from tests.agent.passages import citation, load_passages
from tests.fakes.providers import ScriptedProvider, text_reply
from tests.fakes.retrievers import FakeRetriever

REF = date(2025, 6, 30)
MDA, PLAN = "ACME_FY2024_MDA.md", "ACME_2025_Store_Strategy.md"
SUPPLY, FAQ = "ACME_Supply_Chain_Review_2024.md", "ACME_Store_Operations_FAQ.txt"
BOARD = "ACME_Board_Minutes_2024Q4.md"

# Each passage by its place in the demo corpus: (document, locator).
PASSAGES = {
    "hk": (MDA, "section=1.4,para=1"),
    "sea": (MDA, "section=1.5,para=1"),
    "margin": (MDA, "section=1.2,para=4"),
    "dc": (SUPPLY, "section=1.2,para=1"),
    "hours": (FAQ, "para=2"),
    "review": (PLAN, "section=1.2,para=3"),
    "board": (BOARD, "section=1.1,para=1"),
}

HK_WHY = "为什么香港FY2024收入增长?"
MARGIN_WHY = "为什么中国内地FY2024毛利率下降?"
SSSG = "香港和东南亚2024年同店销售增长分别是多少?原因是什么?"
STORES = "中国内地和集团2024年门店数分别是多少?为什么减少?"
DC = "2024年中国内地配送中心是如何整合的?"
HOURS = "门店的标准营业时间是怎样规定的?"
REVIEW = "东南亚新店开业后如何跟踪爬坡情况?"
BOARD_Q = "董事会第四季度会议是什么时候召开的,有哪些董事出席?"


@pytest.fixture(scope="module")
def chunks(demo_corpus: Path) -> dict[str, NarrativeHit]:
    return load_passages(demo_corpus, PASSAGES)


def cite(name: str) -> str:
    return citation(PASSAGES, name)


def _answer(store: FactStore, chunks: dict[str, NarrativeHit], question: str, reply: str) -> str:
    cited = [h for name, h in chunks.items() if cite(name) in reply] or [chunks["hk"]]
    result = answer_question(
        question,
        store,
        ScriptedProvider([text_reply(reply)] * 3),
        reference_date=REF,
        narrative_retriever=FakeRetriever(cited),
        clearance="RESTRICTED",
    )
    return result.answer


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # a change verb's difference between the sentence's from/to pair (money)
        (
            HK_WHY,
            f"2024年香港收入由410百万美元增至455百万美元,增加45百万美元,增长约11%。{cite('hk')}",
        ),
        # a net change between a from/to pair of counts
        (DC, f"2024年中国内地配送中心由14个整合为9个,净减少5个。{cite('dc')}"),
        # a relative change from a points change and its base
        (
            MARGIN_WHY,
            f"中国内地毛利率由33.1%降至32.4%,下降0.7个百分点,相对降幅约2.1%。{cite('margin')}",
        ),
        # a duration from two clock times
        (HOURS, f"街铺和社区门店每天营业12小时,即上午10点至晚上10点。{cite('hours')}"),
        # a per-X ratio of two counts the sentence states, from two sources
        (
            STORES,
            "按年末540家门店和9个区域配送中心计算,平均每个配送中心服务约60家中国内地门店。"
            f"{cite('dc')}",
        ),
    ],
)
def test_a_correct_computation_or_reading_stands(
    store: FactStore, chunks: dict[str, NarrativeHit], question: str, reply: str
) -> None:
    answer = _answer(store, chunks, question, reply)
    assert REMOVED_MARKER not in answer, answer


@pytest.mark.parametrize(
    ("question", "reply", "fabricated"),
    [
        # a wrong difference between a from/to pair
        (
            HK_WHY,
            f"2024年香港收入由410百万美元增至455百万美元,增加55百万美元。{cite('hk')}",
            "增加55",
        ),
        # a difference with its direction flipped (the count fell)
        (DC, f"2024年中国内地配送中心由14个整合为9个,净增加5个。{cite('dc')}", "净增加5个"),
        # a growth rate restated as an amount with no pair to compute it from
        (HK_WHY, f"2024年香港收入增加约11百万美元。{cite('hk')}", "11百万"),
        # a wrong relative change (the points change given as the relative one)
        (MARGIN_WHY, f"中国内地毛利率由33.1%降至32.4%,相对降幅约0.7%。{cite('margin')}", "0.7%"),
        # a wrong duration from two clock times
        (HOURS, f"街铺和社区门店每天营业14小时,即上午10点至晚上10点。{cite('hours')}", "14小时"),
        # an inverted per-X ratio
        (
            STORES,
            "按年末540家门店和9个区域配送中心计算,平均每个配送中心服务约6家中国内地门店。"
            f"{cite('dc')}",
            "约6家",
        ),
        # a day moved in an English date
        (BOARD_Q, f"The board met on 21 December 2024.{cite('board')}", "21 December"),
    ],
)
def test_a_wrong_computation_or_reading_is_removed(
    store: FactStore, chunks: dict[str, NarrativeHit], question: str, reply: str, fabricated: str
) -> None:
    answer = _answer(store, chunks, question, reply)
    assert fabricated not in answer, answer
    assert REMOVED_MARKER in answer
