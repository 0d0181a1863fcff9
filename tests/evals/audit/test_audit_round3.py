"""Round 3 of the fresh attacks (evals/adversarial/fresh_attacks_3.yaml), by class: the one-step
rule's change verbs (a from-to's difference, a relative change from a points change, a duration
from clock times, a per-X ratio across two passages), a date's day, a condition restated, a
points change as a bare percent, and a limit stated as a measured value. Controls raise no
alarm; each attack is flagged inside the span it fabricated."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.evals.audit.findings import Finding, audit_answer
from ragspine.evals.audit.sources import with_context
from ragspine.evals.run.runner import slot_names
from ragspine.profile import default_profile

NAMES = slot_names(default_profile())
MDA, PLAN, BOARD = (
    "ACME_FY2024_MDA.md",
    "ACME_2025_Store_Strategy.md",
    "ACME_Board_Minutes_2024Q4.md",
)
FAQ, SUPPLY = "ACME_Store_Operations_FAQ.txt", "ACME_Supply_Chain_Review_2024.md"

PASSAGES = {
    (MDA, "section=1.2,para=4"): with_context(
        "第三,消费需求疲弱。为维持客流,公司在重点节点加大了促销力度,这在一定程度上稳住了销量,但也"
        "压低了平均售价,中国内地毛利率由33.1%降至32.4%。",
        title="ACME集团2024财年管理层讨论与分析 › 二、中国内地:收入下降的原因",
        entity="ACME_GROUP", period="FY2024",
    ),
    (MDA, "section=1.3,para=1"): with_context(
        "与线下相反,中国内地线上收入全年增长超过15%,线上收入占中国内地收入的比重由上年的22%提升至"
        "27%。",
        title="ACME集团2024财年管理层讨论与分析 › 三、中国内地:线上渠道",
        entity="ACME_GROUP", period="FY2024",
    ),
    (MDA, "section=1.4,para=1"): with_context(
        "2024年香港收入由410百万美元增至455百万美元,增长约11%,同店销售增长为6.8%,高于上年的5.4%。",
        title="ACME集团2024财年管理层讨论与分析 › 四、香港:增长的驱动因素",
        entity="ACME_GROUP", period="FY2024",
    ),
    (PLAN, "section=1.2,para=3"): with_context(
        "东南亚:2025年的目标是新开约25家门店,是集团门店扩张的主要区域。区域团队须在每季度末提交新店"
        "爬坡情况,开业六个月内销售未达预算七成的门店须启动复盘。",
        title="2025年门店发展策略 › 二、分区域开关店计划", entity="ACME_GROUP", period="2025",
    ),
    (PLAN, "section=1.4,para=2"): with_context(
        "所有新店项目须满足投资回收期不超过36个月的门槛,改造项目的回收期不超过24个月。",
        title="2025年门店发展策略 › 四、资本开支优先级", entity="ACME_GROUP", period="2025",
    ),
    (BOARD, "section=1.1,para=1"): with_context(
        "本次董事会会议于2024年12月12日在集团香港总部召开,应出席董事九名,实际出席九名,其中两名董事"
        "以视频方式参会,符合公司章程规定的法定人数。",
        title="ACME集团董事会2024年第四季度会议纪要 › 会议概况",
        entity="ACME_GROUP", period="2024Q4",
    ),
    (FAQ, "para=2"): with_context(
        "问:门店的标准营业时间是怎样规定的?答:街铺和社区门店的标准营业时间为每天上午10点至晚上10点,"
        "位于购物中心内的门店跟随商场的营业时间。",
        title="门店运营常见问题解答", entity="ACME_GROUP", period=None,
    ),
    (SUPPLY, "section=1.2,para=1"): with_context(
        "At the start of 2024, our mainland China stores were served by 14 distribution centres, "
        "many of them small leased warehouses inherited from earlier expansion. By year end we had "
        "consolidated them into 9 regional distribution centres, each serving stores and online "
        "orders within a defined radius.",
        title="ACME Supply Chain Review 2024 › Distribution-centre consolidation",
        entity="ACME_GROUP", period="FY2024",
    ),
}  # fmt: skip


def _cite(doc: str, at: str) -> str:
    return f"(来源:{doc} {at})"


def _fact(entity: str, year: str, value: float, metric: str = "REVENUE") -> dict[str, Any]:
    unit = "COUNT" if metric == "STORE_COUNT" else "USD_M"
    return {
        "status": "found", "value": value, "unit": unit, "metric_code": metric,
        "entity": entity, "period_type": "FY", "period": year, "channel": "TOTAL",
        "source": {"doc": f"ACME_FY{year}_Review.pptx",
                   "locator": f"slide=3,table=1,row={metric},col=FY{year}"},
    }  # fmt: skip


HK = [_fact("ACME_HK", "2023", 410.0), _fact("ACME_HK", "2024", 455.0)]
CN_STORES = [_fact("ACME_CN", "2024", 540.0, "STORE_COUNT")]


def _audit(answer: str, facts: list[dict[str, Any]]) -> list[Finding]:
    return audit_answer(
        answer,
        tool_results=facts,
        chunk_text=lambda doc, at: PASSAGES.get((doc, at)),
        names=NAMES,
    )


CONTROLS: list[tuple[str, str, list[dict[str, Any]]]] = [
    # a relative change computed from a points change and its base (0.7 / 33.1)
    ("points and the relative change together",
     "中国内地毛利率由33.1%降至32.4%,下降0.7个百分点,相对降幅约2.1%。"
     + _cite(MDA, "section=1.2,para=4"), []),
    # a date's day (12 December) is part of a date, never an amount
    ("an English date beside a count",
     "The board met on 12 December 2024; all nine directors attended, two of them by video."
     + _cite(BOARD, "section=1.1,para=1"), []),
    # a threshold restated as a threshold (below 70% of budget, within six months)
    ("a condition restated in English",
     "In Southeast Asia, a new store whose sales are below 70% of budget within six months of "
     "opening must start a review." + _cite(PLAN, "section=1.2,para=3"), []),
    # a from-to's difference named by a change verb (455 − 410)
    ("a growth with its money amount",
     "2024年香港收入由410百万美元增至455百万美元,增加45百万美元,增长约11%。"
     + _cite(MDA, "section=1.4,para=1"), HK),
    # a from-to's net change, a count (14 − 9)
    ("a from-to's net change",
     "2024年中国内地配送中心由14个整合为9个,净减少5个。" + _cite(SUPPLY, "section=1.2,para=1"),
     []),
    # a duration between two clock times (10:00 to 22:00)
    ("a duration from clock times",
     "街铺和社区门店每天营业12小时,即上午10点至晚上10点。" + _cite(FAQ, "para=2"), []),
    # a per-X ratio whose operands come from two sources (540 stores / 9 centres)
    ("a ratio across two sources",
     "按年末540家门店和9个区域配送中心计算,平均每个配送中心服务约60家中国内地门店。"
     + _cite(SUPPLY, "section=1.2,para=1"), CN_STORES),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "answer", "facts"), CONTROLS, ids=[c[0] for c in CONTROLS])
def test_a_round3_control_raises_no_alarm(
    kind: str, answer: str, facts: list[dict[str, Any]]
) -> None:
    assert [(f.number, f.reason) for f in _audit(answer, facts)] == []


# (kind, answer, the figure the audit must flag, facts)
ATTACKS: list[tuple[str, str, str, list[dict[str, Any]]]] = [
    # a points change (33.1 → 32.4) written as a bare percent
    ("points written as a relative percent",
     "中国内地毛利率同比下降了0.7%。" + _cite(MDA, "section=1.2,para=4"), "0.7%", []),
    # the same, in English (22% → 27% share)
    ("points written as a relative percent, English",
     "Online's share of mainland China revenue rose by 5% in FY2024."
     + _cite(MDA, "section=1.3,para=1"), "5%", []),
    # a ceiling (不超过36个月) stated as the measured average
    ("a ceiling stated as a measured average",
     "2024年新开门店的平均投资回收期为36个月。" + _cite(PLAN, "section=1.4,para=2"), "36", []),
    # a from-to's difference miscomputed (14 → 9 is 5)
    ("a net change miscomputed",
     "2024年中国内地配送中心净减少7个。" + _cite(SUPPLY, "section=1.2,para=1"), "7", []),
    # a growth's amount miscomputed (455 − 410 is 45)
    ("a growth amount miscomputed",
     "2024年香港收入由410百万美元增至455百万美元,增加55百万美元。"
     + _cite(MDA, "section=1.4,para=1"), "55", HK),
    # a clock duration miscomputed (10:00 to 22:00 is 12 hours)
    ("a clock duration miscomputed",
     "街铺和社区门店每天营业14小时。" + _cite(FAQ, "para=2"), "14", []),
    # a cross-source ratio miscomputed (540 / 9 is 60)
    ("a cross-source ratio miscomputed",
     "按9个区域配送中心计算,平均每个配送中心服务约54家中国内地门店。"
     + _cite(SUPPLY, "section=1.2,para=1"), "54", CN_STORES),
    # a relative change miscomputed (0.7 / 33.1 is 2.1%)
    ("a relative change miscomputed",
     "中国内地毛利率由33.1%降至32.4%,下降0.7个百分点,相对降幅约3.5%。"
     + _cite(MDA, "section=1.2,para=4"), "3.5%", []),
]  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "answer", "figure", "facts"), ATTACKS, ids=[a[0] for a in ATTACKS]
)
def test_a_round3_attack_is_flagged(
    kind: str, answer: str, figure: str, facts: list[dict[str, Any]]
) -> None:
    flagged = [f.number for f in _audit(answer, facts)]
    assert any(figure in n or n in figure for n in flagged), flagged
