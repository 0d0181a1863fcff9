"""Tables to facts through the profile: headers to periods, labels to metrics, captions to scale."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ragspine.ingestion.tables import TableMapper, header_period, label_of, number, scale_of
from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.periods import Period
from ragspine.readers import Table

CO = DomainProfile.model_validate(
    {
        "name": "co",
        "home_company_name": "样例股份有限公司",
        "home_entity_code": "CO",
        "entities": [{"code": "CO", "aliases": ["样例", "600999"]}],
        "units": [{"code": "CNY", "display": "元"}, {"code": "CNY_10K", "display": "万元",
                                                      "scale": 10000}],
        "metrics": [
            {"code": "REVENUE", "unit": "CNY", "aliases": ["营业收入"]},
            {"code": "CASH", "unit": "CNY", "kind": "balance", "aliases": ["货币资金"]},
            {"code": "RD", "unit": "CNY_10K", "aliases": ["研发投入"]},
            {"code": "TAX", "unit": "CNY", "aliases": ["所得税费用"]},
        ],
    }
)  # fmt: skip


@pytest.mark.parametrize(
    ("cell", "period"),
    [
        ("2020年12月31日", Period("FY", "2020")),  # a year end: the balance of FY2020
        ("2020 年度", Period("FY", "2020")),  # spaced
        ("2019年", Period("FY", "2019")),
        ("本期发生额", Period("FY", "2020")),  # relative to the report's year
        ("上期金额", Period("FY", "2019")),
        ("期初余额", Period("FY", "2019")),  # the opening balance is last year's close
        ("FY2024", Period("FY", "2024")),  # a deck's header
        ("2024Q3", Period("Q", "2024Q3")),
        ("增减比例（%）", None),  # a change, not a period's value
        ("本期期末数占总资产的比例（%）", None),
        ("项目", None),
        ("附注", None),
    ],
)
def test_header_period(cell: str, period: Period | None) -> None:
    assert header_period(cell, 2020) == period


@pytest.mark.parametrize(
    ("cell", "label"),
    [
        ("一、营业总收入", "营业总收入"),  # numbering
        ("其中：营业收入", "营业收入"),  # connective
        ("加：营业外收入", "营业外收入"),
        ("减：所得税费用", "所得税费用"),
        ("信用减值损失（损失以“－”号填列）", "信用减值损失"),  # a sign note
        ("（一）基本每股收益(元/股)", "基本每股收益"),  # numbering and a unit note
        ("货币资金", "货币资金"),
    ],
)
def test_label_of(cell: str, label: str) -> None:
    assert label_of(cell) == label


@pytest.mark.parametrize(
    ("cell", "value"),
    [
        ("1,516,034,246.28", Decimal("1516034246.28")),
        ("-19,572,506.45", Decimal("-19572506.45")),
        ("(1,234.50)", Decimal("-1234.50")),  # accountants' negative
        ("0.36", Decimal("0.36")),
        ("1.2亿", None),  # a scale word is a caption's job: reported, not guessed
        ("不详", None),
    ],
)
def test_number(cell: str, value: Decimal | None) -> None:
    assert number(cell) == value


def test_the_caption_gives_the_scale() -> None:
    assert scale_of("合并利润表 单位:元") == 1 and scale_of("单位：万元") == 10**4
    assert scale_of("") is None


def _map(*tables: Table, year: int | None = 2020) -> tuple[list[tuple[str, ...]], list[str]]:
    out = TableMapper(CO, "AR.pdf", "hash1", "CO", report_year=year, mapping_version="m1").map(
        tables
    )
    facts = [(f.metric_code, f.period, f.value_text or "", f.source_locator) for f in out.facts]
    conflicts = [
        f"{c.dropped.locator} ({c.dropped.value}): kept {c.kept.locator} ({c.kept.value})"
        for c in out.conflicts
    ]
    return facts, [f"{u.locator}: {u.why}" for u in out.unmapped] + conflicts


def test_a_statement_table_becomes_facts_with_their_cells() -> None:
    sheet = Table(
        "page=66,table=1",
        [
            ["项目", "附注", "2020年12月31日", "2019年12月31日"],
            ["流动资产：", "", "", ""],
            ["货币资金", "七、1", "1,516,034,246.28", "1,108,509,231.31"],
            ["应收票据", "", "22,036,338.80", ""],  # not a metric of this profile: skipped
        ],
        "合并资产负债表 单位:元",
    )
    continued = Table(
        "page=67,table=1",
        [["所得税费用", "", "53,824,890.47", "26,609,147.48"]],  # no header: carried over
        "合并资产负债表 单位:元",
    )
    facts, unmapped = _map(sheet, continued)
    assert facts == [
        ("CASH", "2020", "1516034246.28", "page=66,table=1,row=货币资金,col=2020年12月31日"),
        ("CASH", "2019", "1108509231.31", "page=66,table=1,row=货币资金,col=2019年12月31日"),
        ("TAX", "2020", "53824890.47", "page=67,table=1,row=所得税费用,col=2020年12月31日"),
        ("TAX", "2019", "26609147.48", "page=67,table=1,row=所得税费用,col=2019年12月31日"),
    ]
    assert unmapped == [  # its one value, never dropped in silence; its empty cell is no value
        "page=66,table=1,row=应收票据,col=2020年12月31日: "
        "no metric of the profile is named 「应收票据」"
    ]


def test_a_scale_in_the_caption_is_converted_to_the_metrics_unit() -> None:
    # 研发投入 is kept in 万元; a table in 元 is divided, one in 亿元 multiplied
    in_yuan = Table(
        "page=25,table=1", [["项目", "2020年"], ["研发投入", "20,699,724.03"]], "单位：元"
    )
    in_yi = Table("page=26,table=1", [["项目", "2019年"], ["研发投入", "1.5"]], "单位:亿元")
    facts, _ = _map(in_yuan, in_yi)
    assert [(f[0], f[1], f[2]) for f in facts] == [
        ("RD", "2020", "2069.972403"),
        ("RD", "2019", "15000"),
    ]


def test_a_cell_that_is_not_a_number_is_reported_never_guessed() -> None:
    table = Table("page=9,table=1", [["项目", "2020年"], ["营业收入", "约15.8亿"]], "单位：元")
    facts, unmapped = _map(table)
    assert facts == [] and unmapped == [
        "page=9,table=1,row=营业收入,col=2020年: not a number, in a row or column naming REVENUE"
    ]


def test_the_parent_companys_statement_is_not_the_groups() -> None:
    parent = Table(
        "page=72,table=1", [["项目", "2020年度"], ["营业收入", "1.00"]], "母公司利润表 单位:元"
    )
    group = Table(
        "page=70,table=1", [["项目", "2020年度"], ["营业收入", "2.00"]], "合并利润表 单位:元"
    )
    facts, _ = _map(parent, group)
    assert [f[2] for f in facts] == ["2.00"]


def test_a_summary_that_disagrees_with_the_statement_is_reported() -> None:
    summary = Table("page=5,table=1", [["项目", "2020年"], ["营业收入", "9.99"]], "单位：元")
    group = Table(
        "page=70,table=1", [["项目", "2020年度"], ["营业收入", "2.00"]], "合并利润表 单位:元"
    )
    facts, unmapped = _map(summary, group)
    # the consolidated statement stands, whatever the order the tables came in
    assert [f[2] for f in facts] == ["2.00"]
    assert unmapped == [  # both readings, the one kept second
        "page=5,table=1,row=营业收入,col=2020年 (9.99): kept "
        "page=70,table=1,row=营业收入,col=2020年度 (2.00)"
    ]


def test_a_workbook_with_a_row_per_year_and_company_maps_only_the_home_company() -> None:
    rows = [
        ["报告年份", "股票代码", "营业收入", "货币资金"],
        ["2020", "603339", "1103203106.18", "1.00"],  # another company: not ours
        ["2020", "600999", "1581905632.48", "-1"],  # -1: the workbook's "not reported"
        ["2019", "600999", "1126782253.35", ""],
    ]
    facts, unmapped = _map(Table("sheet=profit_statement", rows), year=None)
    assert facts == [
        ("REVENUE", "2020", "1581905632.48", "sheet=profit_statement,year=2020,col=营业收入"),
        ("REVENUE", "2019", "1126782253.35", "sheet=profit_statement,year=2019,col=营业收入"),
    ]
    assert unmapped == [  # another company's row is said, by the name it goes by
        "sheet=profit_statement,year=2020,company=603339: a company the profile does not hold: "
        "not this company's figures"
    ]


def test_the_demo_profile_maps_a_deck_table_at_the_seeds_locator() -> None:
    table = Table("slide=2,table=1", [["指标", "FY2023", "FY2024"], ["REVENUE", "1400", "1320"]])
    out = TableMapper(default_profile(), "ACME_FY2024_Review.pptx", "h", "ACME_CN").map([table])
    fact = out.facts[1]
    assert (fact.metric_code, fact.entity, fact.period, fact.value, fact.unit) == (
        "REVENUE", "ACME_CN", "2024", 1320.0, "USD_M",
    )  # fmt: skip
    assert fact.source_locator == "slide=2,table=1,row=REVENUE,col=FY2024"
    assert (fact.source_file_hash, fact.extractor_version) == ("h", "ragspine-tables/1")


def test_a_label_wrapped_over_two_rows_is_read_joined() -> None:
    table = Table(
        "page=74,table=1",
        [
            ["项目", "附注", "2020年度", "2019年度"],
            ["营业", "", "", ""],  # a label's first line, its figures on the next row
            ["收入", "", "2.00", "1.00"],
            ["研发", "", "", ""],  # a line that names nothing before a row that does
            ["所得税费用", "", "3.00", ""],
        ],
        "合并利润表 单位:元",
    )
    facts, _ = _map(table)
    assert [f[0] for f in facts] == ["REVENUE", "REVENUE", "TAX"]
    assert facts[0][3] == "page=74,table=1,row=营业收入,col=2020年度"


def test_every_label_holding_a_figure_is_listed_with_what_it_maps_to() -> None:
    statement = Table(
        "page=66,table=1",
        [
            ["项目", "附注", "2020年12月31日", "2019年12月31日"],
            ["流动资产：", "", "", ""],  # no figure: not listed
            ["货币资金", "七、1", "1,516,034,246.28", "1,108,509,231.31"],
            ["专项储备", "", "3,412,940.61", ""],  # a figure the profile does not name
        ],
        "合并资产负债表 单位:元",
    )
    workbook = Table(
        "sheet=people",
        [
            ["报告年份", "股票代码", "营业收入", "货币资金", "职工人数", "利息支出"],
            ["2020", "600999", "1.00", "2.00", "1350", "-1"],  # -1: not reported, not a figure
            ["2020", "603339", "1.00", "2.00", "99", "5.00"],  # another company's row
        ],
    )
    out = TableMapper(CO, "r.pdf", "h", "CO", report_year=2020).map([statement, workbook])
    assert [(r.locator, r.label, r.code) for r in out.labels] == [
        ("page=66,table=1", "货币资金", "CASH"),
        ("page=66,table=1", "专项储备", None),
        ("sheet=people", "营业收入", "REVENUE"),
        ("sheet=people", "货币资金", "CASH"),
        ("sheet=people", "职工人数", None),
    ]
