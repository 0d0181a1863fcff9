"""A share the fact table cannot give, answered where a report states it beside its part, and
declined where no passage does; asked through ``Engine.ask`` on the demo and 金宇 stores."""

from __future__ import annotations

import pytest

from ragspine.agent.stated_figures import states_share
from ragspine.engine import Engine
from tests.agent.asking import ask


@pytest.mark.parametrize(
    ("passage", "stem", "states"),
    [
        # the part, then its share of the whole
        ("前五名客户销售额27,614.37万元，占年度销售总额18.20%", "前五名客户销售额", True),
        # traditional script and separators inside the part's name
        ("前五名客戶 銷售額27,614.37萬元,佔年度銷售總額18.20%", "前五名客户销售额", True),
        # the part named with no figure: a KPI's name is no share stated
        ("门店统一采用五项核心指标进行考核:会员销售占比和线上订单履约时效。", "会员销售", False),
        # a percentage before the part only: not its share
        ("毛利率为62.3%。前五名客户销售额27,614.37万元。", "前五名客户销售额", False),
        # another part's share
        ("前五名供应商采购额13,404.60万元，占年度采购总额32.22%", "前五名客户销售额", False),
    ],
)  # fmt: skip
def test_a_passage_states_a_share_where_it_names_the_part_and_a_percentage_after_it(
    passage: str, stem: str, states: bool
) -> None:
    assert states_share(passage, stem) is states


def test_the_top_five_customers_share_is_the_reports_own_figure(jinyu: Engine) -> None:
    result = ask(jinyu, "金宇生物2020年前五名客戶銷售額佔年度銷售總額的比例是多少?")
    assert result.route == "narrative" and result.tool_results == []
    assert "18.20%" in result.answer and "page=16" in result.answer
    assert not result.clarification.declined and "declined" not in result.trace.codes
    assert "1,581,905,632.48" not in result.answer  # never a share computed on revenue


@pytest.mark.parametrize(
    ("which", "question", "name"),
    [
        # the demo's passage names 会员销售占比 as a KPI, with no figure: still declined
        ("demo", "集团2024年会员销售占比是多少?", "会员销售占比"),
        # no passage names the part: declined by the share's name
        ("jy", "金宇生物2020年海外客户销售额占比是多少?", "海外客户销售额占比"),
    ],
)  # fmt: skip
def test_a_share_no_passage_states_is_declined_by_its_name(
    which: str, question: str, name: str, demo: Engine, jinyu: Engine
) -> None:
    result = ask(demo if which == "demo" else jinyu, question)
    assert result.sources == [] and result.tool_results == []
    assert result.clarification.declined == name and result.trace.codes["declined"] == "quantity"


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # an unknown English metric phrase: declined by it, never "which metric?"
        ("What was Hong Kong's GMROI in 2024?", "GMROI"),
        ("What was ACME's net promoter score in Hong Kong in 2024?", "net promoter score"),
        # a window on a line: a quantity, its spelled length quoted back, no figure
        ("What was ACME Group's trailing-twelve-month revenue as of the end of Q3 2024?",
         "trailing-twelve-month revenue"),
    ],
)  # fmt: skip
def test_an_unheld_english_quantity_is_declined_by_name(
    demo: Engine, question: str, name: str
) -> None:
    result = ask(demo, question)
    assert result.tool_results == [] and result.trace.codes["declined"] == "quantity"
    assert f"“{name}” is not in the fact table" in result.answer, result.answer
