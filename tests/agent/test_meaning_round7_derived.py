"""Issue 27, round 7, derived and arithmetic phrasings read by class:

1. a growth's pace compared across two periods (增速比2020年放缓了多少个百分点): both growths and
   their difference, never the later growth with the other year read as its base;
2. a distance to a threshold the user writes (距离50%的警戒线还有多少个百分点): the one period's
   level, never a change against the year before;
3. a range of years asked without a change (2019年到2021年…的变化趋势): every year in it;
4. which quarter (half) of a year had the highest X: every quarter (half) of that year.
"""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from ragspine.profile.periods import Period
from tests.agent.parsing import parse_for


def _fy(*years: int) -> list[Period]:
    return [Period("FY", str(y)) for y in years]


@pytest.mark.parametrize(
    ("which", "question", "metric", "periods", "change"),
    [
        # a growth's pace, in points: both years' growths, compared
        ("jy", "金宇生物2021年营业收入增速比2020年放缓了多少个百分点?", "REVENUE_GROWTH",
         _fy(2021, 2020), True),
        # the same without 百分点: 放缓了多少 still asks how the growth moved
        ("jy", "金宇生物2021年营业收入增速比2020年放缓了多少?", "REVENUE_GROWTH", _fy(2021, 2020),
         True),
        # negative: the year after 相比 is the growth's base when no change is asked
        ("jy", "金宇生物2021年营业收入相比2020年的增长率是多少?", "REVENUE_GROWTH", _fy(2021),
         False),
        # a distance to the user's threshold: the level, never a change
        ("jy", "金宇生物2020年末的资产负债率距离50%的警戒线还有多少个百分点?", "DEBT_TO_ASSETS",
         _fy(2020), False),
        # the same asked in English
        ("jy", "How many percentage points below 50% was Jinyu's debt-to-assets ratio at the end "
         "of 2020?", "DEBT_TO_ASSETS", _fy(2020), False),
        # negative: points against another year are a change
        ("jy", "金宇生物2020年末的资产负债率比2019年末高多少个百分点?", "DEBT_TO_ASSETS",
         _fy(2020, 2019), True),
        # a trend over a range of years: every year, the middle one too
        ("jy", "金宇生物2019年到2021年净利率的变化趋势如何?", "NET_MARGIN", _fy(2019, 2020, 2021),
         False),
        # negative: a change over a range is between its two ends
        ("jy", "金宇生物2019-2021年净利润增长了多少?", "NET_PROFIT", _fy(2019, 2021), True),
        # negative: two years written as a list are those two
        ("jy", "金宇生物2019年和2021年的净利率是多少?", "NET_MARGIN", _fy(2019, 2021), False),
        # which quarter had the highest: every quarter of the year
        ("demo", "Which quarter of 2024 brought ACME Group its highest gross profit?",
         "GROSS_PROFIT", [Period("Q", f"2024Q{n}") for n in (1, 2, 3, 4)], False),
        # which half: both halves
        ("demo", "Which half of 2024 had ACME Group's highest revenue?", "REVENUE",
         [Period("H", "2024H1"), Period("H", "2024H2")], False),
        # negative: a quarter named is that quarter alone
        ("demo", "What was ACME Group's gross profit in the fourth quarter of 2024?",
         "GROSS_PROFIT", [Period("Q", "2024Q4")], False),
    ],
)  # fmt: skip
def test_derived_phrasings_ask_these_periods(
    which: str,
    question: str,
    metric: str,
    periods: list[Period],
    change: bool,
    jy: DomainProfile,
) -> None:
    parsed = parse_for(which, question, jy)
    assert parsed.metrics == [metric]
    assert parsed.periods == periods
    assert parsed.change is change


@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        # a claimed growth to check, after a hearsay lead: the held growth rate, no subject
        ("有人說香港2024年的收入增長了15%,這個說法對嗎?", ["REVENUE_YOY"]),
        # the same claim asked as a yes/no question in English
        ("Did Hong Kong's revenue grow 15% in 2024?", ["REVENUE_YOY"]),
        # heard, then checked
        ("I heard Hong Kong's revenue rose by 15% in 2024, is that right?", ["REVENUE_YOY"]),
        # negative: a stated growth with no check asked is a premise, never read as the rate
        ("香港2024年收入增长了15%,净利润是多少?", ["REVENUE", "NET_PROFIT"]),
        # negative: no claimed number, the level
        ("香港2024年的收入是多少?", ["REVENUE"]),
    ],
)  # fmt: skip
def test_a_claimed_growth_asks_the_held_rate(
    question: str, metrics: list[str], jy: DomainProfile
) -> None:
    parsed = parse_for("demo", question, jy)
    assert parsed.metrics == metrics
    assert parsed.unknown_subject is None
    assert parsed.periods == _fy(2024)


@pytest.mark.parametrize(
    ("which", "question", "metrics"),
    [
        # net profit per 100 dollars of revenue: the net margin
        ("demo", "香港2024年每100美元收入能留下多少美元净利润?", ["NET_MARGIN"]),
        # gross profit per 100 dollars of revenue: the gross margin
        ("demo", "香港2024年每100美元收入能带来多少美元毛利?", ["GROSS_MARGIN"]),
        # R&D spent per yuan of net profit earned: the profile's R&D-to-profit ratio
        ("jy", "金宇生物2020年每賺1元淨利潤,要花多少元研發費用?", ["RD_TO_PROFIT"]),
        # negative: a ratio of that shape the profile lacks is declined, never either level
        ("jy", "金宇生物2020年每1元营业收入要花多少元销售费用?", []),
        # negative: per store is a per-unit of a count, not an amount
        ("demo", "香港2024年每家门店的收入是多少?", ["REVENUE_PER_STORE"]),
    ],
)  # fmt: skip
def test_a_ratio_per_amount_of_its_denominator(
    which: str, question: str, metrics: list[str], jy: DomainProfile
) -> None:
    parsed = parse_for(which, question, jy)
    assert parsed.metrics == metrics
    assert parsed.unknown_subject is None
    assert bool(parsed.declined) is not bool(metrics)
