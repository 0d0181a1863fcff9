"""A question asking how something is ruled, set or ranked in a plan asks for a statement in a
document (a floor, a cap, a priority), not a fact-table figure: the documents answer it, and a
metric word in it (毛利率, 门店数…) is the rule's topic, never the figure given. A figure asked in
another sentence of the question is still answered (a composite)."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.agent.rules import ruled_sentences
from ragspine.engine import Engine
from ragspine.profile import default_profile
from ragspine.text import fold
from tests.agent.asking import ask

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "ruled"),
    [
        ("2025年促销期间品类毛利率的底线是怎么规定的?", True),  # a floor, how ruled
        ("2025年门店资本开支中,门店数字化设备排在第几优先级?", True),  # a rank in a plan
        ("促銷期間品類毛利率的底線是多少?", True),  # traditional; the floor's value is the rule's
        ("新店投资回收期的上限是多少个月?", True),  # a cap
        ("资本开支按什么顺序分配?", True),  # an order in a plan
        ("成交价不得低于正价的几折?", True),  # a limit a rule sets
        ("新店投资回收期不超过多少个月?", True),  # the same without 得
        ("同一商品每年最多可以参加多少天全场性促销?", True),  # what is allowed at most
        ("What is the maximum payback period allowed for new stores?", True),  # allowed
        ("How many days a year can one product be on promotion at most?", True),  # at most
        ("What is the floor on category gross margin during promotions?", True),  # English floor
        ("Which priority is store digital equipment in 2025 capex?", True),  # a priority
        ("What is the cap on new flagship stores in 2025?", True),  # a cap
        ("How is the payback period for new stores capped?", True),  # how it is set
        ("What is the returns policy for online orders?", True),  # what the policy is
        # no rule asked: a figure, a ranking of the fact table's parts, a size, a market value
        ("香港2024年毛利率是多少?", False),
        ("香港的收入在各区域中排第几?", False),  # a rank of the fact table's entities
        ("Where does Hong Kong rank by revenue in 2024?", False),
        ("What was the selling floor area of Hong Kong stores in 2024?", False),
        ("What was ACME's market cap at the end of 2024?", False),
        ("Under which rules was revenue recognised in 2024?", False),  # rules, not asked
        ("香港2024年门店数最多的是哪个区域?", False),  # a rank of facts: 最多 with no modal
        ("Which region had the most stores in 2024?", False),
    ],
)  # fmt: skip
def test_a_rule_is_asked(question: str, ruled: bool) -> None:
    assert bool(ruled_sentences(fold(question))) is ruled


@pytest.mark.parametrize(
    "question",
    [
        "2025年促销期间品类毛利率的底线是怎么规定的?",  # 毛利率 is the floor's topic
        "2025年门店资本开支中,门店数字化设备排在第几优先级?",  # 门店数 inside 门店数字化
        "What is the floor on category gross margin during promotions?",
        "新店投资回收期的上限是多少个月?",  # a figure of the rule: the document's, not a fact
        "新店投资回收期不超过多少个月?",  # not declined as a quantity the fact table lacks
    ],
)  # fmt: skip
def test_a_rule_question_goes_to_the_documents_with_no_metric(question: str) -> None:
    intent = parse_intent(question, REF, profile=default_profile())
    assert (intent.route, intent.metrics, intent.declined) == ("narrative", [], None)
    assert intent.subjects == []  # no name guessed from the rule's topic


def test_a_figure_asked_beside_a_rule_is_still_asked() -> None:
    intent = parse_intent("香港2024年毛利率是多少?促销期间毛利率的底线怎么规定?", REF)
    assert (intent.route, intent.metrics) == ("composite", ["GROSS_MARGIN"])
    # and with no rule asked, the same figure question stays structured
    intent = parse_intent("香港2024年毛利率是多少?", REF)
    assert (intent.route, intent.metrics) == ("structured", ["GROSS_MARGIN"])


@pytest.mark.parametrize(
    ("question", "says", "never"),
    [
        # the pricing memo's floor, never a stored margin level (HK 40.1, group 32.4)
        ("2025年促销期间品类毛利率的底线是怎么规定的?", "8个百分点", ["32.4", "40.1"]),
        # the store strategy's order, never a store count (group 876)
        ("2025年门店资本开支中,门店数字化设备排在第几优先级?", "第四", ["876"]),
    ],
)  # fmt: skip
def test_a_rule_is_answered_from_the_document_that_states_it(
    demo: Engine, question: str, says: str, never: list[str]
) -> None:
    result = ask(demo, question)
    assert result.route == "narrative" and result.tool_results == [], result.answer
    assert says in result.answer, result.answer
    assert not any(n in result.answer for n in never), result.answer
