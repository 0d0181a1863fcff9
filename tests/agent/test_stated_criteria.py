"""Issue 27, lane L: a description's stated criterion (the largest market by stores,
按门店数计最大的市场, 毛利最大的地区) replaces the default (size is revenue): the parts are
ranked on the stated metric, read by the same metric-phrase reader as the question's; a criterion
the profile does not hold declines the description by its words, criterion and all; never the
default in its place. Controls: words after a comma (by the way), an intensifier (by far), a time
(by the end of 2024) and a breakdown (revenue by region) state no criterion.
"""

from __future__ import annotations

import pytest

from ragspine.agent.described import HIGH, LOW
from ragspine.engine import Engine
from ragspine.profile import DomainProfile
from tests.agent.asking import ask, found
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("question", "criterion", "direction", "metrics"),
    [
        ("What was the net profit of ACME's largest market by stores in 2024?",
         "STORE_COUNT", HIGH, ["NET_PROFIT"]),  # a counted noun: the count metric
        ("What was the net profit of ACME's largest market by number of stores in 2024?",
         "STORE_COUNT", HIGH, ["NET_PROFIT"]),  # the metric's own alias
        ("按门店数计ACME最大的市场2024年净利润是多少?",
         "STORE_COUNT", HIGH, ["NET_PROFIT"]),  # 按X计, the company named between
        ("What was the revenue of the biggest region in terms of gross profit in 2024?",
         "GROSS_PROFIT", HIGH, ["REVENUE"]),  # in terms of X: X is not asked
        ("以毛利计最大的地区2024年收入是多少?", "GROSS_PROFIT", HIGH, ["REVENUE"]),  # 以X计
        ("论门店数最多的市场2024年收入是多少?", "STORE_COUNT", HIGH, ["REVENUE"]),  # 论X
        ("毛利最大的市场2024年收入是多少?", "GROSS_PROFIT", HIGH, ["REVENUE"]),  # X最大的
        ("What was the revenue of the smallest market measured by net profit in 2024?",
         "NET_PROFIT", LOW, ["REVENUE"]),  # measured by, the lowest
        ("就净利润而言,最小的市场2024年收入是多少?", "NET_PROFIT", LOW, ["REVENUE"]),  # 就X而言,
        ("What was the revenue of the best-performing market by net profit in 2024?",
         "NET_PROFIT", HIGH, ["REVENUE"]),  # a stated criterion makes an unclear one clear
        ("收入增长最快的市场2024年门店数是多少?",
         "REVENUE_YOY", HIGH, ["STORE_COUNT"]),  # a growth description: X's growth
    ],
)  # fmt: skip
def test_a_stated_criterion_replaces_the_default(
    question: str, criterion: str, direction: str, metrics: list[str], jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    d = intent.described
    assert d is not None and (d.criterion, d.direction) == (criterion, direction), intent
    assert intent.metrics == metrics, intent


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("What was the net profit of ACME's largest market by net profit in 2024?",
         "NET_PROFIT"),  # the criterion asked of its own winner
        ("Which is ACME's largest market by stores in 2024?", "STORE_COUNT"),  # nothing else asked
    ],
)  # fmt: skip
def test_the_stated_criterion_asked_of_its_winner_is_a_rank(
    question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert intent.described is None and intent.rank == HIGH and intent.metrics == [metric]


@pytest.mark.parametrize(
    ("which", "question", "words"),
    [
        ("acme", "What was the revenue of the largest market by floor space in 2024?",
         "largest market by floor space"),  # a criterion no metric holds
        ("acme", "按客流量计最大的市场2024年收入是多少?",
         "按客流量计最大的市场"),  # the same, Chinese
        ("acme", "What was the revenue of ACME's largest market by online revenue in 2024?",
         "largest market by online revenue"),  # a channel's figure: no part ranked on it
        ("acme", "门店数增长最快的市场2024年收入是多少?",
         "门店数增长最快的市场"),  # growth of a count no metric holds: not revenue growth
        ("jy", "金宇生物按营业收入计最大的市场2020年净利润是多少?",
         "按营业收入计最大的市场"),  # held, but one entity: no parts to rank
    ],
)  # fmt: skip
def test_a_stated_criterion_not_held_declines_by_its_words(
    which: str, question: str, words: str, jy: DomainProfile
) -> None:
    d = parse_for(which, question, jy).described
    assert d is not None and d.criterion is None and d.words == words, d


@pytest.mark.parametrize(
    ("question", "criterion"),
    [
        ("What was the net profit of ACME's largest market by far in 2024?", "REVENUE"),  # by far
        ("所以ACME最大的市场2024年净利润是多少?", "REVENUE"),  # 所以 is no 以X计
        ("What was the net profit of the largest market by the end of 2024?",
         "REVENUE"),  # by a time: a deadline, no criterion
        ("What was the net profit of ACME's largest market, by the way, in 2024?",
         "REVENUE"),  # after a comma: an aside, no criterion
    ],
)  # fmt: skip
def test_words_stating_no_criterion_keep_the_default(
    question: str, criterion: str, jy: DomainProfile
) -> None:
    d = parse_for("acme", question, jy).described
    assert d is not None and d.criterion == criterion, d


def test_a_breakdown_is_no_description(jy: DomainProfile) -> None:
    intent = parse_for("acme", "What was revenue by region in 2024?", jy)
    assert intent.described is None and intent.metrics == ["REVENUE"], intent


def test_the_largest_market_by_stores_is_ranked_on_stores(demo: Engine) -> None:
    result = ask(demo, "What was the net profit of ACME's largest market by stores in 2024?")
    assert found(result)[:-1] == ["STORE_COUNT"] * (len(found(result)) - 1), result.answer
    assert found(result)[-1] == "NET_PROFIT", result.answer
    assert "largest market by stores" in result.answer, result.answer
    assert result.to_record().criteria == ["STORE_COUNT"]


def test_a_criterion_not_held_gives_no_figure(demo: Engine) -> None:
    result = ask(demo, "What was the revenue of the largest market by floor space in 2024?")
    assert result.tool_results == [], result.answer
    assert "largest market by floor space" in result.answer, result.answer
