"""Another company, or a ranking across companies: declined, never the home company's number."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.agent import answer_question
from ragspine.agent.intent import CLARIFY_OUT_OF_SCOPE_ENTITY, parse_intent
from ragspine.agent.scope import out_of_scope
from ragspine.profile import default_profile, load_profile
from ragspine.storage.fact_store import Fact, FactStore
from tests.agent.conftest import JINYU
from tests.fakes.providers import ExplodingProvider

PROFILE = default_profile()


@pytest.mark.parametrize(
    ("question", "kind", "name"),
    [
        # a legal name, as the real questions write them
        (
            "我想知道2019年北京高盟新材料股份有限公司营业外收入是多少元?",
            "company",
            "北京高盟新材料",
        ),
        (
            "提供江苏力星通用钢球股份有限公司2020年负债合计,单位为元。",
            "company",
            "江苏力星通用钢球",
        ),
        # a short name before the year, after a request
        ("请计算出韦尔股份2019年的企业研发经费与营业收入比值", "company", "韦尔股份"),
        ("立昂微2020年的企业研发经费与营业收入比值保留两位小数是多少?", "company", "立昂微"),
        # a short name after the year, before a statement term or 的
        ("2019年特变电工利息收入是多少元?", "company", "特变电工"),
        # a listed name before a per-unit word is still that company (居民人均 is not one)
        ("2024年特变电工人均收入是多少?", "company", "特变电工"),
        ("2020年汉马科技的法定代表人与上一年是否相同?", "company", "汉马科技"),
        ("在2021年,德创环保归属母公司所有者的净利润是多少元?", "company", "德创环保"),
        # a name that holds a common word is still a name
        ("请提供广汽集团2019年的营业外支出和营业外收入数据。", "company", "广汽集团"),
        ("在2020年,宝新能源的营业成本和营业利润分别是多少元?", "company", "宝新能源"),
        # a stock code
        ("600519 2021年的营业收入是多少?", "company", "600519"),
        # rankings across listed companies
        ("哪家上市公司2021年负债总金额第7高?", "ranking", ""),
        ("2021年净利润最高的5家上市公司是?", "ranking", ""),
        ("2020年注册地址在重庆,有多少上市公司的净利润大于五亿?", "ranking", ""),
        ("Which listed company had the highest revenue in 2021?", "ranking", ""),
        # a rule asked of another company: a listed name is still found
        ("2019年特变电工毛利率的底线是怎么规定的?", "company", "特变电工"),
        # a figure asked where a name stands: still guessed a name, never the group's figure
        ("2024年春节期间的收入是多少?", "company", "春节期间"),
    ],
)
def test_another_company_or_a_ranking_is_found(question: str, kind: str, name: str) -> None:
    found = out_of_scope(question, PROFILE)
    assert found is not None and (found.kind, found.name) == (kind, name)


@pytest.mark.parametrize(
    "question",
    [
        "香港2023和2024年的营收分别是多少?",  # the profile's own entity before the year
        "集团2024年第一季度和2024年第二季度收入分别是多少?",  # the home company, a quarter
        "中国内地FY2024的REVENUE是多少",
        "2024年第三季度收入是多少?",  # a period where a name could stand
        "为什么香港2024年的业绩增长较快?",  # a narrative question about an entity
        "2025年门店发展策略的总体思路是什么?",
        "ACME集团股份有限公司2024年收入是多少?",  # the home company's own legal name
        "2024年第四季度董事会会议做了哪些决议?",  # 哪些 without a company
        "同款同价原则适用于哪些渠道?",
        # a rule asked of a statement term: no figure, so no name is guessed where one stands
        "2025年促销期间品类毛利率的底线是怎么规定的?",
        "2025年门店资本开支中,门店数字化设备排在第几优先级?",
        "中国内地2024年居民人均可支配收入是多少?",  # 居民人均: whom a figure is per, no company
    ],
)
def test_the_home_companys_questions_are_not_declined(question: str) -> None:
    assert out_of_scope(question, PROFILE) is None


class CountingStore(FactStore):
    lookups = 0

    def lookup(self, **kwargs: str) -> Fact | None:  # type: ignore[override]
        self.lookups += 1
        return super().lookup(**kwargs)  # type: ignore[arg-type]


def test_another_company_gets_no_number_no_query_no_llm(demo_db: Path) -> None:
    store = CountingStore(demo_db, create=False)
    question = "贵州茅台2019年的营业收入是多少元?"
    result = answer_question(question, store, ExplodingProvider(), reference_date=date(2025, 6, 30))
    assert result.clarification.mode == CLARIFY_OUT_OF_SCOPE_ENTITY
    assert "「贵州茅台」不在本系统的覆盖范围内" in result.answer
    assert result.tool_results == [] and result.sources == [] and store.lookups == 0
    assert not any(c.isdigit() for c in result.answer)


@pytest.mark.parametrize(
    ("question", "route"),
    [
        ("什么是在建工程?", "narrative"),  # a definition
        ("收入是什么意思?", "narrative"),  # a definition of a metric the profile knows
        ("如何分析营业收入的变动趋势?", "narrative"),  # a method
        ("What is gross margin?", "narrative"),  # in English
        ("What is the revenue?", "structured"),  # a request for the figure: asks which period
    ],
)
def test_a_concept_question_is_answered_from_documents(question: str, route: str) -> None:
    assert parse_intent(question, date(2025, 6, 30)).route == route


@pytest.mark.parametrize(
    ("question", "company"),
    [
        ("香港2024年自身的收入是多少?", None),  # itself: the one just named, no other company
        ("香港2024年本身的净利润是多少?", None),
        ("2024年四方科技的收入是多少?", "四方科技"),  # a name after the year still is one
    ],
)  # fmt: skip
def test_itself_names_no_other_company(question: str, company: str | None) -> None:
    found = out_of_scope(question, PROFILE)
    assert (found.name if found else None) == company


# A year's end or start (2020年末, 2024年底, 2021年初) is the period, never the start of a name;
# a word of the whole (全部, 所有, 整个) names nobody. A name written after them still is one.
@pytest.mark.parametrize(
    ("question", "company"),
    [
        ("香港2020年末長期負債是多少?", None),  # 末 is the year's end, not a name's first char
        ("香港2024年底总负债是多少?", None),
        ("香港2021年初的存货是多少?", None),
        ("如果把东南亚2024年的全部收入平摊到每一家门店上,每家店大概分到多少?", None),
        ("香港2024年所有收入是多少?", None),
        ("2020年末特变电工负债合计是多少?", "特变电工"),  # a listed name after the year's end
        ("2020年末韦达实业的负债是多少?", "韦达实业"),  # an unlisted name there is still one
        ("2024年全部韦达实业的收入是多少?", "韦达实业"),  # after a word of the whole too
    ],
)  # fmt: skip
def test_a_years_end_or_a_word_of_the_whole_is_no_name(question: str, company: str | None) -> None:
    found = out_of_scope(question, PROFILE)
    assert (found.name if found else None) == company


@pytest.mark.parametrize(
    "question",
    [
        # a premise's opener glued to the company's name names no other company
        "既然金宇生物2020年末职工人数比2019年减少了,那2020年末到底有多少人?",
        "既然说金宇生物2020年的营业收入增长了,那净利润是多少?",
        "如果说金宇生物2020年营业收入下降了,原因是什么?",
    ],
)
def test_a_premise_opener_names_no_company(question: str) -> None:
    assert out_of_scope(question, load_profile(JINYU / "profile.yaml")) is None


def test_another_company_after_a_premise_opener_is_still_declined() -> None:
    # the opener is cut, the company written after it still named
    found = out_of_scope(
        "既然特变电工2020年营业收入增长了,那它的净利润是多少?", load_profile(JINYU / "profile.yaml")
    )
    assert found is not None and found.name == "特变电工"
