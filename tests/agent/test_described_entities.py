"""Issue 27, lane I: an entity described instead of named (the largest market, 增长最快的市场, the
region with the most stores, 最大客户) is never the group and never a part picked silently.

Where the description's criterion is held and it describes a part of the company, every part is
ranked on it and the asked figure is the winner's, the criterion's figures stated; otherwise the
description is declined by its words, with no figure. Controls: a superlative of no entity (the
group's largest cost) and a description beside the entity it describes (Hong Kong, our largest
market, …) are no description to resolve.
"""

from __future__ import annotations

import re

import pytest

from ragspine.agent.described import HIGH, LOW, Described
from ragspine.agent.described_answer import _winner
from ragspine.agent.query_tools import FoundResult
from ragspine.engine import Engine
from ragspine.profile import DomainProfile
from tests.agent.asking import ask, found
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("question", "criterion", "direction", "place"),
    [
        ("What was the net profit of ACME's largest market in 2024?", "REVENUE", HIGH, 1),
        ("ACME最大市场2024年的净利润是多少?", "REVENUE", HIGH, 1),  # 最大, no 的
        # size is revenue; fastest-growing is revenue growth
        ("What was revenue of ACME's fastest-growing market in 2024?", "REVENUE_YOY", HIGH, 1),
        ("增长最快的市场2024年门店数是多少?", "REVENUE_YOY", HIGH, 1),  # growth, Chinese
        ("最赚钱的地区2024年收入多少?", "NET_PROFIT", HIGH, 1),  # most profitable, Chinese
        ("Revenue of the least profitable region in 2023?", "NET_PROFIT", LOW, 1),  # lowest
        ("Revenue of the region with the most stores in 2024?", "STORE_COUNT", HIGH, 1),  # stores
        ("ACME第二大市场2024年的净利润是多少?", "REVENUE", HIGH, 2),  # an ordinal of size
        ("What was the net profit of the smallest region in 2024?", "REVENUE", LOW, 1),  # small
    ],
)  # fmt: skip
def test_a_held_criterion_ranks_the_parts(
    question: str, criterion: str, direction: str, place: int, jy: DomainProfile
) -> None:
    d = parse_for("acme", question, jy).described
    assert d is not None and (d.criterion, d.direction, d.place) == (criterion, direction, place)


@pytest.mark.parametrize(
    ("which", "question", "words"),
    [
        ("acme", "ACME表现最好的市场2024年收入是多少?", "表现最好的市场"),  # no held criterion
        ("acme", "What was the revenue of ACME's best-performing region in 2024?",
         "best-performing region"),  # best-performing: which figure?
        ("acme", "What was the net profit of the weakest market in 2024?", "weakest market"),
        ("acme", "ACME最大客户2024年的收入是多少?", "最大客户"),  # a customer: no entity held
        ("acme", "How many stores did ACME have at the end of 2024 in the market where a single "
         "distribution centre serves every store?",
         "the market where a single distribution centre serves every store"),  # a relative clause
        ("jy", "金宇生物最大的子公司2020年营业收入是多少?", "最大的子公司"),  # a subsidiary
        ("jy", "What was the revenue of Jinyu's biggest customer in 2020?", "biggest customer"),
        ("jy", "金宇生物最大的市场2020年营业收入是多少?", "最大的市场"),  # one entity: no parts
    ],
)  # fmt: skip
def test_a_description_no_held_figure_picks_is_declined(
    which: str, question: str, words: str, jy: DomainProfile
) -> None:
    d = parse_for(which, question, jy).described
    assert d is not None and d.criterion is None and d.words == words, d


@pytest.mark.parametrize(
    "question",
    [
        "What was ACME Group's largest cost in 2024?",  # a cost, no entity described
        "Hong Kong, our largest market by stores, had what revenue in 2024?",  # named beside it
        "香港,我们最大的市场之一,2024年收入是多少?",  # the same in Chinese
        "哪个市场2024年收入最高?",  # a rank asked, not an entity described (ranks.py)
        "2024年中国内地收入扩大市场份额了吗?",  # 大 of 扩大 is no size
    ],
)  # fmt: skip
def test_no_description_to_resolve(question: str, jy: DomainProfile) -> None:
    assert parse_for("acme", question, jy).described is None


@pytest.mark.parametrize(
    ("question", "rank"),
    [
        ("ACME最大的市场2024年的收入是多少?", HIGH),  # size asked of the largest: a revenue rank
        ("Net profit of the least profitable region in 2023?", LOW),  # profit of the least
    ],
)  # fmt: skip
def test_the_criterion_asked_of_its_own_winner_stays_a_rank(
    question: str, rank: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.described is None and intent.rank == rank, intent


def test_the_largest_markets_net_profit_is_the_winners(demo: Engine) -> None:
    result = ask(demo, "What was the net profit of ACME's largest market in 2024?")
    assert found(result) == ["REVENUE"] * 4 + ["NET_PROFIT"], result.answer
    assert "137.9" not in result.answer and "57.4" in result.answer, result.answer
    assert "Mainland China FY2024 net profit" in result.answer, result.answer  # the winner named
    assert result.to_record().criteria == ["REVENUE"]


def test_the_fastest_growing_markets_revenue_in_chinese(demo: Engine) -> None:
    result = ask(demo, "增长最快的市场2024年的收入是多少?")
    assert "东南亚 FY2024 收入:395" in result.answer, result.answer  # growth 16.18%, the top
    assert "2,398" not in result.answer and result.language == "zh"


def test_a_part_missing_its_criterion_figure_declines(demo: Engine) -> None:
    # FY2022 growth needs FY2021, which no part holds: no part is picked on partial data
    result = ask(demo, "What was the revenue of the fastest-growing market in 2022?")
    assert result.clarification.declined == "fastest-growing market", result.answer
    assert re.search(r"\d", result.answer.replace("2022", "")) is None, result.answer


def test_a_declined_description_gives_no_figure(demo: Engine) -> None:
    result = ask(demo, "ACME表现最好的市场2024年收入是多少?")
    assert result.tool_results == [] and "「表现最好的市场」" in result.answer, result.answer
    assert result.clarification.decline_kind == "subject"


def _found(entity: str, value: str) -> FoundResult:
    return {"value_text": value, "entity": entity}  # type: ignore[typeddict-item]


@pytest.mark.parametrize(
    ("values", "direction", "place", "winner"),
    [
        ({"A": "3", "B": "5", "C": "1"}, HIGH, 1, "B"),  # the highest
        ({"A": "3", "B": "5", "C": "1"}, LOW, 1, "C"),  # the lowest
        ({"A": "3", "B": "5", "C": "1"}, HIGH, 2, "A"),  # the second
        ({"A": "5", "B": "5", "C": "1"}, HIGH, 1, None),  # a tie at the place asked: none
        ({"A": "3"}, HIGH, 2, None),  # fewer parts than the place
    ],
)  # fmt: skip
def test_the_winner_is_never_a_tie(
    values: dict[str, str], direction: str, place: int, winner: str | None
) -> None:
    d = Described("x", "REVENUE", direction, place)
    pick = _winner([_found(e, v) for e, v in values.items()], d)
    assert (pick["entity"] if pick else None) == winner
