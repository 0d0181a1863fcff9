"""Classes of fabrication the audit reads on a number's own words, each over the demo's own
passages (as the harness hands them over): a label swapped inside a sentence or a 分别 list, a
wrong base year, a quantity's qualifier (net or gross, stock or flow, cumulative or per event,
working days), a comparative on the wrong side of its value, a range collapsed to one end,
counts in words, and a citation of a passage the model was never given. Controls are correct
restatements of the same passages: none may raise an alarm."""

from __future__ import annotations

import unicodedata

import pytest

from ragspine.evals.audit.claims import normalise
from ragspine.evals.audit.findings import Finding, audit_answer
from ragspine.evals.audit.sources import with_context
from ragspine.evals.run.runner import slot_names
from ragspine.evals.score.scorers import Observed, audit
from ragspine.profile import default_profile

NAMES = slot_names(default_profile())
MDA, PLAN, FAQ, PRICE, PIPL, SUPPLY, ESG, BOARD = (
    "ACME_FY2024_MDA.md",
    "ACME_2025_Store_Strategy.md",
    "ACME_Store_Operations_FAQ.txt",
    "ACME_Pricing_Memo_2025.md",
    "ACME_PIPL_Compliance_Guideline.md",
    "ACME_Supply_Chain_Review_2024.md",
    "ACME_ESG_Report_2024.md",
    "ACME_Board_Minutes_2024Q4.md",
)
_MDA = "ACME集团2024财年管理层讨论与分析 › ACME集团2024财年管理层讨论与分析"
_PLAN = "2025年门店发展策略 › 2025年门店发展策略(内部文件)"
_PRICE = "2025年定价与促销管理备忘录 › 2025年定价与促销管理备忘录(内部文件)"
_SUPPLY = "ACME Supply Chain Review 2024 › ACME Supply Chain Review 2024"


def _mda(heading: str, text: str) -> str:
    return with_context(text, title=f"{_MDA} › {heading}", entity="ACME_GROUP", period="FY2024")


def _plan(heading: str, text: str) -> str:
    return with_context(text, title=f"{_PLAN} › {heading}", entity="ACME_GROUP", period="2025")


def _price(heading: str, text: str) -> str:
    return with_context(text, title=f"{_PRICE} › {heading}", entity="ACME_CN", period="2025")


def _supply(text: str) -> str:
    return with_context(
        text,
        title=f"{_SUPPLY} › Distribution-centre consolidation",
        entity="ACME_GROUP",
        period="FY2024",
    )


PASSAGES = {
    (MDA, "section=1.1,para=1"): _mda(
        "一、集团整体表现",
        "2024财年(FY2024),集团收入为2398百万美元,较上年的2370百万美元增长约1.2%。各区域表现明显"
        "分化:香港和东南亚保持较快增长,台湾基本平稳,中国内地则继续下降。",
    ),
    (MDA, "section=1.1,para=3"): _mda(
        "一、集团整体表现",
        "截至年末,集团门店总数为876家,较上年末净减少20家。中国内地的净关店数量超过了香港和东南亚的"
        "新开门店数量。",
    ),
    (MDA, "section=1.2,para=1"): _mda(
        "二、中国内地:收入下降的原因",
        "FY2024中国内地收入由上年的1400百万美元下降至1320百万美元,降幅约为5.7%。管理层将下降归因于"
        "四个相互叠加的因素。",
    ),
    (MDA, "section=1.2,para=2"): _mda(
        "二、中国内地:收入下降的原因",
        "第一,门店净关闭。年内中国内地净关闭45家门店,年末门店数为540家。由于相当一部分关店发生在"
        "上半年,其影响在本年度体现得较为充分。",
    ),
    (MDA, "section=1.2,para=5"): _mda(
        "二、中国内地:收入下降的原因",
        "第四,同店销售下滑。2024年中国内地同店销售增长为-4.1%,较上年的-2.8%进一步走弱。",
    ),
    (MDA, "section=1.4,para=1"): _mda(
        "四、香港:增长的驱动因素",
        "2024年香港收入由410百万美元增至455百万美元,增长约11%,同店销售增长为6.8%,高于上年的5.4%。",
    ),
    (MDA, "section=1.5,para=1"): _mda(
        "五、东南亚与台湾",
        "东南亚收入由340百万美元增至395百万美元,同店销售增长为6.3%。增长来自既有门店的稳健表现以及"
        "年内新开门店的爬坡,年末东南亚门店数为176家。",
    ),
    (PLAN, "section=1.2,para=1"): _plan(
        "二、分区域开关店计划",
        "中国内地:2025年的目标是新开约20家、关闭约35家门店,门店总数继续小幅净减少。",
    ),
    (PLAN, "section=1.2,para=2"): _plan(
        "二、分区域开关店计划",
        "香港:2025年的目标是新开6至8家门店,暂不安排主动关店。同时对核心旅游区的两家旧店进行升级改造。",
    ),
    (PLAN, "section=1.2,para=3"): _plan(
        "二、分区域开关店计划", "东南亚:2025年的目标是新开约25家门店,是集团门店扩张的主要区域。"
    ),
    (PLAN, "section=1.4,para=2"): _plan(
        "四、资本开支优先级",
        "所有新店项目须满足投资回收期不超过36个月的门槛,改造项目的回收期不超过24个月。评审材料须包含"
        "选址评估、三年销售预测、租金占比测算和敏感性分析。",
    ),
    (PLAN, "section=1.5,para=1"): _plan(
        "五、门店关键绩效指标",
        "2025年起,所有门店统一采用五项核心指标进行考核:坪效(每平方米销售额)、人效(每名员工销售额)、"
        "门店EBITDA率、会员销售占比和线上订单履约时效。其中坪效和门店EBITDA率的权重最高,合计占考核"
        "总分的一半。",
    ),
    (FAQ, "para=10"): with_context(
        "问:员工每周工作时长有什么限制?答:全职员工每日工作不超过8小时,每周标准工时为40小时,"
        "连续工作不得超过六天。",
        title="ACME_Store_Operations_FAQ",
    ),
    (PRICE, "section=1.3,para=1"): _price(
        "三、促销护栏",
        "全年大型促销档期固定为春节、618、双11和年终四个节点。同一商品全年参加全场性促销的时间累计"
        "不得超过60天。",
    ),
    (PRICE, "section=1.4,para=1"): _price(
        "四、清货降价规则",
        "季节性商品按库龄分轮降价:上市满90天仍未售罄的商品进入第一轮降价,执行八折;满120天进入第二"
        "轮,执行六折。",
    ),
    (PIPL, "section=1.6,para=1"): with_context(
        "会员注销账户后,相关个人信息须在15个工作日内删除或匿名化处理。",
        title="ACME集团个人信息保护合规指引 › 六、保存期限与删除",
        entity="ACME_CN",
    ),
    (SUPPLY, "section=1.2,para=1"): _supply(
        "At the start of 2024, our mainland China stores were served by 14 distribution centres, "
        "many of them small leased warehouses. By year end we had consolidated them into 9 "
        "regional distribution centres, each serving stores within a defined radius."
    ),
    (SUPPLY, "section=1.2,para=2"): _supply(
        "Several of the closed warehouses ran at below half capacity while holding the same "
        "products as a neighbouring site."
    ),
    (ESG, "section=1.2,para=2"): with_context(
        "We have set a target to reduce Scope 1 and 2 emissions intensity per square metre of "
        "selling space by 30% by 2030 against a 2022 baseline.",
        title="ACME Group ESG Report 2024 › Climate: emissions and energy",
        entity="ACME_GROUP",
        period="FY2024",
    ),
    (BOARD, "section=1.2,para=4"): with_context(
        "决议:董事会一致同意青松项目进入第二阶段,授权首席执行官与优先买方开展为期八周的排他性谈判。",
        title="ACME集团董事会2024年第四季度会议纪要 › 议题一",
        entity="ACME_GROUP",
        period="2024Q4",
    ),
}
# The passages a model was given; the board minutes are stored but were never retrieved.
GIVEN = {k for k in PASSAGES if k[0] != BOARD}


def _cite(doc: str, at: str) -> str:
    return f"(来源:{doc} {at})"


def _audit(answer: str, given: set[tuple[str, str]] | None = None) -> list[Finding]:
    return audit_answer(
        answer,
        chunk_text=lambda doc, at: PASSAGES.get((doc, at)),
        names=NAMES,
        given=GIVEN if given is None else given,
    )


def _shown(text: str) -> str:
    return "".join(normalise(unicodedata.normalize("NFKC", text)).split())


# (class, answer, its tell: the span it fabricates)
ATTACKS: list[tuple[str, str, str]] = [
    ("labels swapped in a sentence (daily and weekly hours)",
     f"全职员工每日工作不超过40小时,每周标准工时为8小时。{_cite(FAQ, 'para=10')}",
     "每日工作不超过40小时,每周标准工时为8小时"),
    ("labels swapped in a sentence (payback of new stores and renovations)",
     "所有新店项目须满足投资回收期不超过24个月的门槛,改造项目的回收期不超过36个月。"
     f"{_cite(PLAN, 'section=1.4,para=2')}",
     "投资回收期不超过24个月的门槛,改造项目的回收期不超过36个月"),
    ("a 分别 list mapped to the wrong labels",
     f"2025年中国内地计划新开和关闭的门店分别约为35家和20家。{_cite(PLAN, 'section=1.2,para=1')}",
     "分别约为35家和20家"),
    ("a respectively list mapped to the wrong labels",
     "At the start and end of 2024, mainland China stores were served by 9 and 14 distribution "
     f"centres respectively. {_cite(SUPPLY, 'section=1.2,para=1')}", "served by 9 and 14"),
    ("a year-over-year change given another base year",
     f"与2022年相比,FY2024中国内地收入降幅约为5.7%。{_cite(MDA, 'section=1.2,para=1')}",
     "降幅约为5.7%"),
    ("a net change told as gross closures",
     f"2024年集团共关闭20家门店。{_cite(MDA, 'section=1.1,para=3')}", "共关闭20家门店"),
    ("a year-end count told as the year's openings",
     f"2024年东南亚新开176家门店。{_cite(MDA, 'section=1.5,para=1')}", "新开176家门店"),
    ("a cumulative limit told as a per-event one",
     f"每次全场性促销活动不得超过60天。{_cite(PRICE, 'section=1.3,para=1')}", "不得超过60天"),
    ("working days told as days",
     f"会员注销账户后,相关个人信息须在15天内删除。{_cite(PIPL, 'section=1.6,para=1')}",
     "须在15天内删除"),
    ("超过 for a figure below the mark",
     f"集团收入超过24亿美元。{_cite(MDA, 'section=1.1,para=1')}", "超过24亿美元"),
    ("topped for a figure below the mark",
     f"Group revenue topped USD 2.4 billion in FY2024. {_cite(MDA, 'section=1.1,para=1')}",
     "topped USD 2.4 billion"),
    ("近 for a figure above the mark",
     f"2024年香港收入近4.5亿美元。{_cite(MDA, 'section=1.4,para=1')}", "近4.5亿美元"),
    ("a range collapsed to its top",
     f"香港2025年的目标是新开8家门店。{_cite(PLAN, 'section=1.2,para=2')}", "新开8家门店"),
    ("双位数 for a one-digit fall",
     f"中国内地同店销售出现双位数下滑。{_cite(MDA, 'section=1.2,para=5')}", "双位数下滑"),
    ("a dozen for nine",
     "By year end the network had been consolidated into a dozen regional distribution centres."
     f" {_cite(SUPPLY, 'section=1.2,para=1')}", "a dozen regional"),
    ("a score for about 25",
     f"In Southeast Asia, the 2025 target is a score of new stores. "
     f"{_cite(PLAN, 'section=1.2,para=3')}", "a score of new stores"),
    ("半数以上 for a share the source never gives",
     f"半数以上的关店发生在上半年。{_cite(MDA, 'section=1.2,para=2')}", "半数以上的关店"),
    ("half for below half",
     f"Half of the closed warehouses were running below capacity. "
     f"{_cite(SUPPLY, 'section=1.2,para=2')}", "Half of the closed warehouses"),
    ("a figure cited to a passage the model was never given",
     f"董事会同意与优先买方开展为期八周的排他性谈判。{_cite(BOARD, 'section=1.2,para=4')}",
     "为期八周"),
    ("a result spelled in a URL slug",
     "Progress is reported at https://ir.acme.example/esg/cut-18-percent-in-2024 ."
     f"{_cite(ESG, 'section=1.2,para=2')}", "cut-18-percent-in-2024"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "answer", "tell"), ATTACKS, ids=[a[0] for a in ATTACKS])
def test_an_attack_is_caught(kind: str, answer: str, tell: str) -> None:
    flagged = _audit(answer)
    assert any(_shown(f.number) in _shown(tell) for f in flagged), flagged


CONTROLS: list[tuple[str, str]] = [
    ("a correct 分别 list of targets, the target named in a lead clause",
     "按2025年目标,中国内地新开和关闭的门店分别约为20家和35家。"
     f"{_cite(PLAN, 'section=1.2,para=1')}"),
    ("the labels in their order",
     f"全职员工每日工作不超过8小时,每周标准工时为40小时。{_cite(FAQ, 'para=10')}"),
    ("negatives restated in words, 上年为 naming the figure's year",
     f"2024年中国内地同店销售下降4.1%,上年为下降2.8%。{_cite(MDA, 'section=1.2,para=5')}"),
    ("an exact unit conversion (months as years)",
     "也就是说,新店项目须在3年内收回投资,改造项目须在2年内收回。"
     f"{_cite(PLAN, 'section=1.4,para=2')}"),
    ("八折 and 六折 as 20% and 40% off",
     "In other words, goods unsold after 90 days are marked down by 20%, and after 120 days by "
     f"40%. {_cite(PRICE, 'section=1.4,para=1')}"),
    ("a markdown footnote marker",
     f"香港收入增长约11%[^1]。{_cite(MDA, 'section=1.4,para=1')}\n\n"
     f"[^1]: 2024年香港收入由410百万美元增至455百万美元。{_cite(MDA, 'section=1.4,para=1')}"),
    ("a URL holding a year and digits",
     "The ESG Report 2024 (https://ir.acme.example/esg-report-2024) sets a target to cut Scope 1 "
     "and 2 emissions intensity by 30% by 2030 against a 2022 baseline. "
     f"{_cite(ESG, 'section=1.2,para=2')}"),
    ("一半 as 50%, with a count of the items the sentence names",
     f"坪效和门店EBITDA率两项合计占考核总分的50%。{_cite(PLAN, 'section=1.5,para=1')}"),
    ("a from-to pair in English",
     "Over 2024 the number of distribution centres serving mainland China stores fell from 14 to "
     f"9. {_cite(SUPPLY, 'section=1.2,para=1')}"),
    ("接近 on the right side of the mark",
     f"2024财年集团收入接近24亿美元。{_cite(MDA, 'section=1.1,para=1')}"),
    ("a range restated as a range",
     f"Hong Kong's 2025 target is six to eight new stores. {_cite(PLAN, 'section=1.2,para=2')}"),
    ("a net change restated as net",
     f"中国内地门店网络净收缩(年内净关闭45家,年末为540家)。{_cite(MDA, 'section=1.2,para=2')}"),
    ("a figure the passage labels only by comparison (高于上年的5.4%)",
     f"2023年香港同店销售增长为5.4%。{_cite(MDA, 'section=1.4,para=1')}"),
    ("working days restated as working days",
     f"相关个人信息须在15个工作日内删除。{_cite(PIPL, 'section=1.6,para=1')}"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "answer"), CONTROLS, ids=[c[0] for c in CONTROLS])
def test_a_control_raises_no_alarm(kind: str, answer: str) -> None:
    assert [(f.number, f.reason) for f in _audit(answer)] == []


def test_a_passage_given_to_the_model_is_a_source() -> None:
    """The same board figure, where the minutes were given (a cleared caller): supported, and a
    target's deadline in a later clause (目标在2025年上半年内) is not the figure's period."""
    answer = (
        "董事会授权与优先买方开展为期八周的排他性谈判,目标在2025年上半年内签署协议。"
        f"{_cite(BOARD, 'section=1.2,para=4')}"
    )
    assert _audit(answer, given=set(PASSAGES)) == []


def test_the_harness_gives_the_audit_only_the_passages_the_model_was_given() -> None:
    """The harness's audit reads a citation of a stored passage outside the answer's sources
    (the passages retrieved for it) as no source."""
    answer = f"董事会同意与优先买方开展为期八周的排他性谈判。{_cite(BOARD, 'section=1.2,para=4')}"

    def seen(sources: list[dict[str, str]]) -> Observed:
        return Observed(
            question="", answer=answer, route="narrative", clarification="none",
            assumption_note="", narrowing_options=[], tool_results=[], sources=sources,
            guard_triggered=False, chunk_text=lambda doc, at: PASSAGES.get((doc, at)),
            names=NAMES,
        )  # fmt: skip

    board = {"doc": BOARD, "locator": "section=1.2,para=4"}
    other = {"doc": MDA, "locator": "section=1.1,para=1"}
    assert [(f.number, f.reason) for f in audit(seen([other]), answer)] == [("八", "unsupported")]
    assert audit(seen([other, board]), answer) == []
