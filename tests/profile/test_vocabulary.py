"""The shipped vocabulary (issue 27, issue 21 §6): metric phrases anchored by a profile, places,
and listed companies whose names hold a profile's alias, reported when a profile file loads."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from ragspine.profile import default_profile, load_profile
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
