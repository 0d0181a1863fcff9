"""Issue 27, round 7 recall: a question that corrects itself, and the standard words finance and
retail write for a held quantity (doors, 网点, earnings, staff strength).

A correction marker between two words of one kind retracts the first (the later period, entity
or quantity is asked); a marker with no such pair beside it corrects nothing. A shipped synonym
is read where it stands alone; a longer phrase that holds it (earnings per share, open doors
policy, earnings call) is never it.
"""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "metrics", "entities", "periods"),
    [
        # a period corrected: the later one is asked
        ("acme", "嗯……香港去年,哦不对,是2023年的毛利率是多少来着?", ["GROSS_MARGIN"], ["ACME_HK"],
         ["FY2023"]),
        ("jy", "金宇生物2021年,哦不,2020年的销售费用是多少?", ["SELLING_EXPENSES"], ["JINYU"],
         ["FY2020"]),
        ("acme", "不是2023年,是2024年香港的收入是多少?", ["REVENUE"], ["ACME_HK"], ["FY2024"]),
        ("acme", "What was Taiwan's revenue in 2023, sorry, 2024?", ["REVENUE"], ["ACME_TW"],
         ["FY2024"]),  # English, the marker alone
        # an entity corrected
        ("acme", "What was Hong Kong's, sorry, I mean Taiwan's store count at the end of 2024?",
         ["STORE_COUNT"], ["ACME_TW"], ["FY2024"]),
        ("acme", "香港,说错了,台湾2024年的收入是多少?", ["REVENUE"], ["ACME_TW"], ["FY2024"]),
        # a quantity corrected: the period and entity stay
        ("acme", "香港2024年的收入,哦不对,是毛利是多少?", ["GROSS_PROFIT"], ["ACME_HK"],
         ["FY2024"]),
        # a marker that corrects nothing beside it: the question as it is
        ("acme", "Sorry, what was Taiwan's revenue in 2024?", ["REVENUE"], ["ACME_TW"], ["FY2024"]),
        ("acme", "香港2024年的收入是多少?这个数不对吧", ["REVENUE"], ["ACME_HK"], ["FY2024"]),
        ("acme", "What was Taiwan's revenue rather than Hong Kong's in 2024?", ["REVENUE"],
         ["ACME_TW", "ACME_HK"], ["FY2024"]),  # 'rather than' compares, corrects nothing
        ("acme", "香港2023年,不对,是台湾的收入是多少?", ["REVENUE"], ["ACME_HK", "ACME_TW"],
         ["FY2023"]),  # a period before, an entity after: no pair of one kind, nothing retracted
    ],
)  # fmt: skip
def test_a_correction_retracts_the_word_before_it(
    which: str,
    question: str,
    metrics: list[str],
    entities: list[str],
    periods: list[str],
    jy: DomainProfile,
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == metrics, intent
    assert intent.entities == entities, intent
    assert [p.label for p in intent.periods] == periods, intent


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        # doors: the retail trade's points of sale
        ("acme", "How many doors did ACME operate in Southeast Asia at the end of 2024?",
         "STORE_COUNT"),
        ("acme", "What was Hong Kong's door count in 2024?", "STORE_COUNT"),
        # 网点: a network's outlets
        ("acme", "东南亚2023年底的网点数量是多少?", "STORE_COUNT"),
        ("acme", "东南亚2023年底有多少个网点?", "STORE_COUNT"),
        # earnings: net income
        ("acme", "What were Hong Kong's earnings in 2023?", "NET_PROFIT"),
        # staff strength: the headcount
        ("jy", "What was Jinyu's staff strength at the end of 2021?", "EMPLOYEES"),
    ],
)  # fmt: skip
def test_a_standard_synonym_reads_as_the_held_metric(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [metric] and intent.declined is None, intent


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("What was ACME's earnings per share in 2024?", "NET_PROFIT"),  # EPS, another quantity
        ("What was ACME's retained earnings in 2024?", "NET_PROFIT"),  # a balance-sheet line
        ("When is ACME's earnings call in 2024?", "NET_PROFIT"),  # an event, no figure
        ("What was ACME's earnings quality in 2024?", "NET_PROFIT"),  # a judgement of profit
        ("What were Hong Kong's earnings before interest and taxes in 2023?", "NET_PROFIT"),
        ("What is ACME's open doors policy?", "STORE_COUNT"),  # a policy, not a count
        ("Did ACME open its doors in Taiwan in 2024?", "STORE_COUNT"),  # an opening, no count
        ("How many doors did ACME open in Taiwan in 2024?", "STORE_COUNT"),  # openings, no count
    ],
)  # fmt: skip
def test_a_longer_phrase_holding_the_synonym_is_not_it(
    question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for("acme", question, jy)
    assert metric not in intent.metrics, intent


def test_a_run_of_months_that_is_no_held_period_is_declined_by_its_words(
    jy: DomainProfile,
) -> None:
    intent = parse_for("acme", "集团2024年2-4月的收入是多少?", jy)
    assert intent.periods == [] and intent.unrecognized == {"period": "2024年2-4月"}, intent


@pytest.mark.parametrize(
    ("which", "question", "period"),
    [
        ("acme", "集团2024年10-12月的收入是多少?", "2024Q4"),  # Q4 as its months
        ("acme", "香港2024年1至6月的毛利是多少?", "2024H1"),  # H1 as its months
        ("jy", "金宇生物2021年的上一年度净利润是多少?", "FY2020"),  # the year before 2021
        ("jy", "What was Jinyu's net profit in the year before 2021?", "FY2020"),
    ],
)  # fmt: skip
def test_a_period_written_another_way_is_asked(
    which: str, question: str, period: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert [p.label for p in intent.periods] == [period], intent
