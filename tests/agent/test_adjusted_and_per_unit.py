"""Two quantities a metric word written with more words is not (issue 27, round 6):

- an adjusted measure, the line before / excluding / net of an item (``line_qualifiers``):
  the profile's own name for it where held (利润总额 as profit before tax, EBIT), else declined
  by the whole phrase, never the line's level;
- a per-unit quantity over a unit the profile counts nothing of (per vaccine dose, 每剂, 每头,
  单位成本; ``modifiers``): declined by the whole phrase, never the level. A rate word (per
  cent, per annum), "per the report" (according to) and a unit the profile counts (per store)
  are no such unit.
"""

from __future__ import annotations

import pytest

from ragspine.profile import DomainProfile
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # before an item, English, its noun's tail (losses) in the name
        ("jy", "What was Jinyu's operating profit before impairment losses in 2020?",
         "operating profit before impairment losses"),
        # excluding one-offs
        ("jy", "What was Jinyu's net profit excluding one-off items in 2020?",
         "net profit excluding one-off items"),
        # before tax written after a line that is not the profile's profit before tax
        ("jy", "What was Jinyu's net profit before tax in 2020?", "net profit before tax"),
        # the adjustment as a prefix
        ("jy", "What was Jinyu's pre-impairment operating profit in 2020?",
         "pre-impairment operating profit"),
        # Chinese: 减值前 glued before the line
        ("jy", "金宇生物2020年减值前营业利润是多少?", "减值前营业利润"),
        # on the demo too: excluding an item, before interest and tax on a line
        ("acme", "What was ACME Group's net profit excluding restructuring costs in 2024?",
         "net profit excluding restructuring costs"),
    ],
)  # fmt: skip
def test_an_adjusted_measure_the_profile_lacks_is_declined_by_its_whole_phrase(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [], intent
    assert intent.declined == declined, intent


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        # the profile's own name for profit before tax: read as it is
        ("jy", "What was Jinyu's profit before tax in 2020?", "TOTAL_PROFIT"),
        # a shipped synonym (EBIT is not one: it is another line, tests/profile/test_vocabulary.py)
        ("jy", "What was Jinyu's operating income in 2020?", "OPERATING_PROFIT"),
        # "before" a period or "the year before": no adjustment
        ("jy", "What was Jinyu's operating profit before 2021?", "OPERATING_PROFIT"),
        ("jy", "What was Jinyu's operating profit in 2020, the year before the pandemic ended?",
         "OPERATING_PROFIT"),
        ("jy", "金宇生物2020年营业利润是多少?", "OPERATING_PROFIT"),  # the bare line
    ],
)  # fmt: skip
def test_the_held_name_or_a_line_before_a_period_is_read_as_it_is(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics[:1] == [metric], intent
    assert intent.declined is None, intent


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # per a unit of product, English, the unit's words in the name
        ("jy", "What was Jinyu's operating cost per vaccine dose in 2020?",
         "operating cost per vaccine dose"),
        ("jy", "What was Jinyu's operating cost per ton of output in 2020?",
         "operating cost per ton"),  # the unit ends before "of"
        # Chinese, the unit before the line (每剂疫苗的) or after it (每头)
        ("jy", "金宇生物2020年每剂疫苗的营业成本是多少?", "每剂疫苗的营业成本"),
        ("jy", "金宇生物2020年营业成本每头是多少?", "营业成本每头"),
        # unit cost: 单位 / unit glued before the line
        ("jy", "金宇生物2020年单位营业成本是多少?", "单位营业成本"),
        ("jy", "What was Jinyu's unit operating cost in 2020?", "unit operating cost"),
    ],
)  # fmt: skip
def test_a_per_unit_quantity_over_an_uncounted_unit_is_declined_by_its_whole_phrase(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [], intent
    assert intent.declined == declined, intent


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        # "per the report": according to, no unit
        ("jy", "What was Jinyu's operating cost in 2020 per the annual report?",
         "OPERATING_COSTS"),
        ("jy", "What was Jinyu's revenue per annum in 2020?", "REVENUE"),  # a rate word
        ("jy", "金宇生物2020年每年的营业成本是多少?", "OPERATING_COSTS"),  # its own period
        ("jy", "金宇生物2020年每股收益是多少?", "BASIC_EPS"),  # per share: the held EPS
        # a unit the profile counts: its ratio
        ("acme", "What was Hong Kong's revenue per store in 2024?", "REVENUE_PER_STORE"),
    ],
)  # fmt: skip
def test_a_rate_word_or_a_counted_unit_is_no_uncounted_unit(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [metric], intent
    assert intent.declined is None, intent
