"""The guard reads ordinals, rate time bases, bounds, event dates and one-step arithmetic.

A figure a cited passage states may be given to another item by its ordinal (第三 as 第二), to
another time base (a year as a month), under the other bound (至少 as 最多), or an event's date
may move (下半年 as 上半年, 2026 as 2025). A careful model also computes one arithmetic step
from sourced figures (a sum, a ratio, a difference, an average, a complement, a per-store
figure, basis points): that stands when the arithmetic is right and goes when it is wrong.
Each case is a scripted model reply against fixed passages (and the demo fact store).
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
ESG, BOARD = "ACME_ESG_Report_2024.md", "ACME_Board_Minutes_2024Q4.md"

# Each passage by its place in the demo corpus: (document, locator).
PASSAGES = {
    "capex": (PLAN, "section=1.4,para=1"),
    "payback": (PLAN, "section=1.4,para=2"),
    "closing": (PLAN, "section=1.6,para=1"),
    "levers": (ESG, "section=1.2,para=3"),
    "committee": (ESG, "section=1.6,para=1"),
    "bags": (ESG, "section=1.3,para=1"),
    "bond": (BOARD, "section=1.4,para=1"),
    "cn": (MDA, "section=1.2,para=1"),
    "online": (MDA, "section=1.3,para=1"),
    "margin": (MDA, "section=1.2,para=4"),
}

HK_SEA = "香港和东南亚2024年收入分别是多少?为什么增长?"
CN_HK = "中国内地和香港2024年收入分别是多少?各自表现如何?"
SSSG = "香港和东南亚2024年同店销售增长分别是多少?原因是什么?"
CN_WHY = "为什么中国内地FY2024收入下降?"
STORES_WHY = "为什么中国内地FY2024门店数减少?"
NARRATIVE = "门店和业务有什么变化?"


@pytest.fixture(scope="module")
def chunks(demo_corpus: Path) -> dict[str, NarrativeHit]:
    return load_passages(demo_corpus, PASSAGES)


def cite(name: str) -> str:
    return citation(PASSAGES, name)


def _answer(store: FactStore, chunks: dict[str, NarrativeHit], question: str, reply: str) -> str:
    # a composite answer's prose is written only when some passage was retrieved
    cited = [h for name, h in chunks.items() if cite(name) in reply] or [chunks["cn"]]
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
    ("question", "reply", "fabricated"),
    [
        # 1. the third priority given the second place
        (NARRATIVE, f"在2025年门店资本开支中,旗舰店排在第二优先级。{cite('capex')}", "第二优先级"),
        # 1. an ordinal in English: the second lever stated as the first
        (
            NARRATIVE,
            f"Renewable electricity is our first lever for cutting emissions.{cite('levers')}",
            "first lever",
        ),
        # 1. two ordinals swapped in one sentence
        (NARRATIVE, f"社区店新开排第三位,旗舰店排第二位。{cite('capex')}", "第三位"),
        # 2. a rate's time base moved from a year to a month
        (
            NARRATIVE,
            f"The Sustainability Committee meets at least four times a month.{cite('committee')}",
            "a month",
        ),
        # 3. a minimum stated as a maximum
        (NARRATIVE, f"关店原则上最多提前60天通知业主和员工。{cite('closing')}", "最多提前60天"),
        # 4. a due date moved to the other half-year
        (
            NARRATIVE,
            f"债券所得款项主要用于偿还将于2025年上半年到期的银行贷款。{cite('bond')}",
            "上半年到期",
        ),
        # 4. a target year moved, in English
        (
            NARRATIVE,
            "Our target is to remove single-use plastic carrier bags from our stores entirely "
            f"by the end of 2025.{cite('bags')}",
            "end of 2025",
        ),
        # 6. a wrong sum of two found facts
        (HK_SEA, "香港和东南亚2024年收入合计为870百万美元。", "870"),
        # 6. a ratio inverted between entities
        (CN_HK, "2024年香港收入是中国内地收入的2.9倍。", "2.9倍"),
        # 6. a ratio inverted over time
        (CN_WHY, f"FY2024中国内地收入为上年的1.06倍。{cite('cn')}", "1.06倍"),
        # 6. a difference given as a multiple
        (SSSG, "香港2024年同店销售增长是东南亚的0.5倍。", "0.5倍"),
        # 6. a difference with its direction flipped
        (HK_SEA, "2024年东南亚收入比香港高60百万美元。", "高60"),
        # 6. a wrong average, a wrong monthly average
        (SSSG, "两地2024年同店销售增长平均为7.1%。", "7.1%"),
        (CN_WHY, "中国内地2024年月均收入约为130百万美元。", "130"),
        # 6. basis points misconverted (0.7 points is 70 basis points)
        (CN_WHY, f"中国内地毛利率由33.1%降至32.4%,下降了7个基点。{cite('margin')}", "7个基点"),
        # 6. a per-store figure given per square metre
        (
            STORES_WHY,
            "按年末540家门店计算,中国内地2024年每平方米销售额约为2.44百万美元。",
            "2.44",
        ),
    ],
)
def test_a_misstated_figure_is_removed(
    store: FactStore, chunks: dict[str, NarrativeHit], question: str, reply: str, fabricated: str
) -> None:
    answer = _answer(store, chunks, question, reply)
    assert fabricated not in answer, answer
    assert REMOVED_MARKER in answer


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # 1. the capex order restated correctly
        (NARRATIVE, f"按资本开支优先级,社区店新开排第二位,旗舰店排第三位。{cite('capex')}"),
        # 1. the second lever kept second
        (NARRATIVE, f"Renewable electricity is ACME's second lever.{cite('levers')}"),
        # 2. the time base kept
        (
            NARRATIVE,
            f"The Sustainability Committee meets at least four times a year.{cite('committee')}",
        ),
        # 3. the bound kept
        (NARRATIVE, f"关店原则上至少提前60天通知业主和员工。{cite('closing')}"),
        # 5. 不超过 restated in English as "within … at most"
        (
            NARRATIVE,
            "New-store projects must pay back within 36 months at most, and refurbishments "
            f"within 24 months.{cite('payback')}",
        ),
        # 4. the due half-year and the target year kept
        (NARRATIVE, f"债券所得款项主要用于偿还2025年下半年到期的银行贷款。{cite('bond')}"),
        (
            NARRATIVE,
            "ACME aims to remove single-use plastic carrier bags from its stores by the end of "
            f"2026.{cite('bags')}",
        ),
        # 6. a sum, a difference, a ratio between entities, a ratio to the prior year
        (HK_SEA, "香港和东南亚2024年收入合计为850百万美元。"),
        (HK_SEA, "2024年东南亚收入比香港低60百万美元。"),
        (CN_HK, "2024年中国内地收入约为香港的2.9倍。"),
        (CN_WHY, f"FY2024中国内地收入约为上年的94%。{cite('cn')}"),
        # 6. an average, a monthly average
        (SSSG, "两地2024年同店销售增长平均为6.55%。"),
        (CN_WHY, "中国内地2024年月均收入约为110百万美元。"),
        # 6. a complement to 100%
        (CN_WHY, f"也就是说,2024年线下收入约占中国内地收入的73%。{cite('online')}"),
        # 6. a per-store figure over a count the sentence states
        (STORES_WHY, "按年末540家门店计算,中国内地2024年单店平均收入约为2.44百万美元。"),
        # 6. points as basis points
        (CN_WHY, f"中国内地毛利率由33.1%降至32.4%,下降了70个基点。{cite('margin')}"),
    ],
)
def test_a_correct_restatement_or_computation_stands(
    store: FactStore, chunks: dict[str, NarrativeHit], question: str, reply: str
) -> None:
    answer = _answer(store, chunks, question, reply)
    assert REMOVED_MARKER not in answer, answer


def test_a_year_beside_a_kept_event_date_is_no_moved_date(
    store: FactStore, chunks: dict[str, NarrativeHit]
) -> None:
    """A report's year in its name replaces no date: the target year stays the source's."""
    reply = (
        "The ESG Report 2024 (https://ir.acme.example/esg-report-2024) sets a target to remove "
        f"single-use plastic carrier bags from our stores by the end of 2026.{cite('bags')}"
    )
    assert REMOVED_MARKER not in _answer(store, chunks, NARRATIVE, reply)
