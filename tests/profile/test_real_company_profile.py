"""The profile schema a real listed company needs: one entity, no channels or geography, units
shown as people write them, line items that nest inside each other, derived metrics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from ragspine.errors import ProfileError
from ragspine.profile import DomainProfile, load_profile
from ragspine.profile.glossary import Glossary, closest_metrics
from ragspine.text import fold


def _company(**extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "co",
        "home_company_name": "样例股份有限公司",
        "home_entity_code": "CO",
        "entities": [{"code": "CO", "name_zh": "样例", "aliases": ["样例", "样例股份"]}],
        "units": [{"code": "CNY", "display": "元"}, {"code": "PCT", "display": "%"}],
        "metrics": [
            {"code": "INCOME_TAX", "unit": "CNY", "aliases": ["所得税费用", "所得税"]},
            {"code": "DTA", "unit": "CNY", "kind": "balance", "aliases": ["递延所得税资产"]},
            {"code": "CASH", "unit": "CNY", "kind": "balance", "aliases": ["货币资金"]},
            {"code": "STAFF", "unit": "CNY", "aliases": ["员工人数"]},
            {"code": "REVENUE", "unit": "CNY", "aliases": ["营业收入"]},
        ],
        "derived_metrics": [
            {
                "code": "REVENUE_GROWTH",
                "aliases": ["营业收入增长率"],
                "formula": "(REVENUE - prev(REVENUE)) / prev(REVENUE)",
            }
        ],
        "unsupported_terms": ["递延所得税负债", "博士及以上的员工人数"],
    }
    data.update(extra)
    return data


def _load(tmp_path: Path, data: dict[str, Any]) -> DomainProfile:
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return load_profile(path)


def _metrics(profile: DomainProfile, text: str) -> list[str]:
    return [m.code for m in Glossary(profile).metrics.find_all(fold(text))]


def test_one_entity_needs_no_channels_no_geography(tmp_path: Path) -> None:
    prof = _load(tmp_path, _company())
    assert prof.channel_codes == ["TOTAL"] and prof.entity("CO").geography is None
    assert prof.unit("CNY").display == "元"
    # a unit the profile does not declare shows its code (version-1 profiles)
    assert prof.unit("USD_M").display == "USD_M"


@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        ("2020年递延所得税资产是多少", ["DTA"]),  # not 所得税 inside the longer line item
        ("2020年递延所得税负债是多少", []),  # a known term without facts hides 所得税 too
        ("2020年所得税是多少", ["INCOME_TAX"]),  # the short alias alone still matches
        ("博士及以上的员工人数是多少", []),  # 员工人数 inside a longer declared term
        ("营业收入的增长率是多少", ["REVENUE_GROWTH"]),  # 的 before 增长率, as people write it
        ("营业收入增长率是多少", ["REVENUE_GROWTH"]),  # the derived alias, not 营业收入
    ],
)
def test_an_alias_never_matches_inside_a_longer_known_word(
    tmp_path: Path, question: str, metrics: list[str]
) -> None:
    assert _metrics(_load(tmp_path, _company()), question) == metrics


def test_codes_are_not_aliases_unless_declared(tmp_path: Path) -> None:
    prof = _load(tmp_path, _company())
    # CASH is a code, and "cash flow" is not 货币资金
    assert _metrics(prof, "what was the cash flow in 2020") == []
    # a tool argument may still be the code
    assert Glossary(prof).normalize_metric("CASH") == "CASH"
    declared = _load(tmp_path, _company(codes_are_aliases=True))
    assert _metrics(declared, "what was the cash flow in 2020") == ["CASH"]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        # a metric alias equal to the company's name
        (lambda d: d["metrics"][0]["aliases"].append("样例股份有限公司"), "metrics[INCOME_TAX]"),
        # a partner's alias equal to a metric alias
        (
            lambda d: d.update(
                external_entities=[{"name": "伙伴", "role": "partner", "aliases": ["营业收入"]}]
            ),
            "external_entities[伙伴]",
        ),
        # an entity alias equal to a metric alias
        (lambda d: d["entities"][0]["aliases"].append("货币资金"), "collides"),
        # a derived metric over a metric the profile does not have
        (
            lambda d: d["derived_metrics"].append(
                {"code": "X", "aliases": ["x率"], "formula": "NOPE / REVENUE"}
            ),
            "derived_metrics[X].formula",
        ),
        # a metric's unit is a word, never blank or spaced
        (lambda d: d["metrics"][0].update(unit="万 元"), "metrics[INCOME_TAX].unit"),
    ],
)
def test_collisions_and_bad_items_are_named_by_code(
    tmp_path: Path, change: Any, where: str
) -> None:
    data = _company()
    change(data)
    with pytest.raises(ProfileError, match=r"p\.yaml") as err:
        _load(tmp_path, data)
    assert where in str(err.value)


def test_ask_first_offers_the_closest_metrics_not_all(tmp_path: Path) -> None:
    prof = _load(tmp_path, _company())
    # 所得税 shares most with 所得税费用 and 递延所得税资产
    assert closest_metrics("2020年的所得税情况", prof, 2) == ["INCOME_TAX", "DTA"]
    # nothing shared: the first declared, as many as asked
    assert closest_metrics("hello", prof, 3) == ["INCOME_TAX", "DTA", "CASH"]
