"""Country and region codes naming a profile's entities (round 5 of issue 27): TW is the demo's
Taiwan, by its geography; a profile naming an entity only by its English name gets its ISO codes
too; a code two entities would share names neither; a lower-case code or a word is no code."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.glossary import glossary_for
from ragspine.profile.regions import country_codes, entity_codes
from ragspine.profile.vocabulary import initialisms
from ragspine.text import fold


def _with_entities(*entities: dict[str, Any]) -> DomainProfile:
    data = default_profile().model_dump(exclude_none=True)
    return DomainProfile.model_validate(data | {"entities": [data["entities"][0], *entities]})


def test_the_demos_regions_are_named_by_their_codes() -> None:
    assert entity_codes(default_profile()) == {
        "ACME_CN": ["CHN", "CN"],  # geography CN: China's alpha-2 and alpha-3 codes
        "ACME_HK": ["HK", "HKG"],
        "ACME_SEA": ["SEA"],  # a region's own code, no country's
        "ACME_TW": ["TW", "TWN"],
    }


def test_an_entity_without_a_geography_is_found_by_its_english_name() -> None:
    prof = _with_entities({"code": "X_SG", "name_en": "Singapore", "aliases": ["新加坡"]})
    assert entity_codes(prof)["X_SG"] == ["SG", "SGP"]


def test_a_code_two_entities_would_share_names_neither() -> None:
    prof = _with_entities(
        {"code": "X_CN_ON", "geography": "CN", "aliases": ["内地线上"]},  # both in China
        {"code": "X_CN_OFF", "geography": "CN", "aliases": ["内地线下"]},
    )
    assert entity_codes(prof) == {}


def test_a_company_with_no_country_gains_no_code() -> None:
    data = default_profile().model_dump(exclude_none=True)
    group = data["entities"][0]  # geography GLOBAL, name ACME Group: no country
    assert entity_codes(DomainProfile.model_validate(data | {"entities": [group]})) == {}


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("tw net profit", [("entities", "ACME_TW")]),  # the glossary reads folded text…
        ("two stores", []),  # …a word holding the code is not it
    ],
)  # fmt: skip
def test_the_glossary_reads_a_code_as_a_whole_word(text: str, found: list[tuple[str, str]]) -> None:
    scan = glossary_for(default_profile()).scan(fold(text))
    assert [(k, m.code) for k, m in scan if k == "entities"] == found


def test_codes_are_initialisms_read_only_in_capitals() -> None:
    words = initialisms(default_profile())
    assert {"tw", "twn", "op", "npat"} <= words  # codes and shipped initialisms
    assert "hk" not in words and "sea" not in words  # the profile's own aliases: as it says
    assert {"SG", "USA", "JP"} <= country_codes()
