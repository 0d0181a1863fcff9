from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ragspine.errors import ProfileError
from ragspine.profile import default_profile, load_profile

DOMAIN_ENTITIES = {
    "ACME_GROUP": ["集团", "ACME集团", "全集团", "本集团", "ACME Group", "the group", "group"],
    "ACME_CN": [
        "中国内地",
        "内地",
        "中国大陆",
        "大陆",
        "中国",
        "mainland China",
        "Mainland",
        "China",
    ],
    "ACME_HK": ["香港", "Hong Kong", "HK"],
    "ACME_TW": ["台湾", "Taiwan"],
    "ACME_SEA": ["东南亚", "Southeast Asia", "SEA"],
}
DOMAIN_METRICS = {
    "REVENUE": (
        "USD_M",
        [
            "收入",
            "营收",
            "营业收入",
            "销售收入",
            "销售额",
            "总收入",
            "revenue",
            "sales",
            "turnover",
        ],
    ),
    "GROSS_PROFIT": ("USD_M", ["毛利", "毛利润", "gross profit"]),
    "GROSS_MARGIN": ("PCT", ["毛利率", "gross margin", "GM"]),
    "OPERATING_PROFIT": ("USD_M", ["经营利润", "营业利润", "operating profit", "EBIT"]),
    "NET_PROFIT": ("USD_M", ["净利润", "净利", "纯利", "net profit", "net income"]),
    "STORE_COUNT": ("COUNT", ["门店数", "门店数量", "店数", "store count", "number of stores"]),
    "SSSG": ("PCT", ["同店销售增长", "同店增长", "same-store sales growth", "SSSG", "comp sales"]),
}
DOMAIN_COMPETITORS = {
    "竞安": ["竞安", "竞安集团", "竞安中国", "竞安零售", "JingAn", "Jing An", "JA Retail"],
    "百盛达": ["百盛达", "百盛达集团", "BSD", "BSD Retail"],
    "泽尼斯": ["泽尼斯", "Zenith", "Zenith Retail"],
}


def test_demo_profile_loads_by_default() -> None:
    profile = load_profile()
    assert profile.home_company_name == "ACME集团"
    assert profile.home_entity_code == "ACME_GROUP"
    assert profile.default_channel == "TOTAL"


def test_demo_profile_keeps_every_domain_alias() -> None:
    """DOMAIN.md is a contract: aliases may be added, never removed or renamed."""
    profile = default_profile()
    for code, aliases in DOMAIN_ENTITIES.items():
        assert set(aliases) <= set(profile.entity(code).aliases), code
    for code, (unit, aliases) in DOMAIN_METRICS.items():
        assert profile.metric(code).unit == unit
        assert set(aliases) <= set(profile.metric(code).aliases), code
    external = {e.name: e.aliases for e in profile.external_entities}
    for name, aliases in DOMAIN_COMPETITORS.items():
        assert set(aliases) <= set(external[name]), name
    assert set(profile.channel_codes) == {"TOTAL", "ONLINE", "OFFLINE"}


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "profile.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return path


def _demo_data() -> dict[str, object]:
    return default_profile().model_dump()


def test_another_profile_is_a_file_away(tmp_path: Path) -> None:
    data = _demo_data()
    data["home_company_name"] = "Globex"
    assert load_profile(_write(tmp_path, data)).home_company_name == "Globex"


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        # unknown top-level field: extra="forbid"
        (lambda d: d.update(colour="red"), "colour"),
        # home entity must be one of the entities
        (lambda d: d.update(home_entity_code="NOPE"), "home_entity_code"),
        # a field inside a list item is named by the item's code, not its position
        (lambda d: d["metrics"][1].update(unit="usd m"), "metrics[GROSS_PROFIT].unit"),
        # ... and an alias by its text
        (lambda d: d["entities"][1]["aliases"].append(" "), "entities[ACME_CN].aliases"),
        # one alias may not name two metrics
        (lambda d: d["metrics"][1]["aliases"].append("营收"), "collides"),
        # a competitor alias may not also be a home alias
        (lambda d: d["external_entities"][0]["aliases"].append("香港"), "collides"),
        # nor a metric alias the company's name, across kinds
        (lambda d: d["metrics"][0]["aliases"].append("ACME集团"), "metrics[REVENUE]"),
        # nor a rival's alias a metric
        (lambda d: d["external_entities"][1]["aliases"].append("毛利"), "collides"),
        # a declared-unsupported term may not be a metric alias
        (lambda d: d.update(unsupported_terms=["净利润"]), "unsupported_terms"),
        # a derived metric's formula must parse ...
        (
            lambda d: d.update(derived_metrics=[{"code": "X", "aliases": ["x率"], "formula": "("}]),
            "derived_metrics[X].formula",
        ),
        # ... and name stored metrics only
        (
            lambda d: d.update(
                derived_metrics=[{"code": "X", "aliases": ["x率"], "formula": "NOPE/REVENUE"}]
            ),
            "NOPE is not a metric code",
        ),
        # coverage holds period labels
        (lambda d: d["metrics"][0].update(coverage=["2024"]), "metrics[REVENUE].coverage"),
        # two units with one code
        (lambda d: d.update(units=[{"code": "元", "display": "元"}] * 2), "units[元]"),
    ],
)
def test_bad_profile_names_file_and_field(tmp_path: Path, mutate, expected: str) -> None:  # type: ignore[no-untyped-def]
    data = _demo_data()
    mutate(data)
    path = _write(tmp_path, data)
    with pytest.raises(ProfileError) as err:
        load_profile(path)
    assert str(path) in str(err.value)
    assert expected in str(err.value)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("- just\n- a list\n", "YAML mapping"),  # wrong top-level type
        ("key: [unclosed\n", "invalid YAML"),  # syntax error
        ("!!python/object:os.system {}\n", "invalid YAML"),  # safe_load refuses object tags
    ],
)
def test_unreadable_profile_is_a_clear_error(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(content, "utf-8")
    with pytest.raises(ProfileError, match=expected):
        load_profile(path)


def test_missing_profile_file(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="not found"):
        load_profile(tmp_path / "nope.yaml")
