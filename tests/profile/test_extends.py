"""A company profile over the shipped base `cas`: only its own names, the statements' line items,
units, kinds and the standard derived metrics from the base; how the two merge; the errors."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
import yaml

from ragspine.errors import ProfileError
from ragspine.ingestion.tables import label_of
from ragspine.profile import DomainProfile, load_profile
from ragspine.profile.glossary import glossary_for

REALWORLD = Path(__file__).parents[3] / "shared" / "realworld"
COMPANY: dict[str, Any] = {
    "extends": "cas",
    "name": "sample-688000",
    "home_company_name": "样例科技股份有限公司",
    "home_entity_code": "SAMPLE",
    "entities": [{"code": "SAMPLE", "name_zh": "样例科技", "aliases": ["样例科技", "688000"]}],
}


def _write(folder: Path, data: dict[str, Any], name: str = "profile.yaml") -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return path


@pytest.fixture(scope="module")
def prof(tmp_path_factory: pytest.TempPathFactory) -> DomainProfile:
    """The sample company over cas, loaded once (its glossary is built once too)."""
    return load_profile(_write(tmp_path_factory.mktemp("company"), COMPANY))


def test_a_company_gives_only_its_names_and_gets_the_statements(prof: DomainProfile) -> None:
    assert prof.home_entity_code == "SAMPLE"
    # the three statements, their units and kinds, from the base
    assert prof.metric("MONETARY_FUNDS").kind == "balance"
    assert prof.metric("REVENUE").kind == "flow" and prof.metric("REVENUE").unit == "CNY"
    assert prof.metric("BASIC_EPS").unit == "CNY_PER_SHARE"
    assert prof.unit("CNY_PER_SHARE").display == "元/股"
    assert prof.metric("EMPLOYEES").unit == "PERSON" and prof.unit("PERSON").kind == "count"
    assert prof.metric("OPERATING_CASH_FLOW").name_en == "net cash from operating activities"
    assert len(prof.derived_metrics) == 36


@pytest.mark.parametrize(
    ("printed", "code"),
    [
        ("实收资本（或股本）", "PAID_IN_CAPITAL"),  # full-width brackets
        ("实收资本(或股本)", "PAID_IN_CAPITAL"),  # half-width, as the equity statement prints it
        ("实收资本 (或股本)", "PAID_IN_CAPITAL"),  # with a space
        ("所有者权益（或股东权益）合计", "TOTAL_EQUITY"),  # the bracket inside the label
        ("所有者权益(或股东权益)合计", "TOTAL_EQUITY"),  # half-width inside
        ("五、净利润（净亏损以“－”号填列）", "NET_PROFIT"),  # numbering and its note
        ("（一）基本每股收益(元/股)", "BASIC_EPS"),  # the unit in the label
        ("减：库存股", "TREASURY_SHARES"),  # a connective
        ("支付给职工及为职工支付的现金", "CASH_PAID_TO_EMPLOYEES"),  # 及 for 以及
        ("1.归属于母公司股东的净利润（净亏损以“-”号填列）", "NET_PROFIT_PARENT"),  # sub-item
        ("归属于上市公司股东的净资产", "EQUITY_PARENT"),  # the key figures' name for it
        ("资产总计", "TOTAL_ASSETS"),  # a derived metric: computed, never stored
    ],
)
def test_printed_variants_name_their_line_item(
    prof: DomainProfile, printed: str, code: str
) -> None:
    assert glossary_for(prof).normalize_metric(label_of(printed)) == code


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="needs ../shared/realworld")
def test_the_base_holds_every_formula_of_the_reference(prof: DomainProfile) -> None:
    with (REALWORLD / "formulas.tsv").open(encoding="utf-8") as fh:
        names = {row["name"] for row in csv.DictReader(fh, delimiter="\t")}
    glossary = glossary_for(prof)
    assert len(names) == 34  # 36 lines, two names written twice
    assert all(prof.derived(glossary.normalize_metric(n) or "") for n in names)


def test_every_base_line_item_has_an_english_name(prof: DomainProfile) -> None:
    assert [m.code for m in [*prof.metrics, *prof.derived_metrics] if not m.name_en] == []


def test_the_company_wins_per_code_and_aliases_are_added(tmp_path: Path) -> None:
    data = COMPANY | {
        "metrics": [
            {"code": "REVENUE", "aliases": ["主营收入"], "name_zh": "营业收入(合并)"},  # override
            {"code": "TOTAL_ASSETS", "unit": "CNY", "kind": "balance", "aliases": ["资产总计"]},
            {"code": "BACKLOG", "unit": "CNY", "aliases": ["在手订单"]},  # an addition
            {"code": "MASTERS", "unit": "PERSON", "aliases": ["硕士人数"]},  # was unsupported
        ],
        "unsupported_terms": ["订单金额"],
    }
    prof = load_profile(_write(tmp_path, data))
    revenue = prof.metric("REVENUE")
    assert revenue.name_zh == "营业收入(合并)" and revenue.unit == "CNY"
    assert revenue.aliases[:2] == ["营业收入", "营收"] and revenue.aliases[-1] == "主营收入"
    # declared stored, the base's derived TOTAL_ASSETS is gone (no code twice)
    assert prof.derived("TOTAL_ASSETS") is None and prof.metric("TOTAL_ASSETS").kind == "balance"
    assert prof.metric("BACKLOG").aliases == ["在手订单"]
    assert "硕士人数" not in prof.unsupported_terms  # a metric now
    assert "订单金额" in prof.unsupported_terms and "利息支出" in prof.unsupported_terms


def test_a_profile_file_can_be_a_base(tmp_path: Path) -> None:
    group = {
        "extends": "cas",
        "metrics": [
            {"code": "BACKLOG", "unit": "CNY", "aliases": ["在手订单"]},
            {"code": "REVENUE", "aliases": ["集团收入"]},  # a group's own word for a cas item
        ],
    }
    (tmp_path / "bases").mkdir()
    _write(tmp_path / "bases", group, "group.yaml")
    prof = load_profile(_write(tmp_path, COMPANY | {"extends": "bases/group.yaml"}))
    assert prof.metric("BACKLOG").unit == "CNY" and prof.metric("REVENUE").unit == "CNY"
    assert prof.metric("REVENUE").aliases[-1] == "集团收入"


@pytest.mark.parametrize(
    ("extends", "files", "message"),
    [
        ("ifrs", {}, "profile.yaml: extends: unknown base profile 'ifrs': the shipped bases are"),
        ("missing.yaml", {}, "profile.yaml: extends: base profile .*missing.yaml not found"),
        (["cas"], {}, "profile.yaml: extends: name a base profile"),  # not a name
        ("a.yaml", {"a.yaml": {"extends": "b.yaml"}, "b.yaml": {"extends": "a.yaml"}},
         "b.yaml: extends: 'a.yaml' makes a cycle: .*profile.yaml → .*a.yaml → .*b.yaml → .*a"),
        ("self.yaml", {"self.yaml": {"extends": "self.yaml"}}, "makes a cycle"),  # itself
        ("a.yaml", {"a.yaml": {"extends": "profile.yaml"}}, "a.yaml: extends: 'profile.yaml' "),
        ("a.yaml", {"a.yaml": {"name": "x"}}, r"a.yaml: name: Extra inputs are not permitted"),
        ("a.yaml", {"a.yaml": {"metrics": [{"code": "X", "unit": "CNY", "aliases": ["x"],
                                            "kind": "stock"}]}}, r"a.yaml: metrics\[X\].kind"),
    ],
)  # fmt: skip
def test_a_base_that_cannot_be_used_is_one_error_naming_the_file_and_field(
    tmp_path: Path, extends: Any, files: dict[str, dict[str, Any]], message: str
) -> None:
    for name, data in files.items():
        _write(tmp_path, data, name)
    path = _write(tmp_path, COMPANY | {"extends": extends})
    with pytest.raises(ProfileError, match=message):
        load_profile(path)


def test_a_company_alias_that_collides_with_the_base_is_named(tmp_path: Path) -> None:
    data = COMPANY | {"metrics": [{"code": "BACKLOG", "unit": "CNY", "aliases": ["营收"]}]}
    with pytest.raises(ProfileError, match=r"profile.yaml: .*alias '营收' collides"):
        load_profile(_write(tmp_path, data))


@pytest.mark.parametrize(
    ("profile", "base", "message"),
    [
        # a second `metrics:` appended to a draft would silently drop the drafted one
        ("extends: cas\nmetrics: []\nname: x\nmetrics: []\n", None,
         r"profile.yaml: line 4: key 'metrics' appears twice in one mapping"),
        ("extends: base.yaml\nname: x\n", "synonyms: []\nunits: []\nsynonyms: []\n",
         r"base.yaml: line 3: key 'synonyms' appears twice"),  # in a base
        ("name: x\nentities:\n  - {code: A, code: B}\n", None, r"line 3: key 'code' appears twice"),
    ],
)  # fmt: skip
def test_a_key_written_twice_is_an_error_not_a_silent_replacement(
    tmp_path: Path, profile: str, base: str | None, message: str
) -> None:
    (tmp_path / "profile.yaml").write_text(profile, "utf-8")
    if base is not None:
        (tmp_path / "base.yaml").write_text(base, "utf-8")
    with pytest.raises(ProfileError, match=message):
        load_profile(tmp_path / "profile.yaml")
