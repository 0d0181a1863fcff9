"""The shipped vocabulary (issue 27, issue 21 §6): metric phrases anchored by a profile, places,
and listed companies whose names hold a profile's alias, reported when a profile file loads."""

from __future__ import annotations

import functools
import warnings
from pathlib import Path

import pytest

from ragspine.profile import DomainProfile, default_profile, load_profile
from ragspine.profile.glossary import glossary_for
from ragspine.profile.vocabulary import AliasCollisionWarning, alias_collisions
from ragspine.text import fold

JINYU = Path(__file__).parents[2] / "examples" / "jinyu" / "profile.yaml"
DEMO = Path(__file__).parents[2] / "ragspine" / "profile" / "acme.yaml"


def test_loading_a_profile_file_warns_of_an_alias_inside_a_listed_companys_name() -> None:
    with pytest.warns(AliasCollisionWarning, match=r"alias '金宇' is part of .*金宇车城"):
        load_profile(JINYU)


def test_the_packaged_demo_loads_quietly_its_collisions_reviewed() -> None:
    # 中国 (mainland China) is in 中国天楹, 中国石油…: a question naming them is declined
    assert [c.alias for c in alias_collisions(default_profile())] == ["中国"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        default_profile()
    with pytest.warns(AliasCollisionWarning, match="中国天楹"):
        load_profile(DEMO)  # the same file, loaded by its path, says so


@pytest.mark.parametrize(
    ("text", "kind", "code"),
    [
        # a shipped phrase anchored to the demo's own metric: more ways of naming it
        ("comparable-store sales", "metrics", "SSSG"),
        ("like-for-like sales", "metrics", "SSSG"),
        ("可比门店销售增长", "metrics", "SSSG"),
        ("可比店销售增长率", "metrics", "SSSG"),  # 率 after the growth: the same rate
        ("可比门店销售", "metrics", "SSSG"),  # comparable-store sales, mainland wording
        ("多少個據點", "metrics", "STORE_COUNT"),  # Taiwan: outlets
        # a phrase the demo does not hold, longer than the metric word inside it
        ("inventory turnover", "quantity", "INVENTORY_TURNOVER"),  # not turnover = revenue
        ("同店销售额", "quantity", "SAME_STORE_SALES_AMOUNT"),  # not 同店销售 nor 销售额
        ("存货周转率", "quantity", "INVENTORY_TURNOVER"),
        # a place: the shipped list's, never the demo's entity
        ("kowloon", "place", "九龙"),
    ],
)  # fmt: skip
def test_the_demo_reads_shipped_phrases_as_whole_terms(text: str, kind: str, code: str) -> None:
    (found,) = glossary_for(default_profile()).scan(fold(text))
    assert (found[0], found[1].code) == (kind, code)


@pytest.mark.parametrize(
    "text",
    [
        "根据点评网的数据",  # 根据 (according to) then 点评: no 据点 inside
        "依据点击量排序",  # 依据 then 点击
        "可比公司",  # 可比 without sales
    ],
)  # fmt: skip
def test_an_outlet_or_comparable_word_inside_other_words_names_no_metric(text: str) -> None:
    codes = [m.code for _, m in glossary_for(default_profile()).scan(fold(text))]
    assert "STORE_COUNT" not in codes and "SSSG" not in codes


def test_a_real_company_anchors_the_phrases_its_profile_shares() -> None:
    glossary = glossary_for(load_profile(JINYU))
    # its unsupported term 存货周转率 takes the English phrase along; sales growth is its growth
    assert [(k, m.code) for k, m in glossary.scan("inventory turnover")] == [
        ("unsupported", "存货周转率")
    ]
    assert [(k, m.code) for k, m in glossary.scan("sales growth")] == [
        ("metrics", "REVENUE_GROWTH")
    ]
    assert [(k, m.code) for k, m in glossary.scan("同店销售")] == [("quantity", "SSSG")]
    # R&D intensity names its derived metric of the shape R&D expenses / revenue, by the shape
    assert [(k, m.code) for k, m in glossary.scan("r&d intensity")] == [
        ("metrics", "RD_TO_REVENUE")
    ]


def test_no_shipped_phrase_names_two_quantities() -> None:
    """A phrase (folded: traditional and simplified, case) belongs to one group: otherwise which
    quantity it names would depend on the order the groups are read in."""
    from ragspine.profile.model import compact
    from ragspine.profile.vocabulary import phrase_groups

    owner: dict[str, str] = {}
    clashes = []
    for group in phrase_groups():
        for phrase in group.phrases:
            key = compact(fold(phrase))
            if owner.setdefault(key, group.id) != group.id:
                clashes.append(f"{phrase}: {owner[key]} and {group.id}")
    assert clashes == []


def _renamed() -> DomainProfile:
    """The demo's metrics under codes and names of another company's: operating profit is
    OP_INCOME named only 营业利润, its margin OPM_X named by no shipped phrase, net profit NP
    named 净利润, cash flow CFO named 经营活动现金流量净额."""
    data = default_profile().model_dump(exclude_none=True)
    renames = {"OPERATING_PROFIT": ("OP_INCOME", ["营业利润"]), "NET_PROFIT": ("NP", ["净利润"])}
    metrics = []
    for m in data["metrics"]:
        code, aliases = renames.get(m["code"], (m["code"], m["aliases"]))
        metrics.append(m | {"code": code, "aliases": aliases})
    metrics.append({"code": "CFO", "unit": "USD_M", "aliases": ["经营活动现金流量净额"]})
    derived = [{"code": "OPM_X", "aliases": ["庚指标"], "formula": "OP_INCOME / REVENUE"}]
    return DomainProfile.model_validate(data | {"metrics": metrics, "derived_metrics": derived})


# Standard financial synonyms shipped once (metric_phrases.yaml), not written into any profile:
# each finds the profile's metric of that meaning, by a name the profile gives it or, for a
# derived metric, by its formula's shape, whatever its code.
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("營業利益", "OP_INCOME"),  # Taiwan: operating profit
        ("op income", "OP_INCOME"),
        ("營益率", "OPM_X"),  # Taiwan: operating margin, a ratio of operating profit to revenue
        ("op margin", "OPM_X"),
        ("营业利益率", "OPM_X"),
        ("稅後淨利", "NP"),  # Taiwan: net profit after tax
        ("税后利润", "NP"),  # the mainland's after-tax profit
        ("profit after tax", "NP"),
        ("profit for the year", "NP"),  # IFRS's line name
        ("cash generated from operations", "CFO"),
        ("net cash provided by operating activities", "CFO"),
        ("net sales", "REVENUE"),
    ],
)  # fmt: skip
def test_a_shipped_synonym_names_the_profiles_metric_of_that_meaning(text: str, code: str) -> None:
    (found,) = glossary_for(_renamed()).scan(fold(text))
    assert (found[0], found[1].code) == ("metrics", code)


@functools.cache
def _jinyu() -> DomainProfile:
    with pytest.warns(AliasCollisionWarning):  # 金宇 is part of 金宇车城
        return load_profile(JINYU)


@pytest.mark.parametrize(
    ("text", "kind", "code"),
    [
        ("R&D intensity", "metrics", "RD_TO_REVENUE"),  # its formula: R&D expenses / revenue
        ("研发投入强度", "metrics", "RD_TO_REVENUE"),
        ("admin expense ratio", "metrics", "ADMIN_EXPENSE_RATIO"),
        ("每股盈餘", "metrics", "BASIC_EPS"),  # Taiwan: earnings per share
    ],
)  # fmt: skip
def test_a_real_company_finds_its_metric_by_a_shipped_synonym(
    text: str, kind: str, code: str
) -> None:
    glossary = glossary_for(_jinyu())
    assert [(k, m.code) for k, m in glossary.scan(fold(text))] == [(kind, code)]


def test_a_synonym_of_a_quantity_the_demo_lacks_is_that_quantity_not_a_metric_inside_it() -> None:
    # no R&D line in the demo: R&D intensity is declined by name, never revenue
    assert [(k, m.code) for k, m in glossary_for(default_profile()).scan("r&d intensity")] == [
        ("quantity", "RD_INTENSITY")
    ]


# A shipped group holds exact synonyms only: a line with another definition is its own group,
# so a profile that lacks it declines it by name, never with the nearest line's figure.
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("gearing ratio", "GEARING"),  # borrowings over equity, not liabilities over assets
        ("leverage ratio", "GEARING"),  # debt over equity (or EBITDA): never debt-to-assets
        ("debt-to-equity ratio", "GEARING"),
        ("息税前利润", "EBIT"),  # total profit plus interest: not 营业利润 (after finance costs)
        ("EBIT", "EBIT"),
    ],
)  # fmt: skip
def test_a_line_of_another_definition_is_not_the_real_companys_nearest_metric(
    text: str, code: str
) -> None:
    assert [(k, m.code) for k, m in glossary_for(_jinyu()).scan(fold(text))] == [("quantity", code)]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("资产负债率", "DEBT_TO_ASSETS"),  # the held ratio keeps its own names
        ("debt-to-asset ratio", "DEBT_TO_ASSETS"),
        ("营业利润", "OPERATING_PROFIT"),
    ],
)  # fmt: skip
def test_the_held_lines_keep_their_names(text: str, code: str) -> None:
    assert [(k, m.code) for k, m in glossary_for(_jinyu()).scan(fold(text))] == [("metrics", code)]


def test_a_profile_that_names_its_operating_profit_ebit_keeps_it() -> None:
    # the demo declares EBIT an alias of its operating profit: the profile wins
    scan = glossary_for(default_profile()).scan(fold("EBIT"))
    assert [(k, m.code) for k, m in scan] == [("metrics", "OPERATING_PROFIT")]


# Round 15's synonyms (metric_phrases.yaml, the profiles): each names the held line of that
# meaning; a near phrase of another meaning keeps its own reading.
@pytest.mark.parametrize(
    ("text", "kind", "code"),
    [
        ("operating result", "metrics", "OPERATING_PROFIT"),  # the line, singular
        ("operating results", "quantity", "OPERATING_RESULTS"),  # the period's results: no line
        ("digital sales penetration", "metrics", "ONLINE_SHARE"),
        ("網上銷售佔比", "metrics", "ONLINE_SHARE"),  # 網上 = online (Hong Kong usage)
        ("網上", "channels", "ONLINE"),  # the demo's online channel
        ("digital sales", "metrics", "REVENUE"),  # not the share: 'digital' is left to decline
    ],
)  # fmt: skip
def test_the_demo_reads_round15_synonyms(text: str, kind: str, code: str) -> None:
    scan = glossary_for(default_profile()).scan(fold(text))
    assert [(k, m.code) for k, m in scan] == [(kind, code)]


@pytest.mark.parametrize(
    ("text", "kind", "code"),
    [
        ("EBT", "metrics", "TOTAL_PROFIT"),  # earnings before tax = 利润总额
        ("earnings before tax", "metrics", "TOTAL_PROFIT"),
        ("EBIT", "quantity", "EBIT"),  # before interest too: another line
        ("EBITDA", "quantity", "EBITDA"),
        ("生产工人", "metrics", "PRODUCTION_STAFF"),  # 生产人员
        ("long-term liabilities", "metrics", "NON_CURRENT_LIABILITIES"),
        ("長期負債", "metrics", "NON_CURRENT_LIABILITIES"),  # 非流动负债合计
        ("长期借款", "unsupported", "长期借款"),  # one line inside it, never the total
        ("金宇集团", "entities", "JINYU"),  # its short name before the change
    ],
)  # fmt: skip
def test_the_real_company_reads_round15_synonyms(text: str, kind: str, code: str) -> None:
    assert [(k, m.code) for k, m in glossary_for(_jinyu()).scan(fold(text))] == [(kind, code)]
