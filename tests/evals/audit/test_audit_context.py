"""Issue 21, the audit's side: a figure that really is in a cited source but belongs to another
period, entity, metric, channel or currency, or is a target, or runs the other way, is not
supported; the question is no source; precision and notations follow the shared contract.

Each class has its own instances, written as strings: the answer, the tool results, the cited
passages (taken from the ACME demo corpus, with their heading path and document as the harness
hands them over). Each test lists the findings it expects, reason included; a control expects
none."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.evals.audit.findings import audit_answer
from ragspine.evals.audit.sources import with_context
from ragspine.evals.run.runner import slot_names
from ragspine.profile import default_profile

NAMES = slot_names(default_profile())
MDA = "ACME_FY2024_MDA.md"
MDA_TITLE = "ACME集团2024财年管理层讨论与分析"


def _mda(heading: str, text: str) -> str:
    return with_context(
        text, title=f"{MDA_TITLE} › {heading}", entity="ACME_GROUP", period="FY2024"
    )


PASSAGES = {
    (MDA, "section=1.1,para=1"): _mda(
        "一、集团整体表现",
        "2024财年(FY2024),集团收入为2398百万美元,较上年的2370百万美元增长约1.2%。"
        "各区域表现明显分化:香港和东南亚保持较快增长,台湾基本平稳,中国内地则继续下降。",
    ),
    (MDA, "section=1.2,para=1"): _mda(
        "二、中国内地:收入下降的原因",
        "FY2024中国内地收入由上年的1400百万美元下降至1320百万美元,降幅约为5.7%。管理层将下降"
        "归因于四个相互叠加的因素:门店网络净收缩、人民币兑美元贬值带来的汇率折算影响、消费需求疲弱,"
        "以及同店销售持续下滑。以下逐项说明。",
    ),
    (MDA, "section=1.3,para=1"): _mda(
        "三、线上业务:为何逆势增长",
        "与线下相反,中国内地线上收入全年增长超过15%,线上收入占中国内地收入的比重由上年的22%提升"
        "至27%。",
    ),
    (MDA, "section=1.4,para=1"): _mda(
        "四、香港:增长的驱动因素",
        "2024年香港收入由410百万美元增至455百万美元,增长约11%,同店销售增长为6.8%,高于上年的5.4%。"
        "增长主要由旅游业复苏、内地访客回流和新店贡献共同推动。香港业务的毛利率进一步提升至40.1%,"
        "是集团盈利能力最强的区域。",
    ),
    (MDA, "section=1.5,para=1"): _mda(
        "五、东南亚与台湾",
        "东南亚收入由340百万美元增至395百万美元,同店销售增长为6.3%。增长来自既有门店的稳健表现以及"
        "年内新开门店的爬坡,年末东南亚门店数为176家。",
    ),
    (MDA, "section=1.5,para=2"): _mda(
        "五、东南亚与台湾", "台湾收入为228百万美元,较上年小幅增长,年末门店数为63家。"
    ),
    # a sentence that names no region: the section heading says whose it is
    ("SEA_Note.md", "section=1.1,para=1"): _mda(
        "五、东南亚", "区域毛利率持续改善,年末门店数为176家。"
    ),
    ("ACME_ESG_Report_2024.md", "section=1.2,para=1"): with_context(
        "We have set a target to reduce Scope 1 and 2 emissions intensity per square metre of "
        "selling space by 30% by 2030 against a 2022 baseline. This is a target, not a result.",
        title="ACME Group ESG Report 2024 › Climate: emissions and energy",
        entity="ACME_GROUP",
        period="FY2024",
    ),
    ("ACME_Membership_Program.md", "section=1.4,para=1"): with_context(
        "Our target for 2025 is for members to account for 60% of group sales; this is a target "
        "rather than a reported figure.",
        title="ACME Club Membership Programme › Targets",
        entity="ACME_GROUP",
    ),
}


def _cite(locator: str, doc: str = MDA) -> str:
    return f"(来源:{doc} {locator})"


def _fact(
    entity: str, year: str, value: float, metric: str = "REVENUE", **kw: Any
) -> dict[str, Any]:
    unit = "PCT" if metric in ("GROSS_MARGIN", "SSSG") else "USD_M"
    slide = {"ACME_CN": 2, "ACME_HK": 3, "ACME_TW": 4}[entity]
    return {
        "status": "found", "value": value, "unit": unit, "metric_code": metric,
        "entity": entity, "period_type": "FY", "period": year, "channel": "TOTAL",
        "source": {
            "doc": f"ACME_FY{year}_Review.pptx",
            "locator": f"slide={slide},table=1,row={metric},col=FY{year}",
        },
        **kw,
    }  # fmt: skip


HK_2023, HK_2024 = _fact("ACME_HK", "2023", 410.0), _fact("ACME_HK", "2024", 455.0)
CN_2023, CN_2024 = _fact("ACME_CN", "2023", 1400.0), _fact("ACME_CN", "2024", 1320.0)
HK_GM = _fact("ACME_HK", "2024", 40.1, "GROSS_MARGIN")
CN_LINE = "(来源:ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024)"


def _audit(
    answer: str, facts: list[dict[str, Any]] | None = None, **kw: Any
) -> list[tuple[str, str]]:
    found = audit_answer(
        answer,
        tool_results=facts or [],
        chunk_text=lambda doc, at: PASSAGES.get((doc, at)),
        names=NAMES,
        **kw,
    )
    return [(f.number, f.reason) for f in found]


Case = tuple[str, list[dict[str, Any]], list[tuple[str, str]]]


def _check(cases: list[Case], **kw: Any) -> None:
    got = [(answer, _audit(answer, facts, **kw)) for answer, facts, _ in cases]
    assert got == [(answer, want) for answer, _, want in cases]


def test_a_figure_of_another_period_is_not_supported() -> None:
    _check([
        # the FY2023 value stated as FY2024: the passage gives 2370 to 上年
        (f"集团FY2024收入为2370百万美元。{_cite('section=1.1,para=1')}", [],
         [("2370百万", "wrong_period")]),
        # the FROM value of 由410增至455 is the year before the sentence's 2024
        (f"香港2023年收入为455百万美元。{_cite('section=1.4,para=1')}", [],
         [("455百万", "wrong_period")]),
        # another period named in prose for the structured slot
        ("2023年中国内地收入为1,320百万美元。", [CN_2024], [("1,320百万", "wrong_period")]),
        # control: the passage's 上年 figure restated with the right year
        (f"集团FY2023收入为2370百万美元。{_cite('section=1.1,para=1')}", [], []),
        (f"FY2023中国内地收入为1400百万美元。{_cite('section=1.2,para=1')}", [], []),
    ])  # fmt: skip


def test_each_figure_takes_the_period_written_with_it() -> None:
    facts = [HK_2023, HK_2024]
    _check([
        # 分别 / respectively: the i-th figure has the i-th period
        ("香港2023年和2024年收入分别为410和455百万美元。", facts, []),
        ("Hong Kong revenue in 2023 and 2024 was 410 and 455 million US dollars respectively.",
         facts, []),
        ("香港2023年和2024年收入分别为455和410百万美元。", facts,
         [("455", "wrong_period"), ("410百万", "wrong_period"),
          ("455", "contradicts_fact"), ("410百万", "contradicts_fact")]),
        # a period written after the figure, in its clause
        ("Hong Kong revenue was USD 455 million in FY2024, compared with USD 410 million in "
         "FY2023.", facts, []),
        ("Hong Kong revenue was USD 410 million in FY2024, compared with USD 455 million in "
         "FY2023.", facts,
         [("410 million", "wrong_period"), ("455 million", "wrong_period"),
          ("410 million", "contradicts_fact"), ("455 million", "contradicts_fact")]),
        # the FROM value of a pair, with or without its own year
        (f"In FY2024 Hong Kong revenue rose to USD 455 million, up from USD 410 million. "
         f"{_cite('section=1.4,para=1')}", [], []),
        (f"香港收入从2023年的410百万美元增长到2024年的455百万美元。{_cite('section=1.4,para=1')}",
         [], []),
    ])  # fmt: skip


def test_a_figure_of_another_entity_is_not_supported() -> None:
    _check([
        # one region's figure given to another
        (f"台湾FY2024收入为455百万美元。{_cite('section=1.4,para=1')}", [],
         [("455百万", "wrong_entity")]),
        # the passage's sentence names no region: its section heading does
        (f"台湾年末门店数为176家。{_cite('section=1.1,para=1', 'SEA_Note.md')}", [],
         [("176", "wrong_entity")]),
        # a fact line echoed under another label
        (f"香港 FY2024 收入:1,320 百万美元{CN_LINE}", [CN_2024], [("1,320 百万", "wrong_entity")]),
        # control: the fact line itself, and the heading's region
        (f"中国内地 FY2024 收入:1,320 百万美元{CN_LINE}", [CN_2024], []),
        (f"东南亚年末门店数为176家。{_cite('section=1.1,para=1', 'SEA_Note.md')}", [], []),
    ])  # fmt: skip


def test_a_figure_of_another_metric_or_channel_is_not_supported() -> None:
    _check([
        # a margin stated as growth, from the passage and from the found fact
        (f"香港收入增长40.1%。{_cite('section=1.4,para=1')}", [], [("40.1%", "wrong_metric")]),
        ("香港FY2024收入同比增长40.1%。", [HK_GM], [("40.1%", "wrong_metric")]),
        # a share stated as growth
        (f"中国内地线上收入增长27%。{_cite('section=1.3,para=1')}", [],
         [("27%", "wrong_metric")]),
        # another channel named in prose for the structured slot
        ("中国内地线上收入为1,320百万美元。", [CN_2024], [("1,320百万", "wrong_channel")]),
        # control: the margin as a margin
        ("香港FY2024毛利率为40.1%。", [HK_GM], []),
    ])  # fmt: skip


def test_a_sourced_figure_in_prose_keeps_its_own_context() -> None:
    cite = _cite("section=1.4,para=1")
    _check([
        (f"据管理层讨论与分析,2024年香港收入由410百万美元增至455百万美元。{cite}", [], []),
        (f"据管理层讨论与分析,2024年东南亚收入由410百万美元增至455百万美元。{cite}", [],
         [("410百万", "wrong_entity"), ("455百万", "wrong_entity")]),
    ])  # fmt: skip


def test_a_share_of_another_whole_is_not_supported() -> None:
    """The passage gives 27% as 中国内地's online share, not the group's."""
    _check([
        (f"线上收入占集团收入的27%。{_cite('section=1.3,para=1')}", [], [("27%", "wrong_entity")]),
        (f"Online sales were 27% of group revenue in 2024. {_cite('section=1.3,para=1')}", [],
         [("27%", "wrong_entity")]),
        (f"线上收入占中国内地收入的27%。{_cite('section=1.3,para=1')}", [], []),
    ])  # fmt: skip


def test_a_target_is_not_a_result() -> None:
    esg = _cite("section=1.2,para=1", "ACME_ESG_Report_2024.md")
    member = _cite("section=1.4,para=1", "ACME_Membership_Program.md")
    _check([
        (f"In 2024 ACME cut its emissions intensity by 30%. {esg}", [],
         [("30%", "target_as_result")]),
        (f"2024年会员贡献了集团销售的60%。{member}", [], [("60%", "target_as_result")]),
        (f"ACME aims to cut emissions intensity by 30% by 2030. {esg}", [], []),
        # 预计负债 is an accounting term, not a forecast; 增长到2024年 is a period, not a target
        ("2024年香港计入预计负债后的收入为455百万美元。", [HK_2024], []),
        ("香港收入增长到2024年的455百万美元。", [HK_2024], []),
    ])  # fmt: skip


def test_a_reversed_change_is_not_supported() -> None:
    """The passage says rose from 410 to 455."""
    _check([
        (f"Hong Kong revenue fell from 455 to 410 million US dollars in 2024. "
         f"{_cite('section=1.4,para=1')}", [],
         [("455", "reversed"), ("410 million", "reversed")]),
        (f"2024年香港收入由455百万美元下降至410百万美元。{_cite('section=1.4,para=1')}", [],
         [("455百万", "reversed"), ("410百万", "reversed")]),
        (f"Hong Kong revenue rose from 410 to 455 million US dollars in 2024. "
         f"{_cite('section=1.4,para=1')}", [], []),
    ])  # fmt: skip


def test_the_same_digits_in_another_currency_are_not_supported() -> None:
    _check([
        (f"2024年香港收入为455百万港元。{_cite('section=1.4,para=1')}", [],
         [("455百万", "wrong_currency")]),
        ("中国内地FY2024收入为人民币1,320百万元。", [CN_2024], [("1,320百万", "wrong_currency")]),
        ("中国内地FY2024收入为1,320百万美元。", [CN_2024], []),
    ])  # fmt: skip


def test_a_table_takes_its_row_and_column_as_context() -> None:
    table = "香港收入(百万美元):\n| 地区 | FY2023 | FY2024 |\n|---|---|---|\n| 香港 | {} | {} |"
    _check([
        (table.format(455, 410), [HK_2023, HK_2024],
         [("455", "wrong_period"), ("410", "wrong_period")]),
        (table.format(410, 455), [HK_2023, HK_2024], []),
        # a table under a citation: the passage's figures by its years
        (table.format(455, 410) + f"\n{_cite('section=1.4,para=1')}", [],
         [("455", "wrong_period"), ("410", "wrong_period")]),
    ])  # fmt: skip


def test_the_question_is_never_a_source() -> None:
    question = "为什么香港收入增长35%?"
    _check(
        [
            (f"香港收入增长35%,主要来自旅游业复苏。{_cite('section=1.4,para=1')}", [],
             [("35%", "unsupported")]),
            # control: the engine quoting back what it could not read is a mention, not a claim
            ("无法识别参数 period「2024Q5」,未进行查询。", [], []),
        ],
        question=question + " 2024Q5",
    )  # fmt: skip


def test_the_users_words_quoted_back_in_english_quotes_are_a_mention() -> None:
    question = "What was ACME Group's trailing-twelve-month revenue as of Q3 2024?"
    _check(
        [
            # the engine's English decline names what it cannot give, in the user's words
            ("“trailing-twelve-month revenue” is not in the fact table.", [], []),
            # the same words unquoted are a claim like any other
            ("Revenue over the trailing twelve months was reported.", [],
             [("twelve", "unsupported")]),
            # quoted words the question does not write are no mention of the user's
            ("“trailing-eleven-month revenue” is not in the fact table.", [],
             [("-eleven", "unsupported")]),
        ],
        question=question,
    )  # fmt: skip


def test_precision_is_what_the_figure_is_written_with_and_never_more_than_5_percent() -> None:
    _check([
        # (and, the sentence naming the slot, a contradiction of the found fact)
        ("Mainland China revenue was about USD 1 billion in FY2024.", [CN_2024],
         [("1 billion", "unsupported"), ("1 billion", "contradicts_fact")]),
        ("中国内地FY2024收入约为10亿美元。", [CN_2024],
         [("10亿", "unsupported"), ("10亿", "contradicts_fact")]),
        ("香港收入约增长30%。", [HK_2023, HK_2024], [("30%", "unsupported")]),
        # controls: the rounding a reader expects
        ("Mainland China revenue was about USD 1.3 billion in FY2024.", [CN_2024], []),
        ("中国内地FY2024收入约13亿美元。", [CN_2024], []),
        ("香港收入增长约11%。", [HK_2023, HK_2024], []),
    ])  # fmt: skip


@pytest.mark.parametrize(
    ("answer", "number"),
    [
        ("香港FY2024收入为1 455百万美元。", "1455百万"),  # a space inside the digits
        ("香港FY2024收入为1\u2009455百万美元。", "1455百万"),  # a thin space
        ("香港FY2024收入为1\u202f455百万美元。", "1455百万"),  # a narrow no-break space
        ("香港FY2024收入为**1**455百万美元。", "1455百万"),  # emphasis inside the digits
        ("香港FY2024收入为1<b>4</b>55百万美元。", "1455百万"),  # markup inside the digits
        ("香港FY2024收入为4亿6500万美元。", "4亿6500万"),  # a compound CJK amount
        ("香港FY2024收入为1千4百55万美元。", "1千4百55万"),  # digits between CJK units
        ("集團FY2024收入為25億美元。", "25亿"),  # traditional 億
        ("集团FY2024收入为貳仟肆佰百万美元。", "贰仟肆佰百万"),  # traditional 大写
        ("香港年内新开门店Ⅻ家。", "12"),  # a Roman numeral
        ("香港年内新开门店廿家。", "廿"),  # 廿 = 20
        ("中国内地年内净关闭〢〥家门店。", "25"),  # Suzhou numerals
        ("Taiwan now has 1999 stores.", "1999"),  # a four-digit count is no year
        ("Revenue was one point four five five billion US dollars.",
         "one point four five five billion"),  # English number words with "point"
    ],
)  # fmt: skip
def test_each_notation_is_read_and_cannot_smuggle_a_number(answer: str, number: str) -> None:
    assert _audit(answer) == [(number, "unsupported")]


def test_a_full_width_comma_groups_thousands_only_before_three_digits() -> None:
    assert _audit("香港FY2024收入为1，455百万美元。") == [("1,455百万", "unsupported")]
    assert _audit("两地分别新开1，45家门店。") == [("1", "unsupported"), ("45", "unsupported")]


def test_english_number_words_read_with_and_and_their_largest_scale() -> None:
    fact = [CN_2024]
    assert _audit("Revenue was one thousand three hundred and twenty million dollars.", fact) == []
    assert _audit("Revenue was one thousand three hundred and fifty million dollars.", fact) == [
        ("one thousand three hundred and fifty million", "unsupported")
    ]


def test_a_roman_numeral_is_an_amount_only_where_it_is_one() -> None:
    assert _audit("见第Ⅲ部分与 Phase II。") == []
    assert _audit("Hong Kong opened XII stores in 2024.") == [("XII", "unsupported")]
    assert _audit("香港年内新开门店Ⅻ家。") == [("12", "unsupported")]


def test_a_figure_in_malformed_citation_parentheses_is_read() -> None:
    for cite in [
        f"(来源:{MDA} section=1.4,para=1,收入增长40%)",  # a phrase after the locator
        "(来源:收入增长40%.md section=1.4,para=1)",  # a figure in a document's name
        f"(来源:{MDA} section=1.4,para=1,col=四成)",  # a figure in a locator's value
    ]:
        assert ("40%" if "40%" in cite else "四成", "unsupported") in _audit(
            f"香港收入增长约11%。{cite}"
        )
    # a well-formed citation of a document whose name has spaces is a citation
    hk = PASSAGES[(MDA, "section=1.4,para=1")]
    answer = "香港收入增长约11%。(来源:HK Review 2024.md section=1.1,para=1)"
    assert audit_answer(answer, chunk_text=lambda doc, at: hk, names=NAMES) == []


@pytest.mark.parametrize(
    "answer",
    [
        # a citation naming two passages
        f"香港收入增长约11%,台湾收入为228百万美元。"
        f"(来源:{MDA} section=1.4,para=1、{MDA} section=1.5,para=2)",
        # traditional 億 and a compound amount
        f"集團收入約為23.98億美元。{_cite('section=1.1,para=1')}",
        f"2024年香港收入为4亿5500万美元。{_cite('section=1.4,para=1')}",
        # inline ①②③ lists, a section number in prose
        f"中国内地收入下降的原因:①门店净关闭;②汇率折算;③需求疲弱。{_cite('section=1.2,para=1')}",
        f"详见第3节及 section 4.2。{_cite('section=1.2,para=1')}",
        # English number words with "and"
        "Mainland China revenue was one thousand three hundred and twenty million US dollars in "
        "FY2024.",
    ],
)
def test_a_correct_answer_in_any_notation_raises_no_alarm(answer: str) -> None:
    assert _audit(answer, [CN_2024]) == []


def test_a_quote_under_a_heading_takes_the_headings_context() -> None:
    """A quote whose sentence names no region, put under another region's heading."""
    quote = f"区域毛利率持续改善,年末门店数为176家。{_cite('section=1.1,para=1', 'SEA_Note.md')}"
    assert _audit(quote) == []
    assert _audit(f"## 东南亚\n{quote}") == []
    assert _audit(f"东南亚:\n{quote}") == []
    assert _audit(f"## 台湾\n{quote}") == [("176", "wrong_entity")]
    assert _audit(f"台湾:\n{quote}") == [("176", "wrong_entity")]


STRATEGY = with_context(
    "中国内地:2025年的目标是新开约20家、关闭约35家门店。关闭对象以连续两个财年亏损的门店为主。",
    title="2025年门店发展策略 › 二、分区域开关店计划",
    entity="ACME_GROUP",
    period="2025",
)


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # the passage's opening label names its entity for every sentence of it, before the
        # document's (ACME_GROUP): the second sentence is about 中国内地 too
        ("中国内地关闭的是连续两个财年亏损的门店。", []),
        # another region given the figure is still another entity
        ("香港关闭的是连续两个财年亏损的门店。", ["两 (wrong_entity)"]),
    ],
)
def test_a_passage_opening_with_a_label_is_about_what_it_names(
    answer: str, flagged: list[str]
) -> None:
    cite = "(来源:ACME_2025_Store_Strategy.md section=1.2,para=1)"
    texts = {("ACME_2025_Store_Strategy.md", "section=1.2,para=1"): STRATEGY}
    found = audit_answer(answer + cite, chunk_text=lambda d, loc: texts.get((d, loc)), names=NAMES)
    assert [f"{f.number} ({f.reason})" for f in found] == flagged
