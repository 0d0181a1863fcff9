"""The guard reads what a number is qualified by, not only its value and its context.

A figure a cited passage states may still be misstated by the words around it: two labels of
one sentence swapped, another comparison base year, net for gross, a yearly total for each
event, working days for days, "more than" for a figure below the mark, one end of a range for
the range, a count in words (双位数, a dozen, 半数) that no source gives. Each attack is a
scripted model reply against fixed passages; each control restates them correctly and must
stand.
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
MDA, PLAN, FAQ = (
    "ACME_FY2024_MDA.md",
    "ACME_2025_Store_Strategy.md",
    "ACME_Store_Operations_FAQ.txt",
)
MEMO, PIPL = "ACME_Pricing_Memo_2025.md", "ACME_PIPL_Compliance_Guideline.md"
SUPPLY = "ACME_Supply_Chain_Review_2024.md"


# Each passage by its place in the demo corpus: (document, locator).
PASSAGES = {
    "hours": (FAQ, "para=10"),
    "payback": (PLAN, "section=1.4,para=2"),
    "cn": (MDA, "section=1.2,para=1"),
    "sssg": (MDA, "section=1.2,para=5"),
    "group": (MDA, "section=1.1,para=1"),
    "stores": (MDA, "section=1.1,para=3"),
    "closures": (MDA, "section=1.2,para=2"),
    "hk": (MDA, "section=1.4,para=1"),
    "promo": (MEMO, "section=1.3,para=1"),
    "pipl": (PIPL, "section=1.6,para=1"),
    "cn_plan": (PLAN, "section=1.2,para=1"),
    "hk_plan": (PLAN, "section=1.2,para=2"),
    "sea_plan": (PLAN, "section=1.2,para=3"),
    "kpi": (PLAN, "section=1.5,para=1"),
    "dc": (SUPPLY, "section=1.2,para=1"),
    "warehouses": (SUPPLY, "section=1.2,para=2"),
    "markdown": (MEMO, "section=1.4,para=1"),
}


@pytest.fixture(scope="module")
def chunks(demo_corpus: Path) -> dict[str, NarrativeHit]:
    return load_passages(demo_corpus, PASSAGES)


def cite(name: str) -> str:
    return citation(PASSAGES, name)


def _narrate(store: FactStore, chunks: dict[str, NarrativeHit], reply: str):  # type: ignore[no-untyped-def]
    cited = [h for name, h in chunks.items() if cite(name) in reply]
    return answer_question(
        "门店和业务有什么变化?",
        store,
        ScriptedProvider([text_reply(reply)]),
        reference_date=REF,
        narrative_retriever=FakeRetriever(cited),
    )


@pytest.mark.parametrize(
    ("reply", "fabricated"),
    [
        # 1. two labels of one source sentence swapped (每日8 / 每周40)
        (
            f"全职员工每日工作不超过40小时,每周标准工时为8小时。{cite('hours')}",
            "每日工作不超过40小时",
        ),
        # 1. the same with the payback limits of new stores and renovations
        (
            "所有新店项目须满足投资回收期不超过24个月的门槛,改造项目的回收期不超过36个月。"
            f"{cite('payback')}",
            "投资回收期不超过24个月",
        ),
        # 2. a year-over-year fall given against another base year
        (f"与2022年相比,FY2024中国内地收入降幅约为5.7%。{cite('cn')}", "5.7%"),
        # 3. a net change stated as gross closures
        (f"2024年集团共关闭20家门店。{cite('stores')}", "关闭20家"),
        # 3. a cumulative yearly limit stated per event
        (f"每次全场性促销活动不得超过60天。{cite('promo')}", "60天"),
        # 3. working days stated as days
        (f"个人信息须在15天内删除。{cite('pipl')}", "15天"),
        # 4. 超过 for a figure below the mark
        (f"集团收入超过24亿美元。{cite('group')}", "24亿"),
        # 4. topped, in English
        (f"Group revenue topped USD 2.4 billion in FY2024.{cite('group')}", "2.4 billion"),
        # 4. 近 (just under) for a figure above the mark
        (f"2024年香港收入近4.5亿美元。{cite('hk')}", "4.5亿"),
        # 4. 不到 for a figure above the mark
        (f"2024年香港收入不到450百万美元。{cite('hk')}", "450百万"),
        # 5. a range collapsed to its top
        (f"香港2025年的目标是新开8家门店。{cite('hk_plan')}", "新开8家"),
        # 6. 双位数 for a 4.1% fall
        (f"中国内地同店销售出现双位数下滑。{cite('sssg')}", "双位数"),
        # 6. a dozen for 9
        (
            f"By year end the network had been consolidated into a dozen regional distribution "
            f"centres.{cite('dc')}",
            "a dozen",
        ),
        # 6. a score (20) for about 25
        (
            f"In Southeast Asia, the 2025 target is a score of new stores.{cite('sea_plan')}",
            "a score",
        ),
        # 6. 半数以上 where the passage gives no share
        (f"半数以上的关店发生在上半年。{cite('closures')}", "半数以上"),
        # a full year's figure given to the first half: "half" is a period here, not a share
        (
            f"Hong Kong revenue in the first half of 2024 was USD 455 million.{cite('hk')}",
            "455 million",
        ),
        # 6. half, where the passage says below half
        (
            f"Half of the closed warehouses were running below capacity.{cite('warehouses')}",
            "Half of the closed",
        ),
        # 八折 (pay 80%) as an 80% discount
        (f"Goods unsold after 90 days get an 80% discount.{cite('markdown')}", "80% discount"),
    ],
)
def test_a_misqualified_figure_is_removed(
    store: FactStore, chunks: dict[str, NarrativeHit], reply: str, fabricated: str
) -> None:
    result = _narrate(store, chunks, reply)
    assert fabricated not in result.answer, result.answer
    assert REMOVED_MARKER in result.answer


@pytest.mark.parametrize(
    "reply",
    [
        # the labels in their own places
        f"全职员工每日工作不超过8小时,每周标准工时为40小时。{cite('hours')}",
        # a correct 分别 list under a target named in a leading clause
        f"按2025年目标,中国内地新开和关闭的门店分别约为20家和35家。{cite('cn_plan')}",
        # negatives restated with a fall word; 上年 the subject's period, not a base
        f"2024年中国内地同店销售下降4.1%,上年为下降2.8%。{cite('sssg')}",
        # the base year named as the source names it
        f"与2023年相比,FY2024中国内地收入降幅约为5.7%。{cite('cn')}",
        # an exact unit conversion: 36个月 is 3年
        f"也就是说,新店项目须在3年内收回投资,改造项目须在2年内收回。{cite('payback')}",
        # 八折 / 六折 as 20% / 40% off
        (
            "In other words, goods unsold after 90 days are marked down by 20%, and after 120 "
            f"days by 40%.{cite('markdown')}"
        ),
        # a footnote marker is not a number
        f"香港收入增长约11%[^1]。{cite('hk')}",
        # 一半 as 50%, two listed names counted
        f"坪效和门店EBITDA率两项合计占考核总分的50%。{cite('kpi')}",
        # a from-to pair in English: the start of 2024 is the end of the year before
        (
            "Over 2024 the number of distribution centres serving mainland China stores fell "
            f"from 14 to 9.{cite('dc')}"
        ),
        # 接近 for a figure just under the mark
        f"2024财年集团收入接近24亿美元。{cite('group')}",
        # a range kept as a range, in words and in digits
        f"Hong Kong's 2025 target is six to eight new stores.{cite('hk_plan')}",
        f"香港2025年的目标是新开6至8家门店。{cite('hk_plan')}",
        # the top of a range with 最多
        f"香港2025年的目标是最多新开8家门店。{cite('hk_plan')}",
        # net kept as net, cumulative kept as cumulative, working days kept
        f"截至年末,集团门店较上年末净减少20家。{cite('stores')}",
        f"同一商品全年累计参加全场性促销不得超过60天。{cite('promo')}",
        f"相关个人信息须在15个工作日内删除。{cite('pipl')}",
    ],
)
def test_a_correctly_qualified_restatement_stands(
    store: FactStore, chunks: dict[str, NarrativeHit], reply: str
) -> None:
    result = _narrate(store, chunks, reply)
    assert REMOVED_MARKER not in result.answer, result.answer
