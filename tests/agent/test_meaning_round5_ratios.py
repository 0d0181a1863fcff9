"""Issue 27, round 5: a ratio asked in another syntax, a multiple of one quantity across two
periods, and a channel or an entity excluded.

1. X是Y的百分之几 / 几成, X占Y的百分之几, X was what percentage (share, proportion) of Y, X
   relative to Y: the ratio X / Y, mapped by the profile's formula shape (a share of the group
   where Y is the same metric of the home entity); where no formula has that shape, declined by
   the ratio's name, never X's or Y's level;
2. X是<period>的多少倍 / how many times its <period> level: X's two levels, never a decline of
   a garbled name;
3. not including / excluding / except / 不含 / 不包括 / 除…以外 a channel: the one other channel
   that makes up the total where the profile has exactly one, else declined by name; an entity
   excluded is never queried, and where no named part is left the quantity is declined.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.engine import Engine
from ragspine.profile import DomainProfile, default_profile, load_profile
from tests.agent.asking import ask, found

REF = date(2025, 6, 30)
JY_REF = date(2022, 6, 30)
JINYU = Path(__file__).parents[2] / "examples" / "jinyu" / "profile.yaml"


@pytest.fixture(scope="module")
def jy() -> DomainProfile:
    with pytest.warns(UserWarning):  # 金宇 is part of 金宇车城
        return load_profile(JINYU)


def _demo_with(*derived: dict[str, object], channels: list[str] | None = None) -> DomainProfile:
    """The demo profile with only these derived metrics (and, given, more channels)."""
    data = default_profile().model_dump(exclude_none=True) | {"derived_metrics": list(derived)}
    for code in channels or []:
        data["channels"] = [*data["channels"], {"code": code, "aliases": [code.lower()]}]
    return DomainProfile.model_validate(data)


# Each aliased only by a name no question below uses: the shape maps, not an alias.
ODD = _demo_with(
    {"code": "M1", "aliases": ["戊指标"], "formula": "OPERATING_PROFIT / REVENUE"},
    {"code": "S1", "aliases": ["乙指标"], "formula": "REVENUE / REVENUE[entity=ACME_GROUP]"},
)


def _parse(which: str, question: str, jy: DomainProfile) -> object:
    profile = {"demo": None, "odd": ODD, "jy": jy}[which]
    return parse_intent(question, JY_REF if which == "jy" else REF, profile=profile)


@pytest.mark.parametrize(
    ("which", "question", "metrics", "entities"),
    [
        # the same metric of the group after 是…的: a share of the group
        ("demo", "台湾2024年的收入是集团收入的百分之几?", ["REVENUE_SHARE"], ["ACME_TW"]),
        # the group alone after 是…的, in 几成
        ("demo", "台湾2024年的收入是集团的几成?", ["REVENUE_SHARE"], ["ACME_TW"]),
        # 占…的百分之几: the share word 百分之几 after 占
        ("demo", "台湾2024年收入占集团收入的百分之几?", ["REVENUE_SHARE"], ["ACME_TW"]),
        # another metric of its own (its revenue): net profit / revenue
        ("demo", "Southeast Asia's 2024 net profit was what percentage of its revenue?",
         ["NET_MARGIN"], ["ACME_SEA"]),
        # the group's revenue in English: a share of the group
        ("demo", "Hong Kong's 2024 revenue was what share of the group's revenue?",
         ["REVENUE_SHARE"], ["ACME_HK"]),
        # relative to another metric
        ("demo", "What was Hong Kong's 2024 net profit relative to its revenue?",
         ["NET_MARGIN"], ["ACME_HK"]),
        # 金宇生物: admin expenses / revenue
        ("jy", "金宇生物2021年的管理费用是营业收入的百分之几?", ["ADMIN_EXPENSE_RATIO"], ["JINYU"]),
        # R&D over net profit, postposed in English
        ("jy", "Jinyu's 2021 R&D expenses were what percentage of its net profit?",
         ["RD_TO_PROFIT"], ["JINYU"]),
        # 其 for its own, traditional characters
        ("jy", "金宇生物2021年的管理費用是其營業收入的百分之多少?", ["ADMIN_EXPENSE_RATIO"],
         ["JINYU"]),
        # the shape, whatever the derived metrics are called
        ("odd", "香港2024年的经营利润是收入的百分之几?", ["M1"], ["ACME_HK"]),
        ("odd", "台湾2024年的收入是集团收入的百分之几?", ["S1"], ["ACME_TW"]),
    ],
)  # fmt: skip
def test_a_postposed_ratio_is_the_profiles_ratio_of_that_shape(
    which: str, question: str, metrics: list[str], entities: list[str], jy: DomainProfile
) -> None:
    intent = _parse(which, question, jy)
    assert intent.metrics == metrics, intent  # type: ignore[attr-defined]
    assert intent.entities == entities and intent.declined is None  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # no formula of finance / admin expenses: declined by the ratio's name
        ("jy", "金宇生物2021年财务费用是管理费用的百分之几?", "财务费用占管理费用的比例"),
        # the same in English
        ("jy", "Jinyu's 2021 finance expenses were what percentage of its administrative "
               "expenses?", "finance expenses as a percentage of administrative expenses"),
        # the same metric of another part: a share of the group is not it
        ("demo", "香港2024年的收入是台湾收入的百分之几?", "收入占台湾收入的比例"),
        ("demo", "香港2024年收入占台湾收入的比重是多少?", "收入占台湾收入的比重"),
        # of another period: no formula holds it
        ("demo", "香港2024年的收入是2023年的百分之几?", "收入占2023年的比例"),
        # the shape missing: not the operating profit level
        ("odd", "香港2024年的净利润是收入的百分之几?", "净利润占收入的比例"),
    ],
)  # fmt: skip
def test_a_postposed_ratio_no_formula_holds_is_declined_by_its_name(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = _parse(which, question, jy)
    assert intent.metrics == [] and intent.declined == declined, intent  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("which", "question", "metrics"),
    [
        # 百分之几 with a verb of change: the growth rate, not a share
        ("demo", "香港2024年收入增长了百分之几?", ["REVENUE_YOY"]),
        # 是 before 多少: the level asked
        ("demo", "台湾2024年的收入是多少?", ["REVENUE"]),
        # a multiple of two metrics held as a ratio: still the ratio
        ("jy", "金宇生物2021年流动资产是流动负债的几倍?", ["CURRENT_RATIO"]),
        # a multiple of two entities: both levels, as before
        ("demo", "2024年香港的毛利是台湾的几倍?", ["GROSS_PROFIT"]),
        # what percentage of the whole was the part: the part's ratio, as before
        ("demo", "What percentage of Hong Kong's 2024 revenue was net profit?", ["NET_MARGIN"]),
        # relative to a year: no ratio of metrics is asked
        ("demo", "How did Hong Kong's 2024 revenue look relative to 2023?", ["REVENUE"]),
    ],
)  # fmt: skip
def test_the_same_words_without_a_postposed_ratio_read_as_before(
    which: str, question: str, metrics: list[str], jy: DomainProfile
) -> None:
    intent = _parse(which, question, jy)
    assert intent.metrics == metrics, intent  # type: ignore[attr-defined]


def test_a_postposed_share_of_the_group_is_computed_from_sourced_operands(demo: Engine) -> None:
    result = ask(demo, "台湾2024年的收入是集团收入的百分之几?")
    assert found(result) == ["REVENUE_SHARE"] and "9.51%" in result.answer, result.answer


def test_a_postposed_ratio_of_two_metrics_is_computed(jinyu: Engine) -> None:
    result = ask(jinyu, "金宇生物2021年的管理费用是营业收入的百分之几?")
    assert found(result) == ["ADMIN_EXPENSE_RATIO"] and "7.59" in result.answer, result.answer


@pytest.mark.parametrize(
    ("question", "channels", "periods"),
    [
        # a year as the whole of a multiple: the metric in both years
        ("集团2024年线上收入是2022年的多少倍?", ["ONLINE"], ["2024", "2022"]),
        # the same in English, its level in another year
        ("Hong Kong's 2024 revenue was how many times its 2022 level?", [], ["2024", "2022"]),
        # the earlier year named first, 几倍
        ("香港2024年的收入相当于2022年的几倍?", [], ["2024", "2022"]),
    ],
)  # fmt: skip
def test_a_multiple_across_two_periods_is_the_metric_in_both(
    question: str, channels: list[str], periods: list[str]
) -> None:
    intent = parse_intent(question, REF)
    assert intent.metrics == ["REVENUE"] and intent.declined is None, intent
    assert intent.channels == channels and [p.period for p in intent.periods] == periods


def test_a_multiple_of_one_period_names_no_second_level() -> None:
    intent = parse_intent("集团2024年线上收入是多少倍?", REF)  # no second operand: declined
    assert intent.metrics == [] and intent.declined == "线上收入是多少倍", intent


def test_a_multiple_across_years_answers_both_sourced_levels(demo: Engine) -> None:
    result = ask(demo, "集团2024年线上收入是2022年的多少倍?")
    assert found(result) == ["REVENUE", "REVENUE"], result.answer
    assert "491" in result.answer and "331" in result.answer, result.answer
