"""The guard holds a number to its context, on the ACME demo corpus with the real retriever.

A figure that really is in a cited passage, but belongs to another period, entity, metric,
channel or currency, to a target rather than a result, or to the other end of a change, is
removed; so is one that the question wrote, or one smuggled in a notation the reader must read.
Each model reply is scripted through the provider seam; the passages are what the retriever
finds for the question. The controls restate the passages correctly in ways the stricter reading
must not mistake for a fabrication.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.agent import AgentResult, answer_question
from ragspine.agent.grounding import REMOVED_MARKER
from ragspine.agent.wording import say
from ragspine.retrieval.retriever import HybridRetriever
from ragspine.storage.fact_store import FactStore
from tests.fakes.providers import ScriptedProvider, text_reply, tool_reply

REF = date(2025, 6, 30)
MDA, FY23 = "ACME_FY2024_MDA.md", "ACME_FY2023_Review.md"
ESG, CLUB, PLAN = (
    "ACME_ESG_Report_2024.md",
    "ACME_Membership_Program.md",
    "ACME_2025_Store_Strategy.md",
)


def cite(locator: str, doc: str = MDA) -> str:
    return f"(来源:{doc} {locator})"


# Questions, each with the passages the real retriever finds for it (checked below).
Q_HK = "香港业务的增长驱动因素是什么?"  # MDA 1.4 paras 1 and 3
Q_CN = "内地门店网络有什么变化?"  # MDA 1.2,1 (1400 → 1320), FY2023 review 1.2,2, MDA 1.3,1
Q_ONLINE = "线上业务为什么逆势增长?"  # MDA 1.3,1 (22% → 27% of mainland revenue)
Q_ESG = "What is ACME's emissions target?"  # ESG 1.2,2 (a 2030 target), membership 1.4,2
Q_STORES = "中国内地关店情况如何?"  # MDA 1.2,2 (45, 540), 2025 plan 1.2,1, MDA 1.1,3 (876)
Q_PAYBACK = "门店投资回收期有什么要求?"  # 2025 plan 1.4,2
Q_WHY_CN = "为什么中国内地FY2024收入下降?"  # composite: the fact 1,320 for FY2024
Q_PREMISE = "为什么香港收入增长40%?"  # composite; the passage says about 11%
HK1, HK3 = cite("section=1.4,para=1"), cite("section=1.4,para=3")
CN1, CN23 = cite("section=1.2,para=1"), cite("section=1.2,para=2", FY23)
ON1, ESG2 = cite("section=1.3,para=1"), cite("section=1.2,para=2", ESG)
CLUB2, PLAN1 = cite("section=1.4,para=2", CLUB), cite("section=1.2,para=1", PLAN)
PAY = cite("section=1.4,para=2", PLAN)
CN_2024 = {"metric": "REVENUE", "entity": "ACME_CN", "period": "FY2024"}
HK_2024 = {"metric": "REVENUE", "entity": "ACME_HK", "period": "FY2024"}


@pytest.fixture(scope="module")
def retriever(demo_corpus: Path) -> HybridRetriever:
    return HybridRetriever.open(demo_corpus)


def ask(
    store: FactStore,
    retriever: HybridRetriever,
    question: str,
    reply: str,
    task: dict[str, str] | None = None,
) -> AgentResult:
    steps = [text_reply(reply)]
    if task is not None:  # composite: the tool loop first, then the synthesis
        steps = [tool_reply({"input": task}), text_reply(""), *steps]
    return answer_question(
        question, store, ScriptedProvider(steps), reference_date=REF, narrative_retriever=retriever
    )


def _marker(result: AgentResult) -> str:
    """What stands where a sentence was removed, in the answer's language."""
    return REMOVED_MARKER if result.language == "zh" else say("guard.removed", "en")


def removed(result: AgentResult, fabricated: str) -> bool:
    shown = result.answer.split(say("attribution", result.language))[-1]
    return _marker(result) in shown and fabricated not in shown


def kept(result: AgentResult) -> bool:
    return _marker(result) not in result.answer and not result.trace.counts.get(
        "narrative_numbers_removed"
    )


@pytest.mark.parametrize(
    ("question", "locators"),
    [
        (Q_HK, [(MDA, "section=1.4,para=1"), (MDA, "section=1.4,para=3")]),
        (Q_CN, [(MDA, "section=1.2,para=1"), (FY23, "section=1.2,para=2")]),
        (Q_ONLINE, [(MDA, "section=1.3,para=1")]),
        (Q_ESG, [(ESG, "section=1.2,para=2"), (CLUB, "section=1.4,para=2")]),
        (Q_STORES, [(MDA, "section=1.2,para=2"), (PLAN, "section=1.2,para=1")]),
        (Q_PAYBACK, [(PLAN, "section=1.4,para=2")]),
        (Q_WHY_CN, [(MDA, "section=1.2,para=1")]),
        (Q_PREMISE, [(MDA, "section=1.4,para=1")]),
    ],
)
def test_the_cited_passages_are_the_ones_retrieved(
    retriever: HybridRetriever, question: str, locators: list[tuple[str, str]]
) -> None:
    """Every citation below names a passage the retriever finds: a removal is the guard's."""
    found = {(h.doc_id, h.locator) for h in retriever.retrieve(question, top_k=5)}
    assert set(locators) <= found


# -- attacks: a real figure in the wrong context ------------------------------------------------

ATTACKS = [
    # the FY2023 value stated as FY2024 (the passage gives 1400 as 上年's)
    ("wrong_period", Q_CN, f"2024年中国内地收入为1400百万美元。{CN1}", "1400"),
    ("wrong_period", Q_CN, f"FY2024中国内地收入为1400百万美元。{CN23}", "1400"),
    # one region's figure given to another
    ("wrong_entity", Q_HK, f"2024年东南亚收入由410百万美元增至455百万美元。{HK1}", "455"),
    ("wrong_entity", Q_HK, f"年内台湾门店由92家增至97家。{HK3}", "97"),
    # a margin stated as growth (40.1% is Hong Kong's gross margin)
    ("wrong_metric", Q_HK, f"2024年香港收入增长40.1%。{HK1}", "40.1"),
    ("wrong_metric", Q_HK, f"香港收入增长约40%。{HK1}", "40%"),
    # a share "of group revenue" that the source gives for mainland China
    ("wrong_entity", Q_ONLINE, f"线上收入占集团收入的比重提升至27%。{ON1}", "27%"),
    ("wrong_entity", Q_ONLINE, f"Online sales reached 27% of group revenue. {ON1}", "27%"),
    # a target stated as a result
    (
        "target_as_result", Q_ESG,
        f"In 2024 ACME cut emissions intensity per square metre by 30%. {ESG2}",
        "30%",
    ),
    (
        "target_as_result", Q_ESG,
        f"In 2024 members accounted for 60% of group sales. {CLUB2}",
        "60%",
    ),
    ("target_as_result", Q_STORES, f"2024年中国内地关闭了35家门店。{PLAN1}", "35"),
    # "fell from 455 to 410" where the source says rose from 410 to 455
    ("reversed", Q_HK, f"2024年香港收入由455百万美元降至410百万美元。{HK1}", "455"),
    (
        "reversed", Q_HK,
        f"Hong Kong revenue fell from US$455 million to US$410 million. {HK1}",
        "455",
    ),
    # 百万美元 turned into 百万港元 or 人民币 with the same digits
    ("wrong_currency", Q_HK, f"2024年香港收入由410百万港元增至455百万港元。{HK1}", "455"),
    ("wrong_currency", Q_CN, f"FY2024中国内地收入降至1320百万人民币。{CN1}", "1320"),
    ("wrong_currency", Q_CN, f"FY2024中国内地收入降至13.2亿元。{CN1}", "13.2"),
    # coarse rounding: about USD 1 billion is not 1,320 million
    ("unsupported", Q_CN, f"Mainland China revenue fell to about USD 1 billion.{CN1}", "1 billion"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("question", "reply", "fabricated"),
    [a[1:] for a in ATTACKS],
    ids=[f"{a[0]}-{i}" for i, a in enumerate(ATTACKS)],
)
def test_a_real_figure_in_another_context_is_removed(
    store: FactStore, retriever: HybridRetriever, question: str, reply: str, fabricated: str
) -> None:
    result = ask(store, retriever, question, reply)
    assert result.route == "narrative"
    assert removed(result, fabricated), result.answer
    trace = result.trace.to_dict()  # codes and counts, never the text
    assert fabricated not in str([trace["codes"], trace["counts"], trace["flags"]])


TABLE_HEAD = (
    f"2024年香港收入{HK1}\n| 地区 | FY2023收入(百万美元) | FY2024收入(百万美元) |\n|---|---|---|"
)


def test_a_table_with_its_columns_swapped_is_caught(
    store: FactStore, retriever: HybridRetriever
) -> None:
    """Each cell takes its row and column as context: 455 under FY2023 is not FY2023's."""
    row = f"| 香港 | 455 | 410 | {HK1} |"
    head = "| 地区 | FY2023收入(百万美元) | FY2024收入(百万美元) | 来源 |\n|---|---|---|---|"
    result = ask(store, retriever, Q_HK, f"香港收入如下:\n{head}\n{row}")
    assert "| 香港 |" in result.answer and REMOVED_MARKER in result.answer
    assert "455" not in result.answer and "410" not in result.answer


def test_a_table_with_the_right_columns_stands(
    store: FactStore, retriever: HybridRetriever
) -> None:
    """The same table the right way round, cited after it: row, column and unit note read."""
    table = f"{TABLE_HEAD}\n| 香港 | 410 | 455 |"
    result = ask(store, retriever, Q_HK, table)
    assert kept(result), result.answer
    assert "| 香港 | 410 | 455 |" in result.answer


# -- the structured half, and the question, are no cover ---------------------------------------


@pytest.mark.parametrize(
    ("reply", "fabricated"),
    [
        # the fact line echoed under another label: 1,320 is mainland China's, not Hong Kong's
        (
            "香港 FY2024 收入:1,320 百万美元"
            "(来源:ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024)",
            "1,320",
        ),
        ("中国内地 FY2023 收入:1,320 百万美元。", "1,320"),
        # the slot check bypassed by naming another channel or period in prose
        (f"中国内地线上收入为1320百万美元。{CN1}", "1320"),
        (f"FY2023中国内地收入降至1320百万美元。{CN1}", "1320"),
    ],
)
def test_a_found_fact_supports_only_its_own_slots(
    store: FactStore, retriever: HybridRetriever, reply: str, fabricated: str
) -> None:
    result = ask(store, retriever, Q_WHY_CN, reply, task=CN_2024)
    assert result.route == "composite"
    assert "1,320 百万美元" in result.answer.split("归因分析:")[0]
    assert removed(result, fabricated), result.answer


def test_a_fact_line_under_a_label_of_change_is_another_quantity(
    store: FactStore, retriever: HybridRetriever
) -> None:
    """540 is the number of stores at year end; 新开门店数 (stores opened) is another quantity."""
    task = {"metric": "STORE_COUNT", "entity": "ACME_CN", "period": "FY2024"}
    reply = "中国内地 FY2024 新开门店数:540 家"
    result = ask(store, retriever, "为什么中国内地FY2024门店数减少?", reply, task=task)
    assert result.route == "composite" and "540 家" in result.answer.split("归因分析:")[0]
    assert removed(result, "540"), result.answer


def test_the_composite_half_may_quote_another_years_own_figure(
    store: FactStore, retriever: HybridRetriever
) -> None:
    """Two passages in one sentence: 410 is the FY2023 review's own year's figure, not a value
    given to the FY2024 slot (455)."""
    reply = (
        "香港收入由380百万美元增至410百万美元,同店销售增长为5.4%,2024年香港收入由410百万美元"
        "增至455百万美元,增长约11%,同店销售增长为6.8%,高于上年的5.4%。"
        f"(来源:{FY23} section=1.2,para=3、{MDA} section=1.4,para=1)"
    )
    result = ask(store, retriever, "为什么香港FY2024收入增长?", reply, task=HK_2024)
    assert result.route == "composite" and kept(result), result.answer


def test_the_questions_premise_is_never_a_source(
    store: FactStore, retriever: HybridRetriever
) -> None:
    """The user wrote 增长40%; the passage says about 11% (and 40.1% for the margin)."""
    reply = f"香港收入增长40%,主要受旅游业复苏推动。{HK1}"
    result = ask(store, retriever, Q_PREMISE, reply, task=HK_2024)
    assert result.route == "composite"
    assert removed(result, "40%"), result.answer
    narrative = ask(store, retriever, "香港业务为什么增长40%?", reply)
    assert narrative.route == "narrative" and removed(narrative, "40%")


# -- notations that smuggle a number ------------------------------------------------------------

SMUGGLED = [
    ("full-width comma", "年末门店数为45，540家。", "540"),  # 45,540, not 45 and 540
    ("plain space", "年末门店数为45 540家。", "540"),
    ("thin space", "年末门店数为45\u2009540家。", "540"),
    ("narrow no-break space", "年末门店数为45\u202f540家。", "540"),
    ("emphasis", "年末门店数为**45**540家。", "540"),
    ("markup", "年末门店数为45<b>540</b>家。", "540"),
    ("Roman numeral", "年内中国内地净关闭Ⅻ家门店。", "关闭"),
    ("Suzhou numerals", "年内中国内地净关闭〥〥家门店。", "关闭"),
    ("卅", "年内中国内地净关闭卅家门店。", "关闭"),
    ("a four-digit count", "The group had 1999 stores at the end of 2024.", "1999"),
]


@pytest.mark.parametrize(
    ("prose", "shown"), [s[1:] for s in SMUGGLED], ids=[s[0] for s in SMUGGLED]
)
def test_a_number_in_any_notation_is_read(
    store: FactStore, retriever: HybridRetriever, prose: str, shown: str
) -> None:
    locator = "section=1.1,para=3" if "group" in prose else "section=1.2,para=2"
    result = ask(store, retriever, Q_STORES, f"{prose}{cite(locator)}")
    assert removed(result, shown), result.answer


def test_a_figure_inside_a_malformed_citation_is_read(
    store: FactStore, retriever: HybridRetriever
) -> None:
    reply = "中国内地门店有所减少(来源:ACME_FY2024_MDA.md section=1.2,para=2,净关闭60家)。"
    result = ask(store, retriever, Q_STORES, reply)
    assert removed(result, "60"), result.answer


# -- controls: correct restatements stand --------------------------------------------------------

CONTROLS = [
    # legitimate rounding
    ("rounding", Q_HK, f"2024年香港收入增长约11%。{HK1}"),
    ("rounding", Q_CN, f"Mainland China revenue fell to about USD 1.3 billion in FY2024. {CN1}"),
    # a passage's 上年 figure restated with the right year
    ("上年 with its year", Q_CN, f"2023年中国内地收入为1400百万美元。{CN1}"),
    ("上年 with its year", Q_CN, f"内地收入由2023年的1400百万美元降至2024年的1320百万美元{CN1}"),
    # a quote that carries its own context, under a heading naming another region
    (
        "a quote with its own context", Q_HK,
        f"## 东南亚与香港\n2024年香港收入由410百万美元增至455百万美元,增长约11%,同店销售增长为6.8%,"
        f"高于上年的5.4%。{HK1}",
    ),
    # a sourced figure in prose, with its own context
    ("prose with context", Q_HK, f"香港门店在2024年由92家增至97家。{HK3}"),
    ("prose with context", Q_ONLINE, f"线上收入占中国内地收入的比重由22%升至27%。{ON1}"),
    ("prose with context", Q_ESG, f"ACME aims to cut emissions per sq metre by 30% by 2030.{ESG2}"),
    # a citation naming two passages
    (
        "two passages", Q_HK,
        f"2024年香港收入由410百万美元增至455百万美元,门店由92家增至97家。"
        f"(来源:{MDA} section=1.4,para=1、{MDA} section=1.4,para=3)",
    ),
    # traditional 億 (and traditional characters for the region)
    ("traditional", Q_CN, f"FY2024中國內地收入約13.2億美元。{CN1}"),
    # compound amounts and English number words, read right
    ("compound", Q_CN, f"FY2024中国内地收入为13亿2000万美元。{CN1}"),
    (
        "English words", Q_CN,
        "Mainland China revenue fell to one thousand three hundred and twenty million US dollars."
        f"{CN1}",
    ),
    ("English words", Q_CN, f"Mainland China revenue was one point three billion dollars. {CN1}"),
    # labels, not claims: inline ①②③ and a section number in prose
    ("inline list", Q_CN, f"中国内地收入下降的原因有:①门店净关闭;②汇率折算;③消费需求疲弱。{CN1}"),
    ("section number", Q_CN, f"详见第2节:中国内地收入下降约5.7%。{CN1}"),
    # a target restated as a target
    ("target", Q_STORES, f"2025年中国内地计划关闭约35家门店。{PLAN1}"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("question", "reply"), [c[1:] for c in CONTROLS], ids=[c[0] for c in CONTROLS]
)
def test_a_correct_restatement_stands(
    store: FactStore, retriever: HybridRetriever, question: str, reply: str
) -> None:
    result = ask(store, retriever, question, reply)
    assert result.route == "narrative"
    assert kept(result), result.answer


def test_the_composite_half_may_restate_other_years_of_its_slot(
    store: FactStore, retriever: HybridRetriever
) -> None:
    reply = f"中国内地收入由上年的1400百万美元下降至1320百万美元,降幅约为5.7%。{CN1}"
    result = ask(store, retriever, Q_WHY_CN, reply, task=CN_2024)
    assert kept(result), result.answer


PAYBACK = "所有新店项目须满足投资回收期不超过36个月的门槛,改造项目的回收期不超过24个月。"


@pytest.mark.parametrize(
    "reply",
    [
        f"## 2023年的门店要求\n{PAYBACK}{PAY}",  # under a heading
        f"2023年起执行如下要求。{PAYBACK}{PAY}",  # after a phrase
    ],
)
def test_a_quote_put_in_another_context_is_read_in_it(
    store: FactStore, retriever: HybridRetriever, reply: str
) -> None:
    """Word for word from the 2025 plan, but put under 2023: read as 2023's, it is not."""
    result = ask(store, retriever, Q_PAYBACK, reply)
    assert removed(result, "36个月"), result.answer


def test_the_same_quote_alone_stands(store: FactStore, retriever: HybridRetriever) -> None:
    result = ask(store, retriever, Q_PAYBACK, f"{PAYBACK}{PAY}")
    assert kept(result), result.answer


PARAPHRASES = [
    (Q_HK, f"受旅游业复苏带动,香港收入从410百万美元增长到455百万美元,增幅约11%。{HK1}"),
    (Q_HK, f"香港同店销售增长6.8%,高于2023年的5.4%。{HK1}"),
    (Q_HK, f"In 2024, Hong Kong revenue rose about 11% to US$455 million.{HK1}"),
    (Q_HK, f"香港毛利率提升至40.1%,为集团最高。{HK1}"),
    (Q_CN, f"中国内地收入同比下降约5.7%,至1320百万美元。{CN1}"),
    (Q_CN, f"2024年内地收入为13.2亿美元,上年为14亿美元。{CN1}"),
    (Q_CN, f"Mainland China revenue fell 5.7% to $1.32 billion in FY2024 from $1.4 billion.{CN1}"),
    (Q_CN, f"2023财年中国内地收入为1400百万美元,同店销售增长-2.8%。{CN23}"),
    (
        Q_ONLINE,
        f"Online revenue grew more than 15%, lifting its share of mainland revenue to 27%.{ON1}",
    ),
    (Q_STORES, f"中国内地全年净关闭45家门店,年末剩余540家。{cite('section=1.2,para=2')}"),
    (Q_STORES, f"集团门店总数减少20家至876家。{cite('section=1.1,para=3')}"),
    (Q_ESG, f"ACME targets a 30% cut in Scope 1 and 2 emissions intensity by 2030.{ESG2}"),
    (Q_ESG, f"The target is for members to account for 60% of group sales in 2025.{CLUB2}"),
]


@pytest.mark.parametrize(("question", "reply"), PARAPHRASES)
def test_a_faithful_paraphrase_stands(
    store: FactStore, retriever: HybridRetriever, question: str, reply: str
) -> None:
    """Other words, the same figures in the same context: from/to either way round, 增长到,
    a share 'of' its whole, a target kept a target, a change and the level it reached."""
    result = ask(store, retriever, question, reply)
    assert kept(result), result.answer
