"""A decline names the WHOLE unknown thing (round 16): a region name glued to a place word, a
company's legal name holding the home company's name, a promotion before the verb it brings a
figure by, a product line sold, never a fragment of it nor the total in its place."""

from __future__ import annotations

import warnings
from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.agent.scope import out_of_scope
from ragspine.profile import DomainProfile, default_profile, load_profile

ACME = default_profile()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the jinyu profile's alias note
    JINYU = load_profile(Path(__file__).parents[2] / "examples" / "jinyu" / "profile.yaml")
REF = date(2025, 3, 1)


def _named(question: str, profile: DomainProfile) -> str | None:
    beyond = out_of_scope(question, profile)
    if beyond is not None:
        return beyond.name
    intent = parse_intent(question, REF, profile=profile)
    return intent.subjects[0].name if intent.subjects else None


@pytest.mark.parametrize(
    ("question", "profile", "name"),
    [
        # a place word glued after an unknown run: the whole region is named, not its first half
        ("ACME在粤港澳大湾区一共有多少家门店?", ACME, "粤港澳大湾区"),
        # a legal name holding the home company's name, with a place before it and a trade
        # (控股) after: another company, named whole
        ("內蒙古金宇生物控股有限公司2020年的淨利潤是多少?", JINYU, "內蒙古金宇生物控股有限公司"),
        ("金宇生物控股有限公司2020年的淨利潤是多少?", JINYU, "金宇生物控股有限公司"),
        # what brings the figure is named, not the verb it brings it by
        ("集团2024年半价促销带来的销售额是多少?", ACME, "半价促销"),
        # a product line sold, a code-like name (H1N1) included: never the total revenue
        ("What were Jinyu's sales of H1N1 flu vaccines in 2020?", JINYU, "H1N1 flu vaccines"),
    ],
)  # fmt: skip
def test_the_whole_unknown_thing_is_named(question: str, profile: DomainProfile, name: str) -> None:
    assert _named(question, profile) == name


@pytest.mark.parametrize(
    ("question", "profile"),
    [
        # the home company's own legal name: itself, no other company
        ("金宇生物技术股份有限公司2020年的净利润是多少?", JINYU),
        # a held place before a metric with no unknown run glued to it: nothing to decline
        ("ACME香港2024年的门店数是多少?", ACME),
        # a period code is no product name
        ("What was Jinyu's revenue in H1 2020?", JINYU),
    ],
)  # fmt: skip
def test_no_unknown_thing_where_all_is_held(question: str, profile: DomainProfile) -> None:
    assert out_of_scope(question, profile) is None
    assert parse_intent(question, REF, profile=profile).subjects == []


@pytest.mark.parametrize(
    ("question", "profile", "name"),
    [
        # a verb of holding names nothing: the noun phrase held is the quantity asked of
        ("How much did Jinyu hold in pound sterling deposits at the end of 2020?", JINYU,
         "pound sterling deposits"),
        # a verb of spending likewise (the row that held before: no regression)
        ("How much did Jinyu spend on share buybacks in 2020?", JINYU, "share buybacks"),
    ],
)  # fmt: skip
def test_a_verb_of_holding_names_no_quantity(
    question: str, profile: DomainProfile, name: str
) -> None:
    assert parse_intent(question, REF, profile=profile).declined == name


def test_a_held_metric_after_hold_is_still_read() -> None:
    # the verb removed from the residue, a held metric it governs is read as before
    intent = parse_intent("How much cash did Jinyu hold at the end of 2020?", REF, profile=JINYU)
    assert intent.declined != "hold"
