"""An answer is in the question's language (issue 24): an English question gets English text
throughout (found facts, derived metrics with their formula and operands, changes, ranks,
assumptions, declines, refusals, the narrative channel's framing), with the same figures and
sources a Chinese question gets; a Chinese question keeps its text exactly. Names come from the
profile's English names, the Chinese ones only where the profile has none."""

from __future__ import annotations

import pytest

from ragspine.agent.definitions import defined_names
from ragspine.agent.render import fact_line
from ragspine.agent.wording import EN
from ragspine.engine import Engine
from ragspine.profile import DomainProfile, default_profile
from tests.agent.asking import ask

HK_2024 = "(source: ACME_FY2024_Review.pptx · slide=3,table=1,row=REVENUE,col=FY2024)"
HK_2023 = "(source: ACME_FY2023_Review.pptx · slide=3,table=1,row=REVENUE,col=FY2023)"


@pytest.mark.parametrize(
    ("question", "lines"),
    [
        # a found fact: the entity, period and metric by their English names, the unit's too
        ("What was Hong Kong's revenue in FY2024?",
         [f"Hong Kong FY2024 revenue: 455 million USD {HK_2024}"]),
        # a derived metric: its formula in English, each operand with its own source
        ("What was Hong Kong's revenue growth in FY2024?",
         ["Hong Kong FY2024 revenue growth: 10.98% (computed: (revenue − prior-year revenue) / "
          "prior-year revenue)",
          f"  where FY2024 revenue: 455 million USD {HK_2024}",
          f"  where FY2023 revenue: 410 million USD {HK_2023}"]),
        # an operand of another entity is named by it; a line opens with a capital
        ("What share of group revenue did mainland China contribute in FY2024?",
         ["Mainland China FY2024 share of group revenue: 55.05% (computed: revenue / ACME Group "
          "revenue)",
          "  where FY2024 revenue: 1,320 million USD (source: ACME_FY2024_Review.pptx · "
          "slide=2,table=1,row=REVENUE,col=FY2024)",
          "  where ACME Group FY2024 revenue: 2,398 million USD (source: "
          "ACME_FY2024_Review.pptx · slide=1,table=1,row=REVENUE,col=FY2024)"]),
        # a balance at its period's end, a count in the profile's English unit
        ("What was Taiwan's store count in FY2024?",
         ["Taiwan store count at the end of FY2024: 63 stores (source: ACME_FY2024_Review.pptx · "
          "slide=4,table=1,row=STORE_COUNT,col=FY2024)"]),
        # a channel is the metric's modifier
        ("What was Hong Kong online revenue in FY2024?",
         ["Hong Kong FY2024 online revenue: 77 million USD (source: ACME_FY2024_Review.pptx · "
          "slide=3,table=1,row=REVENUE:ONLINE,col=FY2024)"]),
        # a change between two periods, computed from the two levels, in points for a rate
        ("How did Hong Kong's gross margin change between FY2023 and FY2024?",
         ["Hong Kong FY2023 gross margin: 39.2% (source: ACME_FY2023_Review.pptx · "
          "slide=3,table=1,row=GROSS_MARGIN,col=FY2023)",
          "Hong Kong FY2024 gross margin: 40.1% (source: ACME_FY2024_Review.pptx · "
          "slide=3,table=1,row=GROSS_MARGIN,col=FY2024)",
          "Hong Kong gross margin change, FY2024 vs FY2023: +0.9 percentage points (computed "
          "from the figures above)", "", "Attribution analysis:"]),
        # the assumptions the gateway made, and the figure under them
        ("What is the revenue?",
         ["[Assumption] No entity given, so ACME Group is assumed; no period given, so the "
          "latest complete fiscal year, FY2024, is assumed. (to narrow it: mainland China / "
          "Hong Kong / Taiwan / Southeast Asia / FY2023 / FY2022)",
          "ACME Group FY2024 revenue: 2,398 million USD (source: ACME_FY2024_Review.pptx · "
          "slide=1,table=1,row=REVENUE,col=FY2024)"]),
        # a quarter assumed for a quarter named without its year
        ("What was Hong Kong revenue in Q3?",
         ["[Assumption] No year given, so 2024Q3, the latest that has ended, is assumed. (to "
          "narrow it: 2023Q3)"]),
        # a parameter not read: named back in the user's words, nothing queried
        ("What was Hong Kong revenue in Q9 2024?",
         ["Parameter period “Q9 2024” not recognised: nothing was queried. Write the period as "
          "a fiscal year, half year or quarter.", "No number is given, to avoid misleading."]),
        # no metric: the question back
        ("How much did Hong Kong make in FY2024?",
         ["Which metric would you like to look up? For example: revenue, gross profit, gross "
          "margin, operating profit, net profit, store count and others."]),
        # a competitor: refused
        ("What was JingAn's revenue in FY2024?",
         ["Sorry, the question concerns an outside company, which is beyond what this system "
          "answers: it answers only about ACME Group's own operating data and documents, and "
          "gives no information about, or guess at, any outside company."]),
        # a ranking across listed companies: not covered
        ("Which listed company had the highest revenue in 2024?",
         ["A ranking or comparison across companies is beyond this system: RAGSpine covers "
          "only ACME Group's data and documents. No number is given, to avoid misleading."]),
        # a change whose earlier level is not held: declined as the change
        ("How much did Taiwan's operating profit change between 2022 and 2023?",
         ["Not found: the change in Taiwan operating profit from FY2022 to FY2023 cannot be "
          "computed; there is no figure for FY2022 operating profit."]),
    ],
)  # fmt: skip
def test_an_english_question_is_answered_in_english(
    demo: Engine, question: str, lines: list[str]
) -> None:
    answer = ask(demo, question).answer.splitlines()
    assert answer[: len(lines)] == lines, answer


def test_a_rank_names_the_top_in_english(demo: Engine) -> None:
    answer = ask(demo, "Which region had the highest gross margin in FY2024?").answer
    assert answer.splitlines()[-1] == (
        "FY2024 highest gross margin: Hong Kong 40.1% (comparing the figures above)"
    )


@pytest.mark.parametrize(
    ("question", "first"),
    [
        # a found fact, as it always was
        ("香港2024年的收入是多少?",
         "香港 FY2024 收入:455 百万美元(来源:ACME_FY2024_Review.pptx · "
         "slide=3,table=1,row=REVENUE,col=FY2024)"),
        # a derived metric, as it always was
        ("香港2024年的收入增长率是多少?",
         "香港 FY2024 收入同比增长率:10.98%(由公式计算:(收入 − 上年收入) / 上年收入)"),
        # a balance, in traditional characters: the answer in Chinese, as it always was
        ("台灣2024年的門店數是多少?",
         "台湾 FY2024末 门店数:63 家(来源:ACME_FY2024_Review.pptx · "
         "slide=4,table=1,row=STORE_COUNT,col=FY2024)"),
        # the assumption note, as it always was
        ("收入是多少?",
         "【假设】未指明实体,按 ACME集团口径;未指明期间,按最近完整财年 FY2024。"
         "(如需收窄:中国内地 / 香港 / 台湾 / 东南亚 / FY2023 / FY2022)"),
    ],
)  # fmt: skip
def test_a_chinese_question_keeps_its_text(demo: Engine, question: str, first: str) -> None:
    assert ask(demo, question).answer.splitlines()[0] == first


@pytest.mark.parametrize(
    ("english", "chinese"),
    [
        ("What was Hong Kong's revenue growth in FY2024?", "香港2024年的收入增长率是多少?"),
        ("What were Hong Kong revenues in FY2023 and FY2024?", "香港2023和2024年的营收分别是多少?"),
        ("What was the group's net margin in FY2024?", "集团2024年的净利率是多少?"),
    ],
)
def test_the_figures_and_sources_are_the_same_in_both_languages(
    demo: Engine, english: str, chinese: str
) -> None:
    en, zh = ask(demo, english), ask(demo, chinese)
    assert en.tool_results == zh.tool_results and en.sources == zh.sources
    for fact in zh.tool_results:
        assert fact["status"] == "found"
        assert fact["source"]["locator"] in en.answer  # type: ignore[typeddict-item]


def test_the_record_carries_the_answers_language(demo: Engine) -> None:
    assert ask(demo, "What was Hong Kong's revenue in FY2024?").to_dict()["language"] == "en"
    assert ask(demo, "香港2024年的收入是多少?").to_dict()["language"] == "zh"


def test_an_english_name_the_profile_lacks_falls_back_to_the_chinese_one() -> None:
    """Nothing is translated by guess: a profile naming its items in Chinese only is shown by
    those names, in English framing."""
    prof = DomainProfile.model_validate(
        {
            "name": "co",
            "home_company_name": "样例股份有限公司",
            "home_entity_code": "CO",
            "entities": [{"code": "CO", "name_zh": "样例", "aliases": ["样例"]}],
            "units": [{"code": "CNY", "display": "元"}],
            "metrics": [
                {"code": "COST", "unit": "CNY", "name_zh": "营业成本", "aliases": ["营业成本"]}
            ],
        }
    )
    fact = {
        "status": "found", "value": 5.0, "value_text": "5", "unit": "CNY", "metric_code": "COST",
        "entity": "CO", "period_type": "FY", "period": "2020", "channel": "TOTAL",
        "source": {"doc": "book.xlsx", "locator": "row=COST"},
    }  # fmt: skip
    line = fact_line(fact, prof, lang=EN)  # type: ignore[arg-type]
    assert line == "样例 FY2020 营业成本: 5 元 (source: book.xlsx · row=COST)"


def test_an_english_term_is_looked_for_under_its_chinese_names() -> None:
    names = defined_names("same-store sales growth", default_profile())
    assert "同店销售增长" in names and "same-store sales growth" not in names
    assert defined_names("a word no profile has", default_profile()) == []


@pytest.mark.slow
def test_an_english_definition_finds_what_the_chinese_one_finds(jinyu: Engine) -> None:
    english = ask(jinyu, "What is construction in progress?")
    chinese = ask(jinyu, "什么是在建工程?")
    assert chinese.sources and english.sources == chinese.sources
    first, *rest = english.answer.splitlines()
    assert first == "How the documents define “construction in progress” (在建工程):"
    assert rest and "在建工程" in rest[0] and "page=" in rest[0]
    assert not chinese.answer.startswith("How")  # the Chinese answer keeps its text
