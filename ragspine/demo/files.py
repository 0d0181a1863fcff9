"""The ACME demo's source files, written for real: three annual review decks (.pptx, a slide per
entity, one table each) and the 2024 quarterly KPI workbook (.xlsx, a sheet per entity).

`ragspine fixtures` writes them and builds the demo fact table by ingesting them, so every
demo fact's locator (``slide=2,table=1,row=REVENUE,col=FY2024``) points at a real cell.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from pathlib import Path

from ragspine.demo.facts import SLIDES, demo_facts
from ragspine.demo.reproducible import fix_office_dates
from ragspine.profile import DomainProfile, default_profile
from ragspine.storage.fact_store import Fact

LABEL = "指标"


def _cell(value: float) -> str:
    """1320.0 → '1320', 427.7 → '427.7': the figure as a person types it."""
    exact = Decimal(repr(value))
    return str(exact.quantize(Decimal(1))) if exact == exact.to_integral() else str(exact)


def _tables(facts: list[Fact]) -> dict[str, dict[str, tuple[list[str], dict[str, dict[str, str]]]]]:
    """doc → table locator → (columns in order, row label → column → cell)."""
    out: dict[str, dict[str, tuple[list[str], dict[str, dict[str, str]]]]] = defaultdict(dict)
    for f in facts:
        parts = dict(p.split("=", 1) for p in f.source_locator.split(","))
        where = ",".join(f"{k}={v}" for k, v in parts.items() if k in ("slide", "table", "sheet"))
        columns, rows = out[f.source_doc_id].setdefault(where, ([], {}))
        if parts["col"] not in columns:
            columns.append(parts["col"])
        rows.setdefault(parts["row"], {})[parts["col"]] = _cell(f.value)
    return out


def write_demo_files(folder: str | Path, profile: DomainProfile | None = None) -> list[Path]:
    """Write the demo decks and workbook into ``folder``; returns their paths. The same bytes on
    every build (``fix_office_dates``): a rebuild changes no source hash."""
    prof = profile or default_profile()
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    names = {e.code: e.display_name for e in prof.entities}
    paths = []
    for doc, tables in _tables(demo_facts(prof)).items():
        path = target / doc
        if doc.endswith(".pptx"):
            _deck(path, tables, names)
        else:
            _workbook(path, tables)
        fix_office_dates(path)
        paths.append(path)
    return paths


def _deck(
    path: Path,
    tables: dict[str, tuple[list[str], dict[str, dict[str, str]]]],
    names: dict[str, str],
) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    year = path.stem.split("_")[1]  # ACME_FY2024_Review
    by_slide = {int(loc.split(",")[0].removeprefix("slide=")): v for loc, v in tables.items()}
    for entity, number in sorted(SLIDES.items(), key=lambda kv: kv[1]):
        slide = deck.slides.add_slide(deck.slide_layouts[5])  # title only
        assert slide.shapes.title is not None
        slide.shapes.title.text = f"{names[entity]} {year} 业绩回顾"
        columns, rows = by_slide[number]
        shape = slide.shapes.add_table(
            len(rows) + 1, len(columns) + 1, Inches(0.5), Inches(1.5), Inches(9), Inches(4)
        )
        for c, text in enumerate([LABEL, *columns]):
            shape.table.cell(0, c).text = text
        for r, (label, cells) in enumerate(rows.items(), start=1):
            shape.table.cell(r, 0).text = label
            for c, column in enumerate(columns, start=1):
                shape.table.cell(r, c).text = cells.get(column, "")
    deck.save(str(path))


def _workbook(path: Path, tables: dict[str, tuple[list[str], dict[str, dict[str, str]]]]) -> None:
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)  # type: ignore[arg-type]
    for where, (columns, rows) in tables.items():
        sheet = book.create_sheet(where.removeprefix("sheet="))
        sheet.append([LABEL, *columns])
        for label, cells in rows.items():
            sheet.append([label, *(float(cells[c]) if c in cells else None for c in columns)])
    book.save(path)
