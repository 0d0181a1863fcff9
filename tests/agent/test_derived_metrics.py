"""Derived metrics through query_metric and the renderer: computed in control flow from stored
facts, rounded as asked, shown with the formula and every operand's source."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.query_tools import execute_query_metric
from ragspine.agent.render import asked_decimals, fact_line, fact_sources, format_value
from ragspine.engine import Engine
from ragspine.llm.mock import MockProvider
from ragspine.profile import DomainProfile, default_profile
from ragspine.storage.fact_store import Fact, FactStore
from tests.pg_stores import Place

PROFILE = DomainProfile.model_validate(
    {
        "name": "co",
        "home_company_name": "样例股份有限公司",
        "home_entity_code": "CO",
        "entities": [{"code": "CO", "name_zh": "样例", "aliases": ["样例"]}],
        "units": [{"code": "CNY", "display": "元"}, {"code": "PCT", "display": "%"}],
        "metrics": [
            {"code": "REVENUE", "unit": "CNY", "name_zh": "营业收入", "aliases": ["营业收入"]},
            {"code": "COST", "unit": "CNY", "name_zh": "营业成本", "aliases": ["营业成本"]},
            {
                "code": "CASH",
                "unit": "CNY",
                "kind": "balance",
                "name_zh": "货币资金",
                "aliases": ["货币资金"],
            },
        ],
        "derived_metrics": [
            {
                "code": "GM",
                "name_zh": "毛利率",
                "aliases": ["毛利率"],
                "formula": "(REVENUE - COST) / REVENUE",
            },
            {
                "code": "GROWTH",
                "name_zh": "营业收入增长率",
                "aliases": ["营业收入增长率"],
                "formula": "(REVENUE - prev(REVENUE)) / prev(REVENUE)",
            },
            {
                "code": "CASH_TO_COST",
                "name_zh": "现金成本比",
                "aliases": ["现金成本比"],
                "formula": "CASH / COST",
                "percent": False,
                "unit": "TIMES",
            },
        ],
    }
)
REF = date(2022, 6, 30)


def _fact(metric: str, year: str, text: str, unit: str = "CNY") -> Fact:
    return Fact(
        metric, "CO", "", "TOTAL", "FY", year, float(text), unit, "report.pdf",
        f"page=1,row={metric},col={year}", value_text=text,
    )  # fmt: skip


@pytest.fixture
def store(place: Place) -> FactStore:
    s = FactStore(place("facts.db"))
    s.init_schema()
    s.insert_facts(
        [
            _fact("REVENUE", "2019", "1175301034.32"),
            _fact("COST", "2019", "903236584.52"),
            _fact("REVENUE", "2020", "1581905632.48"),
            _fact("COST", "2020", "0.00"),
            _fact("CASH", "2020", "1516034246.28"),
        ]
    )
    return s


def _ask(store: FactStore, metric: str, period: str) -> dict[str, object]:
    result = execute_query_metric(store, metric, "CO", period, reference_date=REF, profile=PROFILE)
    return dict(result)


def test_a_derived_metric_is_found_with_its_operands_and_their_sources(store: FactStore) -> None:
    r = _ask(store, "毛利率", "FY2019")
    assert r["status"] == "found" and r["metric_code"] == "GM" and r["unit"] == "PCT"
    # 四方科技 2019 in the challenge's official answers: 23.15%
    assert format_value(str(r["value_text"]), 2) == "23.15"
    operands = r["operands"]
    assert isinstance(operands, list)
    assert [(o["metric_code"], o["value_text"]) for o in operands] == [
        ("REVENUE", "1175301034.32"),
        ("COST", "903236584.52"),
    ]


def test_a_growth_rate_reads_last_year(store: FactStore) -> None:
    r = _ask(store, "营业收入增长率", "2020年")
    assert r["status"] == "found"
    assert format_value(str(r["value_text"]), 2) == "34.60"
    assert {o["period"] for o in r["operands"]} == {"2019", "2020"}  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("metric", "period", "missing"),
    [
        # last year's revenue is not stored
        ("营业收入增长率", "FY2019", [{"metric_code": "REVENUE", "period": "FY2018"}]),
        # neither operand is stored: both named
        (
            "毛利率",
            "FY2021",
            [
                {"metric_code": "REVENUE", "period": "FY2021"},
                {"metric_code": "COST", "period": "FY2021"},
            ],
        ),
        # a zero divisor: the operand that made the ratio undefined is named
        ("现金成本比", "FY2020", [{"metric_code": "COST", "period": "FY2020"}]),
    ],
)
def test_a_missing_operand_is_not_found_naming_it(
    store: FactStore, metric: str, period: str, missing: list[dict[str, str]]
) -> None:
    r = _ask(store, metric, period)
    assert r["status"] == "not_found" and r["missing"] == missing


def test_the_answer_line_shows_formula_operands_and_sources(store: FactStore) -> None:
    r = execute_query_metric(store, "毛利率", "CO", "FY2019", reference_date=REF, profile=PROFILE)
    assert r["status"] == "found"
    lines = fact_line(r, PROFILE, decimals=3).split("\n")
    assert lines[0] == "样例 FY2019 毛利率:23.148%(由公式计算:(营业收入 − 营业成本) / 营业收入)"
    assert lines[1] == (
        "  其中 FY2019 营业收入:1,175,301,034.32 元(来源:report.pdf · page=1,row=REVENUE,col=2019)"
    )
    assert "903,236,584.52 元" in lines[2]
    assert [s["locator"] for s in fact_sources([r])] == [
        "page=1,row=REVENUE,col=2019",
        "page=1,row=COST,col=2019",
    ]


@pytest.mark.parametrize(
    ("value", "decimals", "shown"),
    [
        ("318024319.30", None, "318,024,319.30"),  # stored precision kept, separators added
        (1320.0, None, "1,320"),  # a float without noise
        (0.1 + 0.2, None, "0.3"),  # no float noise
        ("23.145", 2, "23.15"),  # half up, as the challenge rounds
        ("-0.001", 2, "0.00"),  # no negative zero
        ("-40450729.84", None, "-40,450,729.84"),  # negative amounts keep their sign
    ],
)
def test_format_value(value: str | float, decimals: int | None, shown: str) -> None:
    assert format_value(value, decimals) == shown


@pytest.mark.parametrize(
    ("question", "decimals"),
    [
        ("毛利率是多少？请保留两位小数。", 2),  # Chinese numeral
        ("请提供无形资产增长率并保留2位小数", 2),  # digit
        ("保留 四 位小数", 4),  # spaced
        ("What was the gross margin, to 3 decimal places?", 3),  # English
        ("毛利率是多少?", None),  # nothing asked
    ],
)
def test_asked_decimals(question: str, decimals: int | None) -> None:
    assert asked_decimals(question) == decimals


def test_a_user_question_gets_the_rounding_it_asked_for(store: FactStore, tmp_path: Path) -> None:
    engine = Engine(store, MockProvider(), profile=PROFILE)
    two = engine.ask("样例2019年的毛利率是多少?", reference_date=REF)
    four = engine.ask("样例2019年的毛利率是多少?保留四位小数", reference_date=REF)
    assert "毛利率:23.15%" in two.answer and "毛利率:23.1485%" in four.answer
    balance = engine.ask("样例2020年的货币资金是多少?", reference_date=REF)
    assert balance.answer.startswith("样例 FY2020末 货币资金:1,516,034,246.28 元")


def _acme_with(*derived: dict[str, object]) -> DomainProfile:
    data = default_profile().model_dump(exclude_none=True)
    data["derived_metrics"] = [*data.get("derived_metrics", []), *derived]
    return DomainProfile.model_validate(data)


# The demo profile's own shares (shared/DOMAIN.md): REVENUE_SHARE and ONLINE_SHARE.
SHARES = default_profile()


@pytest.mark.parametrize(
    ("metric", "entity", "expected", "operands", "formula"),
    [
        # a region's share of the group: its revenue over the group's, same period
        ("收入占集团比重", "ACME_HK", "18.97", [("ACME_HK", "TOTAL"), ("ACME_GROUP", "TOTAL")],
         "(由公式计算:收入 / 集团收入)"),
        # an online share: the entity's online revenue over its total
        ("线上收入占比", "ACME_CN", None, [("ACME_CN", "ONLINE"), ("ACME_CN", "TOTAL")],
         "(由公式计算:收入(线上) / 收入(总计))"),
    ],
)  # fmt: skip
def test_an_operand_fixed_to_another_entity_or_channel_is_looked_up_there(
    demo_db: Path,
    metric: str,
    entity: str,
    expected: str | None,
    operands: list[tuple[str, str]],
    formula: str,
) -> None:
    with FactStore(demo_db, create=False) as store:
        r = dict(execute_query_metric(store, metric, entity, "FY2024", profile=SHARES))
    assert r["status"] == "found", r
    got = r["operands"]
    assert isinstance(got, list)
    assert [(o["entity"], o["channel"]) for o in got] == operands
    a, b = (float(o["value_text"]) for o in got)
    assert float(str(r["value_text"])) == pytest.approx(a / b * 100)
    if expected is not None:
        assert format_value(str(r["value_text"]), 2) == expected
    line = fact_line(r, SHARES)  # type: ignore[arg-type]
    assert formula in line


def test_a_formula_naming_an_unknown_entity_is_refused_at_load() -> None:
    with pytest.raises(ValueError, match=r"entity=NOWHERE is not an entity"):
        _acme_with({"code": "X", "aliases": ["某比重"], "formula": "REVENUE[entity=NOWHERE]"})
