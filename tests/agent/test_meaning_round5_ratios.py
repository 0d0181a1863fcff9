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
   excluded is never queried, and where no named part is left the quantity is declined;
4. a sum less a part named beside it (期间费用(不含研发费用)): the sum of the parts left where
   every sum the quantity may mean agrees on them, else declined as before.
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
        # a clause with its subject elided: the share of the metric the clause before asked
        ("demo", "香港2024年的净利润是多少,是收入的百分之几?", ["NET_PROFIT", "NET_MARGIN"],
         ["ACME_HK"]),
        ("demo", "香港2024年的收入是多少,占集团收入的比重是多少?", ["REVENUE", "REVENUE_SHARE"],
         ["ACME_HK"]),
        # divided by: the division said in words
        ("demo", "香港2024年净利润除以收入是多少?", ["NET_MARGIN"], ["ACME_HK"]),
        ("demo", "What was Hong Kong's 2024 net profit divided by its revenue?", ["NET_MARGIN"],
         ["ACME_HK"]),
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
        # divided by, no formula: declined by the question's words, as a ratio word is
        ("jy", "金宇生物2021年财务费用除以管理费用是多少?", "财务费用除以管理费用"),
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
        # a verb of change where a whole would stand after 是: still the growth rate
        ("demo", "香港2024年收入是同比增长了百分之几?", ["REVENUE_YOY"]),
        # 是 before 多少: the level asked
        ("demo", "台湾2024年的收入是多少?", ["REVENUE"]),
        # two clauses, each its own subject: each metric's level
        ("demo", "香港2024年的收入是多少,净利润是多少?", ["REVENUE", "NET_PROFIT"]),
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


# A fourth channel: online is no longer the total's only other part.
WHOLESALE = _demo_with(channels=["WHOLESALE"])


@pytest.mark.parametrize(
    ("question", "channels", "entities"),
    [
        # not including a channel: the one other channel
        ("What were the group's 2024 sales, not including online?", ["OFFLINE"], ["ACME_GROUP"]),
        ("集团2024年不含线上的收入是多少?", ["OFFLINE"], ["ACME_GROUP"]),  # 不含
        ("集团2024年除线上以外的收入是多少?", ["OFFLINE"], ["ACME_GROUP"]),  # 除…以外
        ("What was the group's 2024 revenue excluding offline?", ["ONLINE"], ["ACME_GROUP"]),
        ("集团2024年非线上收入是多少?", ["OFFLINE"], ["ACME_GROUP"]),  # 非: not that channel
        # another channel named beside the excluded one: that one
        ("集团2024年除线上外,线下收入是多少?", ["OFFLINE"], ["ACME_GROUP"]),
        # an entity excluded, another named: the one named
        ("除香港以外,台湾2024年的收入是多少?", [], ["ACME_TW"]),
        # a rank over the parts: the parts left
        ("除香港外,2024年哪个地区的收入最高?", [], ["ACME_CN", "ACME_TW", "ACME_SEA"]),
        # a channel included: the total holds it
        ("What were the group's 2024 sales, including online?", [], ["ACME_GROUP"]),
        ("集团2024年含线上在内的收入是多少?", [], ["ACME_GROUP"]),
        # 不包括…在内: left out, not included
        ("集团2024年不包括线上在内的收入是多少?", ["OFFLINE"], ["ACME_GROUP"]),
    ],
)  # fmt: skip
def test_a_part_left_out_is_never_the_part_asked(
    question: str, channels: list[str], entities: list[str]
) -> None:
    intent = parse_intent(question, REF)
    assert intent.metrics == ["REVENUE"] and intent.declined is None, intent
    assert intent.channels == channels and intent.entities == entities, intent


@pytest.mark.parametrize(
    ("profile", "question", "declined"),
    [
        # three other regions: no entity holds the rest
        (None, "集团2024年不含香港的收入是多少?", "不含香港的收入"),
        (None, "What was the group's 2024 revenue excluding Hong Kong?",
         "revenue excluding Hong Kong"),
        # two listed with the cue
        (None, "除香港和台湾外,集团2024年收入是多少?", "不含香港、台湾的收入"),
        # two other channels: no channel holds the rest
        (WHOLESALE, "集团2024年不含线上的收入是多少?", "不含线上的收入"),
    ],
)  # fmt: skip
def test_a_rest_no_part_holds_is_declined_by_name(
    profile: DomainProfile | None, question: str, declined: str
) -> None:
    intent = parse_intent(question, REF, profile=profile)
    assert intent.metrics == [] and intent.declined == declined, intent


@pytest.mark.parametrize(
    ("question", "channels", "entities"),
    [
        # the cue before no channel nor entity (the rent, tax): nothing is left out
        ("Excluding the rent, what was Hong Kong's net profit in 2024?", [], ["ACME_HK"]),
        ("集团2024年线上收入(不含税)是多少?", ["ONLINE"], ["ACME_GROUP"]),
        # the channel asked, no cue
        ("集团2024年线上收入是多少?", ["ONLINE"], ["ACME_GROUP"]),
    ],
)  # fmt: skip
def test_a_cue_before_no_part_leaves_nothing_out(
    question: str, channels: list[str], entities: list[str]
) -> None:
    intent = parse_intent(question, REF)
    assert intent.metrics in (["REVENUE"], ["NET_PROFIT"]) and intent.declined is None, intent
    assert intent.channels == channels and intent.entities == entities, intent


def test_sales_not_including_online_are_the_offline_channels(demo: Engine) -> None:
    result = ask(demo, "What were the group's 2024 sales, not including online?")
    assert found(result) == ["REVENUE"] and "1,907" in result.answer, result.answer
    assert result.tool_results[0]["channel"] == "OFFLINE"  # type: ignore[typeddict-item]


# A sum the profile names as a derived metric: one reading, whatever is left out of it.
SUMMED = _demo_with(
    {"code": "PROFITS", "aliases": ["利润合计", "combined profit"], "percent": False,
     "unit": "USD_M", "formula": "GROSS_PROFIT + NET_PROFIT"},
)  # fmt: skip


@pytest.mark.parametrize(
    ("which", "question", "metrics"),
    [
        # 期间费用 is three lines or four: without R&D it is the three either way
        ("jy", "金宇生物2021年期间费用（不含研发费用）占营业收入的比重是多少?",
         ["THREE_EXPENSES_SHARE"]),
        # the same in English
        ("jy", "What were Jinyu's 2021 period expenses excluding R&D expenses as a percentage "
               "of revenue?", ["THREE_EXPENSES_SHARE"]),
        # 不包括…在内 in brackets
        ("jy", "金宇生物2021年期间费用(不包括研发费用在内)占营业收入的比重是多少?",
         ["THREE_EXPENSES_SHARE"]),
        # a derived sum less one of its two parts: the other part
        ("summed", "香港2024年利润合计(不含净利润)是多少?", ["GROSS_PROFIT"]),
    ],
)  # fmt: skip
def test_a_sum_less_a_part_is_the_sum_of_the_parts_left(
    which: str, question: str, metrics: list[str], jy: DomainProfile
) -> None:
    profile = jy if which == "jy" else SUMMED
    intent = parse_intent(question, JY_REF if which == "jy" else REF, profile=profile)
    assert intent.metrics == metrics and intent.declined is None, intent


@pytest.mark.parametrize(
    ("question", "metrics", "declined"),
    [
        # without finance expenses: two lines or three, by the standard: no one sum
        ("金宇生物2021年期间费用（不含财务费用）占营业收入的比重是多少?", [], "期间费用"),
        # a list, nothing left out: each asked (期间费用 declined by its name, as before)
        ("金宇生物2021年期间费用和研发费用分别是多少?", ["RD_EXPENSES"], "期间费用"),
    ],
)  # fmt: skip
def test_a_sum_whose_readings_disagree_is_not_a_sum_of_parts(
    question: str, metrics: list[str], declined: str, jy: DomainProfile
) -> None:
    intent = parse_intent(question, JY_REF, profile=jy)
    assert intent.metrics == metrics and intent.declined == declined, intent


def test_the_three_expenses_share_is_computed_from_sourced_operands(jinyu: Engine) -> None:
    result = ask(jinyu, "金宇生物2021年期间费用（不含研发费用）占营业收入的比重是多少?")
    assert found(result) == ["THREE_EXPENSES_SHARE"] and "25.98" in result.answer, result.answer
