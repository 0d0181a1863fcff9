"""Build ``facts.csv`` for the 金宇生物 (600201) example from the real material.

Two sources, each cited per fact:

* the FinGLM challenge's statement rows (``statements_600201_603339.xlsx``): income statement,
  cash flow, the four balance-sheet totals and headcounts, FY2019-FY2021, matched to a metric
  when the column is the metric's ``name_zh`` (-1 in a cell means missing: no fact);
* the 2020 annual report's consolidated balance sheet (PDF page 66), for the lines the workbook
  lacks (货币资金, 存货, …): year ends 2020 and 2019, as printed.

Values keep the precision the statements print (two decimals for amounts). Run from the repo:
``.venv/bin/python examples/jinyu/build_facts.py`` (needs ``pip install -e '.[ingest]'``).
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
REALWORLD = ROOT.parent / "shared" / "realworld"
WORKBOOK = "statements_600201_603339.xlsx"
REPORT = "600201_金宇生物_2020_年度报告.pdf"
STOCK_CODE = 600201
BALANCE_PAGE = 66  # 合并资产负债表, first page
COLUMNS = ["metric_code", "entity", "period_type", "period", "channel", "value", "unit",
           "source_doc_id", "source_locator", "sensitivity"]  # fmt: skip
LEVEL = "PUBLIC"  # a listed company's published statements and annual report


def _text(value: float | int, unit: str) -> str:
    """A cell as the statements print it: amounts to the fen, counts whole, ratios as given."""
    if unit == "PERSON":
        return str(int(value))
    if unit == "CNY":
        return f"{Decimal(repr(float(value))):.2f}"
    return f"{Decimal(repr(float(value))).normalize():f}"


def workbook_facts(path: Path, metrics: dict[str, tuple[str, str]]) -> list[dict[str, str]]:
    from openpyxl import load_workbook

    rows: list[dict[str, str]] = []
    book = load_workbook(path, read_only=True, data_only=True)
    for sheet in book.worksheets:
        table = list(sheet.iter_rows(values_only=True))
        header = [str(h) for h in table[0]]
        for line in table[1:]:
            record = dict(zip(header, line, strict=False))
            if record.get("股票代码") != STOCK_CODE:
                continue
            year = int(record["报告年份"])  # type: ignore[arg-type]
            for column, raw in record.items():
                if column not in metrics or not isinstance(raw, int | float) or raw == -1:
                    continue
                code, unit = metrics[column]
                rows.append(
                    {
                        "metric_code": code, "entity": "JINYU", "period_type": "FY",
                        "period": str(year), "channel": "TOTAL", "value": _text(raw, unit),
                        "unit": unit, "source_doc_id": WORKBOOK,
                        "source_locator": f"sheet={sheet.title},year={year},col={column}",
                    }
                )  # fmt: skip
    return rows


def report_facts(path: Path, metrics: dict[str, tuple[str, str]]) -> list[dict[str, str]]:
    """The balance-sheet lines printed as ``货币资金 1,516,034,246.28 1,108,509,231.31``."""
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        text = pdf.pages[BALANCE_PAGE - 1].extract_text() or ""
    if "合并资产负债表" not in text:
        raise SystemExit(f"{path}: page {BALANCE_PAGE} is not the consolidated balance sheet")
    rows: list[dict[str, str]] = []
    amount = r"-?[\d,]+\.\d{2}"
    for line in text.splitlines():
        m = re.match(rf"^(\S+?)\s+(?:[\w、.]+\s+)?({amount})\s+({amount})$", line.strip())
        if not m or m.group(1) not in metrics:
            continue
        code, unit = metrics[m.group(1)]
        for year, value in (("2020", m.group(2)), ("2019", m.group(3))):
            rows.append(
                {
                    "metric_code": code, "entity": "JINYU", "period_type": "FY", "period": year,
                    "channel": "TOTAL", "value": value.replace(",", ""), "unit": unit,
                    "source_doc_id": REPORT,
                    "source_locator": f"page={BALANCE_PAGE},row={m.group(1)},col={year}-12-31",
                }
            )  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--realworld", type=Path, default=REALWORLD)
    parser.add_argument("--out", type=Path, default=HERE / "facts.csv")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from ragspine.profile import load_profile

    profile = load_profile(HERE / "profile.yaml")
    from_report = {m.name_zh: (m.code, m.unit) for m in profile.metrics if m.coverage}
    from_book = {m.name_zh: (m.code, m.unit) for m in profile.metrics if not m.coverage}
    from_book.pop(None, None)  # type: ignore[call-overload]
    rows = workbook_facts(args.realworld / WORKBOOK, from_book)  # type: ignore[arg-type]
    rows += report_facts(args.realworld / REPORT, from_report)  # type: ignore[arg-type]
    rows.sort(key=lambda r: (r["metric_code"], r["period"]))
    with args.out.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows({**r, "sensitivity": LEVEL} for r in rows)
    print(f"{len(rows)} facts → {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
