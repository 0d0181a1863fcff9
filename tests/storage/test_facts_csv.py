"""Facts from a CSV file, as a user loads them: `ragspine facts load CSV --db DB [--profile P]`.

All rows or none: a bad line is one `error:` naming the file, the line and the column, and the
fact table keeps exactly what it had. A value is kept as written, so 318024319.30 is later shown
with its two decimals.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

from ragspine.errors import FactFileError
from ragspine.profile import default_profile
from ragspine.storage.fact_store import FactStore
from ragspine.storage.facts_csv import read_facts_csv
from tests.cli import Ran, invoke
from tests.pg_stores import Place, store_absent

EXAMPLE_PROFILE = Path(__file__).parents[2] / "examples" / "jinyu" / "profile.yaml"
HEADER = [
    "metric_code", "entity", "period_type", "period", "channel", "value", "unit",
    "source_doc_id", "source_locator",
]  # fmt: skip
GOOD = {
    "metric_code": "REVENUE",
    "entity": "ACME_CN",
    "period_type": "FY",
    "period": "2030",
    "channel": "",  # empty: the profile's default channel, TOTAL
    "value": "318024319.30",
    "unit": "USD_M",
    "source_doc_id": "ACME_FY2030_Report.pdf",
    "source_locator": "page=3,row=收入,col=2030",
}
# Already in the store before every bad load: the count it must still have afterwards.
EARLIER = {**GOOD, "period": "2029", "value": "1320"}
QUESTION = "中国内地FY2030的收入是多少"


def _write(
    path: Path,
    rows: list[dict[str, str]],
    header: list[str] = HEADER,
    encoding: str = "utf-8",
) -> Path:
    with path.open("w", encoding=encoding, newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=header, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def _load(csv_file: Path, db: Path | str, *extra: str) -> Ran:
    return invoke("facts", "load", str(csv_file), "--db", str(db), *extra, cwd=csv_file.parent)


def _count(db: Path | str) -> int:
    with FactStore(db, create=False) as store:
        return store.count()


def _one_error_line(out: Ran) -> str:
    assert out.returncode == 1 and out.stdout == ""
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    return lines[0]


@pytest.fixture
def db(tmp_path: Path, place: Place) -> Path | str:
    """A fact store holding one fact (EARLIER), loaded through the command."""
    path = place("facts.db")
    out = _load(_write(tmp_path / "earlier.csv", [EARLIER]), path)
    assert out.returncode == 0, out.stderr
    assert _count(path) == 1
    return path


def test_a_good_file_loads_and_keeps_the_value_as_written(tmp_path: Path, place: Place) -> None:
    db = place("facts.db")
    csv_file = _write(tmp_path / "facts.csv", [GOOD, EARLIER])
    out = _load(csv_file, db)
    assert out.returncode == 0, out.stderr
    assert out.stdout == f"loaded 2 facts from {csv_file}; 2 facts in {db}\n"
    with FactStore(db, create=False) as store:
        facts = {f.period: f for f in store.iter_facts()}
    assert facts["2030"].value_text == "318024319.30"  # the trailing zero is kept
    assert facts["2030"].value == 318024319.3
    assert facts["2030"].channel == "TOTAL"  # an empty channel is the profile's default
    assert facts["2029"].value_text == "1320"
    asked = invoke("ask", "--db", str(db), "--reference-date", "2031-06-30", QUESTION, cwd=tmp_path)
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout.startswith("中国内地 FY2030 收入:318,024,319.30 百万美元")
    assert "ACME_FY2030_Report.pdf · page=3,row=收入,col=2030" in asked.stdout


def test_a_header_with_a_byte_order_mark_loads(tmp_path: Path, place: Place) -> None:
    db = place("facts.db")
    csv_file = _write(tmp_path / "excel.csv", [GOOD], encoding="utf-8-sig")
    assert csv_file.read_bytes().startswith(b"\xef\xbb\xbfmetric_code,")
    out = _load(csv_file, db)
    assert out.returncode == 0, out.stderr
    with FactStore(db, create=False) as store:
        (fact,) = store.iter_facts()
    assert fact.metric_code == "REVENUE" and fact.value_text == "318024319.30"


@pytest.mark.parametrize(
    ("header", "message"),
    [
        # a required column left out
        ([c for c in HEADER if c != "unit"], "line 1: missing column(s) unit"),
        # lineage is required too
        (
            [c for c in HEADER if not c.startswith("source_")],
            "line 1: missing column(s) source_doc_id, source_locator",
        ),
        # a column the fact table does not have
        ([*HEADER, "currency"], "line 1: unknown column(s) currency"),
    ],
)
def test_a_bad_header_is_refused_and_nothing_is_inserted(
    db: Path | str, tmp_path: Path, header: list[str], message: str
) -> None:
    csv_file = _write(tmp_path / "bad.csv", [GOOD], header=header)
    line = _one_error_line(_load(csv_file, db))
    assert line == f"error: {csv_file}: {message}"
    assert _count(db) == 1


@pytest.mark.parametrize(
    ("column", "cell", "message"),
    [
        ("value", "", "is empty"),  # an empty value
        ("source_locator", " ", "is empty"),  # blank lineage: a fact must say where it came from
        ("entity", "", "is empty"),  # an empty dimension
        ("value", "abc", "'abc' is not a number written as 1234.56"),  # not a number
        # thousands separators as printed
        ("value", "1,234.50", "'1,234.50' is not a number written as 1234.56"),
        ("value", "nan", "'nan' is not a number written as 1234.56"),  # Decimal parses it
        ("value", "inf", "'inf' is not a number written as 1234.56"),  # Decimal parses it
        ("value", "1e999999", "'1e999999' is not a number written as 1234.56"),  # inf as float
        ("value", "１２３", "'１２３' is not a number written as 1234.56"),  # full-width digits
        ("value", "1_000", "'1_000' is not a number written as 1234.56"),  # Python's separators
        ("period_type", "Y", "'Y' is not FY, H or Q"),  # unknown period type
        ("period_type", "fy", "'fy' is not FY, H or Q"),  # codes are exact, not case-folded
    ],
)
def test_a_bad_cell_names_file_line_and_column_and_nothing_is_inserted(
    db: Path | str, tmp_path: Path, column: str, cell: str, message: str
) -> None:
    # The bad row is the second: the good one before it is not loaded either.
    csv_file = _write(tmp_path / "bad.csv", [GOOD, {**GOOD, "period": "2031", column: cell}])
    line = _one_error_line(_load(csv_file, db))
    assert line == f"error: {csv_file}: line 3, column {column}: {message}"
    assert _count(db) == 1


@pytest.mark.parametrize(
    ("period_type", "period"),
    [
        ("Q", "2020Q5"),  # there is no fifth quarter
        ("FY", "20201"),  # a five-digit year
        ("FY", "2020Q1"),  # a quarter under FY
        ("H", "2020"),  # a half year needs H1 or H2
        ("H", "2020H3"),  # there is no third half
        ("FY", "２０３０"),  # full-width digits would make a second, unreachable 2030
    ],
)
def test_a_period_code_that_does_not_fit_its_type_is_refused(
    db: Path | str, tmp_path: Path, period_type: str, period: str
) -> None:
    row = {**GOOD, "period_type": period_type, "period": period}
    csv_file = _write(tmp_path / "bad.csv", [row])
    line = _one_error_line(_load(csv_file, db))
    assert line.startswith(f"error: {csv_file}: line 2, column period: {period!r} is not a ")
    assert f"{period_type} period code" in line
    assert _count(db) == 1


@pytest.mark.parametrize(
    "row_text",
    [
        "REVENUE,ACME_CN,FY,2031,,1,USD_M,r.pdf,p=1,extra",  # one field too many
        "REVENUE,ACME_CN,FY,2031,,1,USD_M,r.pdf",  # one field too few
        "REVENUE",  # a stray line
    ],
)
def test_a_row_with_the_wrong_number_of_fields_is_refused(
    db: Path | str, tmp_path: Path, row_text: str
) -> None:
    csv_file = _write(tmp_path / "bad.csv", [GOOD])
    csv_file.write_text(csv_file.read_text("utf-8") + row_text + "\r\n", "utf-8")
    line = _one_error_line(_load(csv_file, db))
    assert line == f"error: {csv_file}: line 3: wrong number of fields"
    assert _count(db) == 1


@pytest.mark.parametrize(
    ("column", "cell", "message"),
    [
        # not a metric of the demo profile
        ("metric_code", "EBITDA", "'EBITDA' is not a stored metric of the profile"),
        # REVENUE is in millions of US dollars, not yuan
        ("unit", "CNY", "'CNY' is not REVENUE's unit 'USD_M'"),
        # a percentage is not an amount either
        ("unit", "PCT", "'PCT' is not REVENUE's unit 'USD_M'"),
        # not an entity of the profile
        ("entity", "ACME_US", "'ACME_US' is not an entity of the profile"),
        # a competitor is never a fact's entity
        ("entity", "竞安", "'竞安' is not an entity of the profile"),
        # not a channel of the profile
        ("channel", "WHOLESALE", "'WHOLESALE' is not a channel of the profile"),
    ],
)
def test_the_demo_profile_refuses_codes_it_does_not_have(
    db: Path | str, tmp_path: Path, column: str, cell: str, message: str
) -> None:
    csv_file = _write(tmp_path / "bad.csv", [GOOD, {**GOOD, "period": "2031", column: cell}])
    line = _one_error_line(_load(csv_file, db))
    assert line == f"error: {csv_file}: line 3, column {column}: {message}"
    assert _count(db) == 1


def test_a_derived_metric_is_computed_never_loaded(tmp_path: Path, bare_place: Place) -> None:
    row = {**GOOD, "metric_code": "GROSS_MARGIN", "entity": "JINYU", "unit": "PCT"}
    csv_file = _write(tmp_path / "derived.csv", [row])
    db = bare_place("facts.db")
    line = _one_error_line(_load(csv_file, db, "--profile", str(EXAMPLE_PROFILE)))
    assert line == (
        f"error: {csv_file}: line 2, column metric_code: 'GROSS_MARGIN' is not a stored metric "
        "of the profile (a derived metric is computed, not loaded)"
    )
    assert store_absent(FactStore, db)  # the file is checked before the store is even opened


def test_the_profile_option_decides_which_codes_and_units_are_right(
    tmp_path: Path, place: Place
) -> None:
    data = default_profile().model_dump()
    data["units"].append({"code": "CNY", "display": "元"})
    for metric in data["metrics"]:
        if metric["code"] == "REVENUE":
            metric["unit"] = "CNY"
    profile = tmp_path / "yuan.yaml"
    profile.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    csv_file = _write(tmp_path / "yuan.csv", [{**GOOD, "unit": "CNY"}])
    db = place("facts.db")
    refused = _one_error_line(_load(csv_file, db))  # the demo profile: REVENUE is USD_M
    assert "column unit: 'CNY' is not REVENUE's unit 'USD_M'" in refused
    loaded = _load(csv_file, db, "--profile", str(profile))
    assert loaded.returncode == 0, loaded.stderr
    asked = invoke(
        "ask", "--db", str(db), "--profile", str(profile), "--reference-date", "2031-06-30",
        QUESTION, cwd=tmp_path,
    )  # fmt: skip
    assert asked.stdout.startswith("中国内地 FY2030 收入:318,024,319.30 元"), asked.stdout


def test_loading_the_same_file_twice_is_refused_as_a_duplicate(
    db: Path | str, tmp_path: Path
) -> None:
    csv_file = _write(tmp_path / "facts.csv", [GOOD])
    first = _load(csv_file, db)
    assert first.returncode == 0 and first.stdout.endswith(f"; 2 facts in {db}\n")
    line = _one_error_line(_load(csv_file, db))
    assert "fact REVENUE/ACME_CN/TOTAL/FY/2030 already exists; nothing was inserted" in line
    assert _count(db) == 2
    # a file overlapping the store by one row is refused whole: its new row is not kept either
    overlap = _write(tmp_path / "overlap.csv", [{**GOOD, "period": "2032"}, GOOD])
    line = _one_error_line(_load(overlap, db))
    assert "fact REVENUE/ACME_CN/TOTAL/FY/2030 already exists; nothing was inserted" in line
    assert _count(db) == 2


def test_a_missing_file_is_one_line(tmp_path: Path, bare_place: Place) -> None:
    missing = tmp_path / "nope.csv"
    line = _one_error_line(_load(missing, bare_place("facts.db")))
    assert line == f"error: {missing}: no such file"
    assert store_absent(FactStore, bare_place("facts.db"))


# -- read_facts_csv, the library call under the command ---------------------------------------


def test_read_facts_csv_fills_the_default_channel_when_the_column_is_absent(
    tmp_path: Path,
) -> None:
    header = [c for c in HEADER if c != "channel"]
    csv_file = _write(tmp_path / "facts.csv", [GOOD, EARLIER], header=header)
    facts = read_facts_csv(csv_file, default_channel="ONLINE")
    assert [(f.channel, f.period, f.value_text) for f in facts] == [
        ("ONLINE", "2030", "318024319.30"),
        ("ONLINE", "2029", "1320"),
    ]
    assert read_facts_csv(csv_file)[0].channel == "TOTAL"  # the default default


def test_read_facts_csv_reports_the_callers_rule_at_its_line_and_column(tmp_path: Path) -> None:
    seen: list[dict[str, str]] = []

    def no_2029(row: dict[str, str]) -> tuple[str, str] | None:
        seen.append(row)
        return ("period", "2029 is closed") if row["period"] == "2029" else None

    csv_file = _write(tmp_path / "facts.csv", [GOOD, EARLIER, GOOD])
    with pytest.raises(FactFileError) as err:
        read_facts_csv(csv_file, check=no_2029)
    assert str(err.value) == f"{csv_file}: line 3, column period: 2029 is closed"
    assert len(seen) == 2  # reading stops at the first bad line
    assert seen[0]["channel"] == "TOTAL"  # the rule sees the channel already defaulted


def test_a_row_repeated_in_one_file_names_both_lines(db: Path | str, tmp_path: Path) -> None:
    csv_file = _write(tmp_path / "twice.csv", [GOOD, {**GOOD, "period": "2031"}, GOOD])
    line = _one_error_line(_load(csv_file, db))
    assert line.startswith(f"error: {csv_file}: line 4: fact REVENUE/ACME_CN/")
    assert line.endswith("repeats line 2")
    assert _count(db) == 1


def test_a_row_short_of_an_optional_trailing_column_is_refused(
    db: Path | str, tmp_path: Path
) -> None:
    csv_file = tmp_path / "short.csv"
    header = "metric_code,entity,period_type,period,value,unit,source_doc_id,source_locator,"
    csv_file.write_text(
        header + "mapping_version\nREVENUE,ACME_CN,FY,2031,1,USD_M,r.pdf,p=1\n", "utf-8"
    )
    line = _one_error_line(_load(csv_file, db))
    assert line == f"error: {csv_file}: line 2: wrong number of fields"
    assert _count(db) == 1


@pytest.mark.parametrize(
    "cell, level",
    [
        ("RESTRICTED", "RESTRICTED"),  # a board pack's figure
        ("", "INTERNAL"),  # not stated: the default level
    ],
)
def test_a_sensitivity_column_gives_each_fact_its_level(
    tmp_path: Path, cell: str, level: str
) -> None:
    path = tmp_path / "facts.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, [*HEADER, "sensitivity"])
        writer.writeheader()
        writer.writerow({**GOOD, "sensitivity": cell})
    (fact,) = read_facts_csv(path)
    assert fact.sensitivity == level


def test_an_unknown_level_in_the_column_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "facts.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, [*HEADER, "sensitivity"])
        writer.writeheader()
        writer.writerow({**GOOD, "sensitivity": "SECRET"})
    with pytest.raises(FactFileError, match="line 2, column sensitivity: unknown sensitivity"):
        read_facts_csv(path)
