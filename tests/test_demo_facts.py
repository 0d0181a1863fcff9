"""The demo data is a contract for the golden sets: shape, consistency and deliberate gaps."""

from __future__ import annotations

from collections import defaultdict

import pytest

from ragspine.demo.facts import demo_facts
from ragspine.profile import default_profile
from ragspine.storage.fact_store import Fact, FactStore


@pytest.fixture(scope="module")
def facts() -> dict[tuple[str, ...], Fact]:
    return {f.key: f for f in demo_facts()}


def test_the_seeds_example_is_exact(facts: dict[tuple[str, ...], Fact]) -> None:
    fact = facts[("REVENUE", "ACME_CN", "TOTAL", "FY", "2024")]
    assert fact.value == 1320 and fact.unit == "USD_M"
    assert fact.source_doc_id == "ACME_FY2024_Review.pptx"
    assert fact.source_locator == "slide=2,table=1,row=REVENUE,col=FY2024"


def test_every_entity_and_metric_has_fiscal_years(facts: dict[tuple[str, ...], Fact]) -> None:
    profile = default_profile()
    for entity in profile.entity_codes:
        for metric in [m.code for m in profile.metrics]:  # stored: derived ones are computed
            years = {k[4] for k in facts if k[:4] == (metric, entity, "TOTAL", "FY")}
            if entity == "ACME_TW" and metric == "SSSG":
                assert years == set()  # deliberate gap
            else:
                assert {"2023", "2024"} <= years, (entity, metric)


def test_deliberate_gaps(facts: dict[tuple[str, ...], Fact]) -> None:
    assert not [k for k in facts if k[4].startswith("2025")]  # FY2025: the not_found example
    assert not [k for k in facts if k[1] == "ACME_TW" and k[2] != "TOTAL"]
    assert not [k for k in facts if k[1] == "ACME_TW" and k[3] == "Q"]


def test_quarters_halves_and_channels_add_up(facts: dict[tuple[str, ...], Fact]) -> None:
    by_series: dict[tuple[str, str, str], dict[str, float]] = defaultdict(dict)
    for (metric, entity, channel, _, period), fact in facts.items():
        by_series[(metric, entity, channel)][period] = fact.value
    for (metric, entity, channel), values in by_series.items():
        if "2024Q1" in values:
            quarters = sum(values[f"2024Q{q}"] for q in range(1, 5))
            assert quarters == pytest.approx(values["2024"], abs=0.05), (metric, entity, channel)
        if "2024H1" in values:
            halves = values["2024H1"] + values["2024H2"]
            assert halves == pytest.approx(values["2024"], abs=0.05), (metric, entity, channel)
    for year in ("2022", "2023", "2024"):
        key = ("REVENUE", "ACME_CN")
        total = facts[(*key, "TOTAL", "FY", year)].value
        split = (
            facts[(*key, "ONLINE", "FY", year)].value + facts[(*key, "OFFLINE", "FY", year)].value
        )
        assert split == pytest.approx(total)


def test_acme_cn_revenue_fell_and_hong_kong_grew(facts: dict[tuple[str, ...], Fact]) -> None:
    """The narrative corpus explains these moves; the numbers must agree with it."""
    cn = [facts[("REVENUE", "ACME_CN", "TOTAL", "FY", y)].value for y in ("2022", "2023", "2024")]
    hk = [facts[("REVENUE", "ACME_HK", "TOTAL", "FY", y)].value for y in ("2022", "2023", "2024")]
    assert cn == sorted(cn, reverse=True) and hk == sorted(hk)


def test_demo_store_on_disk_holds_every_demo_fact(store: FactStore) -> None:
    assert store.count() == len(demo_facts())


def test_demo_figures_carry_their_files_levels(store: FactStore) -> None:
    """DOMAIN.md: only board material is RESTRICTED. The annual review decks are published
    results (PUBLIC, like the FY2024 MD&A); the quarterly KPI workbook is management's own."""
    levels = {(f.source_doc_id, f.sensitivity) for f in store.iter_facts()}
    assert levels == {
        ("ACME_FY2022_Review.pptx", "PUBLIC"),
        ("ACME_FY2023_Review.pptx", "PUBLIC"),
        ("ACME_FY2024_Review.pptx", "PUBLIC"),
        ("ACME_2024_Quarterly_KPI.xlsx", "INTERNAL"),
    }
    assert {(f.source_doc_id, f.sensitivity) for f in demo_facts()} == levels
