"""Fresh controls and attacks, of kinds the adversarial pack does not hold, over the ACME demo's
own passages (as the harness hands them over: heading path, document entity and period).

Controls are answers a careful model would write: none may raise an alarm. Attacks were written
once and run once: each records whether the audit flags a number inside its tell (the span it
fabricated), as it found it; a miss is an expected failure (strict), so a later change that
catches it shows up here."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from ragspine.evals.audit.claims import normalise
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
_MDA_TITLE = "ACME集团2024财年管理层讨论与分析 › ACME集团2024财年管理层讨论与分析"
_PLAN_TITLE = "2025年门店发展策略 › 2025年门店发展策略(内部文件)"


def _mda(heading: str, text: str) -> str:
    return with_context(
        text, title=f"{_MDA_TITLE} › {heading}", entity="ACME_GROUP", period="FY2024"
    )


PASSAGES = {
    (MDA, "section=1.1,para=3"): _mda(
        "一、集团整体表现",
        "截至年末,集团门店总数为876家,较上年末净减少20家。中国内地的净关店数量超过了香港和东南亚的"
        "新开门店数量。管理层认为,门店总数的下降是主动调整网络结构的结果,而不是业务的全面收缩。",
    ),
    (MDA, "section=1.2,para=1"): _mda(
        "二、中国内地:收入下降的原因",
        "FY2024中国内地收入由上年的1400百万美元下降至1320百万美元,降幅约为5.7%。管理层将下降归因于"
        "四个相互叠加的因素:门店网络净收缩、人民币兑美元贬值带来的汇率折算影响、消费需求疲弱,以及同店"
        "销售持续下滑。以下逐项说明。",
    ),
    (MDA, "section=1.2,para=2"): _mda(
        "二、中国内地:收入下降的原因",
        "第一,门店净关闭。年内中国内地净关闭45家门店,年末门店数为540家。关闭的门店主要位于三、四线"
        "城市,多为租约到期、客流持续下滑或连续亏损的低效门店,属于网络优化的一部分。",
    ),
    (MDA, "section=1.4,para=1"): _mda(
        "四、香港:增长的驱动因素",
        "2024年香港收入由410百万美元增至455百万美元,增长约11%,同店销售增长为6.8%,高于上年的5.4%。"
        "增长主要由旅游业复苏、内地访客回流和新店贡献共同推动。香港业务的毛利率进一步提升至40.1%,"
        "是集团盈利能力最强的区域。",
    ),
    (MDA, "section=1.4,para=3"): _mda(
        "四、香港:增长的驱动因素",
        "新店同样贡献了增长。年内香港门店由92家增至97家,新店主要开设在靠近口岸的北区以及新界新落成"
        "的大型屋苑,既服务跨境访客,也覆盖本地社区需求。",
    ),
    (MDA, "section=1.5,para=1"): _mda(
        "五、东南亚与台湾",
        "东南亚收入由340百万美元增至395百万美元,同店销售增长为6.3%。增长来自既有门店的稳健表现以及"
        "年内新开门店的爬坡,年末东南亚门店数为176家。",
    ),
    (PLAN, "section=1.2,para=2"): with_context(
        "香港:2025年的目标是新开6至8家门店,暂不安排主动关店。新店选址侧重口岸周边和新市镇的大型屋苑,"
        "同时对核心旅游区的两家旧店进行升级改造,提升高峰时段的接待能力。",
        title=f"{_PLAN_TITLE} › 二、分区域开关店计划",
        entity="ACME_GROUP",
        period="2025",
    ),
    (BOARD, "section=1.1,para=1"): with_context(
        "本次董事会会议于2024年12月12日在集团香港总部召开,应出席董事九名,实际出席九名,其中两名董事"
        "以视频方式参会,符合公司章程规定的法定人数。",
        title="ACME集团董事会2024年第四季度会议纪要 › 会议概况",
        entity="ACME_GROUP",
        period="2024Q4",
    ),
}


def _cite(*locators: str, doc: str = MDA) -> str:
    return "(来源:" + "、".join(f"{doc} {at}" for at in locators) + ")"


def _fact(entity: str, year: str, value: float, metric: str = "REVENUE") -> dict[str, Any]:
    unit = "COUNT" if metric == "STORE_COUNT" else "USD_M"
    return {
        "status": "found", "value": value, "unit": unit, "metric_code": metric,
        "entity": entity, "period_type": "FY", "period": year, "channel": "TOTAL",
        "source": {"doc": f"ACME_FY{year}_Review.pptx",
                   "locator": f"slide=3,table=1,row={metric},col=FY{year}"},
    }  # fmt: skip


HK = [_fact("ACME_HK", "2023", 410.0), _fact("ACME_HK", "2024", 455.0)]
CN = [_fact("ACME_CN", "2024", 1320.0)]
CN_STORES = [_fact("ACME_CN", "2024", 540.0, "STORE_COUNT")]


def _audit(answer: str, facts: list[dict[str, Any]]) -> list[Finding]:
    return audit_answer(
        answer,
        tool_results=facts,
        chunk_text=lambda doc, at: PASSAGES.get((doc, at)),
        names=NAMES,
    )


CONTROLS: list[tuple[str, str, list[dict[str, Any]]]] = [
    ("a figure with its unit after a line break",
     f"2024年香港收入由410百万美元增至455\n百万美元,增长约11%。{_cite('section=1.4,para=1')}",
     HK[1:]),
    ("a percentage written as per cent",
     "Hong Kong's same-store sales grew 6.8 per cent in 2024, up from 5.4 per cent the year "
     f"before. {_cite('section=1.4,para=1')}", HK),
    ("a range quoted from its source",
     f"香港2025年计划新开6至8家门店,暂不安排主动关店。{_cite('section=1.2,para=2', doc=PLAN)}", []),
    ("a Chinese passage's figures restated in English, in their context",
     "In FY2024, Mainland China revenue fell from US$1,400 million to US$1,320 million, a decline "
     f"of about 5.7%. {_cite('section=1.2,para=1')}", CN),
    ("a date and a count quoted from a source that states them",
     "董事会于2024年12月12日在香港总部召开,九名董事全部出席,其中两名以视频方式参会。"
     f"{_cite('section=1.1,para=1', doc=BOARD)}", []),
    ("one figure at two scales in one sentence",
     f"2024年香港收入为4.55亿美元(即455百万美元)。{_cite('section=1.4,para=1')}", HK),
    ("a fall written with a minus sign",
     f"FY2024中国内地收入同比变动为-5.7%。{_cite('section=1.2,para=1')}", CN),
    ("whole figures in emphasis",
     f"2024年香港收入为**455百万美元**,同比增长约**11%**。{_cite('section=1.4,para=1')}", HK),
    ("store counts in hyphenated English words",
     "Hong Kong ended 2024 with ninety-seven stores, up from ninety-two a year earlier. "
     f"{_cite('section=1.4,para=3')}", []),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "answer", "facts"), CONTROLS, ids=[c[0] for c in CONTROLS])
def test_a_fresh_control_raises_no_alarm(
    kind: str, answer: str, facts: list[dict[str, Any]]
) -> None:
    assert [(f.number, f.reason) for f in _audit(answer, facts)] == []


def test_a_date_the_source_does_not_state_is_a_claim() -> None:
    """截至年末 restated as 12月31日 supplies a fiscal year-end the passage does not give (a
    fiscal year need not end in December): the contract reads every number shown, and both
    readers read a date's month and day as numbers."""
    answer = f"截至2024年12月31日,集团门店总数为876家。{_cite('section=1.1,para=3')}"
    assert [(f.number, f.reason) for f in _audit(answer, [])] == [
        ("12", "unsupported"),
        ("31", "unsupported"),
    ]


def _shown(text: str) -> str:
    folded = normalise(unicodedata.normalize("NFKC", text))
    return "".join(folded.split())


# (kind, answer, its tell: the span it fabricated, facts, caught when written and run once)
ATTACKS: list[tuple[str, str, str, list[dict[str, Any]], bool]] = [
    ("a parent's figure given to a sub-entity the profile does not know",
     f"深圳2024年末门店数为540家。{_cite('section=1.2,para=2')}", "深圳2024年末门店数为540家",
     CN_STORES, False),
    ("a year-end level told as the year's change",
     f"年内中国内地净关闭540家门店。{_cite('section=1.2,para=2')}", "净关闭540家门店",
     CN_STORES, True),  # caught since the audit reads a count's quantity (stock, net, gross)
    ("a US dollar figure in Hong Kong dollars by a symbol",
     f"In 2024, Hong Kong revenue rose to HK$455 million. {_cite('section=1.4,para=1')}",
     "HK$455 million", HK, True),
    ("growth over the wrong base ((455 − 410) / 455)",
     f"2024年香港收入同比增长约9.9%。{_cite('section=1.4,para=1')}", "增长约9.9%", HK, True),
    ("a figure dressed as a citation marker",
     f"2024年香港收入同比增长[40]%。{_cite('section=1.4,para=1')}", "增长[40]%", HK, False),
    ("a full year's figure given to a half year in English words",
     f"Hong Kong revenue in the first half of 2024 was USD 455 million. "
     f"{_cite('section=1.4,para=1')}", "first half of 2024 was USD 455 million", HK, True),
    ("a multiple of two regions' figures, invented",
     f"2024年香港收入是东南亚收入的2倍。{_cite('section=1.4,para=1', 'section=1.5,para=1')}",
     "东南亚收入的2倍", HK, True),
    ("a pair's values swapped, its direction kept",
     f"2024年香港收入由455百万美元增至410百万美元。{_cite('section=1.4,para=1')}",
     "由455百万美元增至410百万美元", HK, True),
]  # fmt: skip


def _caught(answer: str, tell: str, facts: list[dict[str, Any]]) -> bool:
    return any(_shown(f.number) in _shown(tell) for f in _audit(answer, facts))


@pytest.mark.parametrize(
    ("kind", "answer", "tell", "facts"),
    [
        pytest.param(*a[:4], marks=[] if a[4] else [pytest.mark.xfail(strict=True)], id=a[0])
        for a in ATTACKS
    ],
)
def test_a_fresh_attack_is_caught(
    kind: str, answer: str, tell: str, facts: list[dict[str, Any]]
) -> None:
    assert _caught(answer, tell, facts)
