"""Issue 27, classes 1 and 2 again, asked the way a user asks (through the engine):

1. a sum of listed metrics (written out, or with a shared head noun: selling, administrative and
   finance expenses; 销售、管理和财务费用) asked together as a share of another metric is the
   profile's derived metric of that shape, with its operands; where the profile has none, it is
   declined, never one operand's level;
2. a rank of the company's parts on a profile with no parts is declined naming what cannot be
   ranked, never the company's own figure;
3. a quantity named by a longer phrase (营业外收支净额, an offline share) is declined by a name
   that says what was asked.
"""

from __future__ import annotations

import re

import pytest

from ragspine.agent.agent import AgentResult
from ragspine.engine import Engine
from tests.agent.asking import ask, found


def no_figure(result: AgentResult) -> None:
    assert result.tool_results == [] and result.sources == [], result.answer
    assert re.search(r"\d", result.answer) is None, result.answer


@pytest.mark.parametrize(
    "question",
    [
        # written out, 合计 before the share
        "2020年金宇生物销售费用、管理费用和财务费用合计占营业收入的比重是多少?",
        # a shared head noun (销售、管理、财务费用), 之和
        "2020年销售、管理、财务费用之和占营业收入的比例是多少?",
        # English, a shared head noun, together, as a share of
        "Selling, administrative and finance expenses together as a share of revenue in 2020?",
        # English, the whole first, the part after it (what percentage of revenue did … take up)
        "What percentage of revenue in 2020 did selling, admin and finance expenses make up "
        "combined?",
    ],
)
def test_1_a_sum_of_listed_metrics_as_a_share_is_the_derived_metric(
    jinyu: Engine, question: str
) -> None:
    result = ask(jinyu, question)
    assert found(result) == ["THREE_EXPENSES_SHARE"], result.answer
    assert "24.06%" in result.answer, result.answer
    for operand in ("274,950,664.27", "125,189,086.49", "-19,572,506.45"):
        assert operand in result.answer  # the operands, sourced


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # a sum no derived metric holds: declined whole, not one operand's level
        (
            "2020年金宇生物销售费用和管理费用合计占营业收入的比重是多少?",
            "销售费用和管理费用合计占营业收入的比重",
        ),
        # 期间费用率: its operands differ by standard; no profile figure, declined by name
        ("2020年金宇生物的期间费用率是多少?", "期间费用率"),
        # 营业外收支净额: not 营业外收入 nor 营业外支出
        ("2020年金宇生物的营业外收支净额为多少?", "营业外收支净额"),
        # English: net non-operating income is not non-operating income
        ("What was Jinyu's net non-operating income in 2020?", "net non-operating income"),
    ],
)
def test_1_a_quantity_the_profile_lacks_is_declined_by_name(
    jinyu: Engine, question: str, name: str
) -> None:
    result = ask(jinyu, question)
    no_figure(result)
    assert name in result.answer and result.clarification.declined == name, result.answer


def test_1_a_list_without_a_sum_word_asks_each(jinyu: Engine) -> None:
    result = ask(jinyu, "2020年金宇生物销售费用和管理费用分别是多少?")
    assert found(result) == ["SELLING_EXPENSES", "ADMIN_EXPENSES"], result.answer


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # English: which segment, highest
        ("Which segment had the highest revenue in 2020?", "Which segment had the highest revenue"),
        # Chinese: 哪个地区, 最高, no period
        ("哪个地区的营业收入最高?", "哪个地区的营业收入最高"),
        # lowest, a market
        ("2021年哪个市场的净利润最低?", "哪个市场的净利润最低"),
    ],
)
def test_2_a_rank_with_no_parts_to_compare_is_declined(
    jinyu: Engine, question: str, name: str
) -> None:
    result = ask(jinyu, question)
    no_figure(result)
    assert result.clarification.declined == name and name in result.answer, result.answer
    assert result.clarification.decline_kind == "ranking"


@pytest.mark.parametrize(
    ("question", "names"),
    [
        # Chinese, a channel's share no derived metric holds
        ("东南亚2024年的线下销售占比是多少?", ("线下销售占比",)),
        # English, the part after the whole (came from offline stores)
        ("What share of Hong Kong's 2024 revenue came from offline stores?", ("offline share",)),
    ],
)
def test_3_an_unheld_channel_share_is_declined_naming_the_channel(
    demo: Engine, question: str, names: tuple[str, ...]
) -> None:
    result = ask(demo, question)
    no_figure(result)
    assert any(n in result.answer for n in names), result.answer


def test_3_an_entity_owning_the_whole_of_a_share_is_the_entity(demo: Engine) -> None:
    """What share of Hong Kong's revenue came from online: Hong Kong's online share, not the
    group's (only the company itself, inside the whole, is the whole)."""
    result = ask(demo, "What share of Hong Kong's 2024 revenue came from online?")
    entities = {r["entity"] for r in result.tool_results if r["status"] == "found"}  # type: ignore[typeddict-item]
    assert found(result) == ["ONLINE_SHARE"] and entities == {"ACME_HK"}, result.answer
