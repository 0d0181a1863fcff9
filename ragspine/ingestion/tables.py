"""Tables to facts, through the profile: a row label names a metric, a column header a period,
the caption a unit and scale; every value keeps the cell it came from.

Read both ways a statement table is laid out: line items down the side and periods across (a
report, a deck), or line items across and one row per year and company (a statement workbook).
A cell in a mapped row and period column that is not a number is reported, never guessed.
Consolidated statements win over the parent company's (母公司), which a report prints beside them.

Nothing read is dropped in silence (``ingestion.drops``): a value in a period column whose row
(or workbook column) no metric names is reported with its label and cell, and so is every cell
that disagrees with an earlier reading of the same fact.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from ragspine.ingestion import drops
from ragspine.ingestion.drops import Conflict, Reading, Unmapped
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import glossary_for
from ragspine.profile.periods import FY, Period, parse_period
from ragspine.readers.base import Table
from ragspine.storage.fact_store import Fact
from ragspine.text import fold

EXTRACTOR_VERSION = "ragspine-tables/1"

_SCALES = {
    "千元": 10**3, "万元": 10**4, "百万元": 10**6, "亿元": 10**8, "元": 1, "thousand": 10**3,
    "million": 10**6, "billion": 10**9, "美元": 1, "千美元": 10**3, "百万美元": 10**6,
}  # fmt: skip
_SCALE_WORD = re.compile("|".join(sorted(_SCALES, key=len, reverse=True)))
# Numbering and connectives before a line item: 一、营业总收入, 加:营业外收入, 其中:利息费用.
_LABEL_HEAD = re.compile(
    r"^(?:[一二三四五六七八九十]+、|[(（][一二三四五六七八九十\d]+[)）]|\d+[.、．]|[加减]\s*[:：]|"
    r"其中\s*[:：]|\s)+"
)
_LABEL_TAIL = re.compile(r"\s*[(（][^()（）]*[)）]$")  # （损失以"-"号填列）, (元/股)
_YEAR = r"((?:19|20)\d{2})"
_HEADERS: list[tuple[re.Pattern[str], int | None]] = [
    (
        re.compile(
            rf"^{_YEAR}\s*年\s*(?:12\s*月\s*31\s*日|末|度|金额|年度)?(?:余额|金额|发生额)?$"
        ),
        None,
    ),
    (re.compile(r"^(?:本期|本年)(?:发生额|金额|期末数|期末余额|数)?$|^期末(?:余额|数)?$"), 0),
    (
        re.compile(r"^(?:上期|上年)(?:发生额|金额|期末数|期末余额|同期数|数)?$|^期初(?:余额|数)?$"),
        -1,
    ),
]
_STATEMENT = re.compile(r"合并(?:资产负债表|利润表|现金流量表)")
_AMOUNT = re.compile(r"^[(（]?-?[\d,]+(?:\.\d+)?[)）]?$")
_EMPTY = {"", "-", "—", "–", "--", "/", "不适用", "n/a", "N/A"}


@dataclass(frozen=True)
class RowLabel:
    """A row label (a workbook's column header) that holds figures, the table it is in, and the
    metric it names (None: not mapped; its figures are not stored)."""

    locator: str  # the table's: page=59,table=1 | sheet=profit_statement
    label: str
    code: str | None
    caption: str = ""  # the table's: which statement (合并资产负债表 单位:元), if it says


@dataclass
class TableFacts:
    facts: list[Fact] = field(default_factory=list)
    unmapped: list[Unmapped] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    labels: list[RowLabel] = field(default_factory=list)  # every label holding a figure


def header_period(cell: str, report_year: int | None) -> Period | None:
    """A column header as a fiscal period: 2020年, 2020年12月31日, 本期发生额, 期初余额, FY2024."""
    text = fold(cell).replace(" ", "")
    if not text or "%" in text or "比" in text:
        return None  # 增减比例（%）, 占总资产的比例: not a period's value
    for pattern, offset in _HEADERS:
        m = pattern.match(text)
        if m and offset is None:
            return Period(FY, m.group(1))
        if m and report_year is not None and offset is not None:
            return Period(FY, str(report_year + offset))
    period = parse_period(text.lower(), _REF)
    return (
        period
        if (period is not None and period.period_type != FY) or re.match(r"^fy", text.lower())
        else None
    )


_REF = __import__("datetime").date(2100, 1, 1)


def label_of(cell: str) -> str:
    """A row label without its numbering or its 「(损失以"-"号填列)」 note."""
    text = _LABEL_HEAD.sub("", cell.strip())
    return _LABEL_TAIL.sub("", text).strip()


def scale_of(caption: str) -> int | None:
    m = _SCALE_WORD.search(caption.lower())
    return _SCALES[m.group()] if m else None


def number(cell: str) -> Decimal | None:
    """'1,516,034,246.28' → Decimal; '(1,234.50)' → -1234.50; anything else None."""
    text = cell.strip().replace(" ", "")
    if not _AMOUNT.match(text):
        return None
    negative = text.startswith(("(", "（"))
    try:
        value = Decimal(text.strip("()（）").replace(",", ""))
    except InvalidOperation:
        return None
    return -value if negative else value


@dataclass
class TableMapper:
    """Maps a file's tables; carries a header across a statement's continuation pages."""

    profile: DomainProfile
    doc_id: str
    file_hash: str
    entity: str
    report_year: int | None = None
    mapping_version: str = ""
    # the last header seen: its statement, its width, its periods and its cells' text
    _header: tuple[str, int, list[Period | None], list[str]] | None = None
    _seen: dict[tuple[str, ...], Fact] = field(default_factory=dict)

    def map(self, tables: Iterable[Table]) -> TableFacts:
        """Consolidated statements first, so their figures stand and a summary table or a note
        that disagrees with them is what gets reported."""
        out = TableFacts()
        ordered = sorted(tables, key=lambda t: not _STATEMENT.search(t.caption))
        for table in ordered:
            if "母公司" in table.caption:
                continue  # the parent company's own statements: not the group's figures
            if not self._across(table, out):
                self._down(table, out)
        return out

    # -- line items down the side, periods across -----------------------------------------
    def _down(self, table: Table, out: TableFacts) -> None:
        header_row, periods, names = self._periods(table)
        statement = bool(_STATEMENT.search(table.caption))
        if not any(periods):
            if statement and any(
                self._metric_and_channel(label_of(r[0]))[0] for r in table.rows if r
            ):
                # a statement with line items the profile names, whose header was not recognised
                why = "a consolidated statement whose columns name no period: nothing read"
                out.unmapped.append(
                    Unmapped(table.locator, " | ".join(table.rows[0]), why, drops.NO_PERIODS)
                )
            return
        scale = scale_of(table.caption)
        entity = self._entity_of(table)
        previous: list[str] = []
        for r, row in enumerate(table.rows):
            if r == header_row or not row:
                continue
            label, code, channel = self._row_label(previous, row, periods)
            previous = row
            if any(number(row[c]) is not None for c, p in enumerate(periods) if p and c < len(row)):
                out.labels.append(RowLabel(table.locator, label, code, table.caption))
            stored = None if channel is None or self.profile.derived(code or "") else code
            for c, period in enumerate(periods):
                if period is None or c >= len(row):
                    continue
                column = _as_written(names[c]) if c < len(names) else str(c)
                locator = f"{table.locator},row={label},col={column}"
                if stored is not None:
                    self._cell(out, stored, entity, period, row[c], scale, locator, channel, label)
                elif number(row[c]) is not None:
                    kind = drops.STATEMENT_ROW if statement else drops.TABLE_ROW
                    out.unmapped.append(
                        self._not_stored(kind, label, code, row[c], locator, period)
                    )

    def _not_stored(
        self, kind: str, label: str, code: str | None, cell: str, locator: str, period: Period
    ) -> Unmapped:
        """A value whose row or column names no stored metric: said with its label."""
        if code is not None and self.profile.derived(code):
            why = f"names the derived metric {code}: computed from its operands, not stored"
            kind = drops.DERIVED
        elif code is not None:
            why = f"names {code} with a channel the profile does not hold"
        else:
            why = (
                f"no metric of the profile is named 「{label}」"
                if label
                else "a row without a label"
            )
        return Unmapped(locator, cell.strip(), why, kind, label, period.label)

    def _row_label(
        self, previous: list[str], row: list[str], periods: list[Period | None]
    ) -> tuple[str, str | None, str | None]:
        """The row's label and what it names. A label wrapped over two rows (its first line a
        row without figures that names nothing) is read joined, where the joined label names a
        metric and the second line alone does not."""
        label = label_of(row[0])
        code, channel = self._metric_and_channel(label)
        blank = not any(
            previous[c].strip() for c, p in enumerate(periods) if p and c < len(previous)
        )
        if code is None and previous and previous[0].strip() and blank:
            joined = label_of(previous[0].strip() + row[0].strip())
            if self._metric_and_channel(label_of(previous[0]))[0] is None:
                joined_code, joined_channel = self._metric_and_channel(joined)
                if joined_code is not None:
                    return joined, joined_code, joined_channel
        return label, code, channel

    def _metric_and_channel(self, label: str) -> tuple[str | None, str | None]:
        """营业收入 → (REVENUE, default channel); REVENUE:ONLINE → (REVENUE, ONLINE)."""
        glossary = glossary_for(self.profile)
        code = glossary.normalize_metric(label) if label else None
        if code is not None or ":" not in label:
            return code, self.profile.default_channel
        metric, _, channel = label.partition(":")
        return glossary.normalize_metric(metric), glossary.normalize_channel(channel)

    def _entity_of(self, table: Table) -> str:
        """The sheet that is named for an entity (ACME_HK), or the one entity a slide's title
        names (中国内地 FY2024), else the document's."""
        glossary = glossary_for(self.profile)
        if table.locator.startswith("sheet="):
            named = glossary.normalize_entity(table.locator.split(",")[0][len("sheet=") :])
            if named:
                return named
        found = {m.code for m in glossary.entities.find_all(fold(table.caption))}
        return found.pop() if len(found) == 1 else self.entity

    def _periods(self, table: Table) -> tuple[int, list[Period | None], list[str]]:
        statement = _STATEMENT.search(table.caption)
        title = statement.group() if statement else ""
        for r, row in enumerate(table.rows[:3]):
            periods = [header_period(cell, self.report_year) for cell in row]
            periods[0:1] = [None]  # the first column holds the labels
            if any(periods):
                self._header = (title, len(row), periods, row)
                return r, periods, row
        carried = self._header
        if (
            carried is not None
            and title
            and title == carried[0]
            and table.rows
            and len(table.rows[0]) == carried[1]
        ):
            return -1, carried[2], carried[3]  # a statement continued from the page before
        return -1, [], []

    # -- line items across, one row per year (and company) -----------------------------------
    def _across(self, table: Table, out: TableFacts) -> bool:
        if not table.rows:
            return False
        glossary = glossary_for(self.profile)
        header = table.rows[0]
        codes = [glossary.normalize_metric(label_of(h)) if h else None for h in header]
        years = [c for c, h in enumerate(header) if fold(h) in ("报告年份", "年份", "年度", "year")]
        if sum(c is not None for c in codes) < 2 or not years:
            return False
        who = [
            c
            for c, h in enumerate(header)
            if fold(h) in ("股票代码", "证券代码", "股票简称", "证券简称", "公司", "entity")
        ]
        skip = {*years, *who}
        held: set[int] = set()  # the columns with a figure in one of our rows
        for row in table.rows[1:]:
            entity = self.entity
            year = row[years[0]].strip()[:4] if years[0] < len(row) else ""
            if not year.isdigit():
                continue
            if who:
                names = [glossary.normalize_entity(row[c]) for c in who if c < len(row)]
                entity = next((e for e in names if e), "")
                if not entity:  # another company's row: not ours to map, and said so
                    said = " ".join(row[c].strip() for c in who if c < len(row))
                    why = "a company the profile does not hold: not this company's figures"
                    locator = f"{table.locator},year={year},company={said}"
                    out.unmapped.append(Unmapped(locator, said, why, drops.OTHER_ENTITY, said))
                    continue
            held |= {c for c, cell in enumerate(row) if number(cell) is not None and cell != "-1"}
            for c, code in enumerate(codes):
                if c >= len(row) or c in skip or row[c].strip() == "-1":
                    continue  # the challenge's workbooks write -1 for "not reported"
                locator = f"{table.locator},year={year},col={header[c]}"
                if code is None or self.profile.derived(code):
                    if number(row[c]) is not None:
                        label = label_of(header[c])
                        out.unmapped.append(
                            self._not_stored(
                                drops.COLUMN, label, code, row[c], locator, Period(FY, year)
                            )
                        )
                    continue
                period = Period(FY, year)
                label = label_of(header[c])
                self._cell(out, code, entity, period, row[c], None, locator, None, label)
        for c in sorted(held - skip):
            out.labels.append(RowLabel(table.locator, header[c], codes[c], table.caption))
        return True

    # -- one cell ----------------------------------------------------------------------------
    def _cell(
        self,
        out: TableFacts,
        code: str,
        entity: str,
        period: Period,
        cell: str,
        scale: int | None,
        locator: str,
        channel: str | None = None,
        label: str = "",
    ) -> None:
        text = cell.strip()
        if text in _EMPTY:
            return
        value = number(text)
        if value is None:
            why = f"not a number, in a row or column naming {code}"
            out.unmapped.append(
                Unmapped(locator, text, why, drops.NOT_A_NUMBER, label, period.label)
            )
            return
        metric = self.profile.metric(code)
        unit_scale = Decimal(str(self.profile.unit(metric.unit).scale))
        if scale is not None and Decimal(scale) != unit_scale:
            value = value * Decimal(scale) / unit_scale
        spec = next(e for e in self.profile.entities if e.code == entity)
        fact = Fact(
            code, entity, spec.geography or "", channel or self.profile.default_channel, FY
            if period.period_type == FY else period.period_type, period.period, float(value),
            metric.unit, self.doc_id, locator, self.file_hash, EXTRACTOR_VERSION,
            self.mapping_version, f"{value:f}",
        )  # fmt: skip
        earlier = self._seen.get(fact.key)
        if earlier is None:
            self._seen[fact.key] = fact
            out.facts.append(fact)
        elif earlier.exact != fact.exact:
            out.conflicts.append(
                Conflict(
                    code,
                    entity,
                    period.label,
                    fact.unit,
                    Reading(self.doc_id, earlier.source_locator, f"{earlier.exact}"),
                    Reading(self.doc_id, locator, f"{fact.exact}"),
                    drops.FIRST_IN_FILE,
                )
            )


def _as_written(cell: str) -> str:
    """A header as the file writes it, in half-width and without spaces: 2020年12月31日, FY2024."""
    return unicodedata.normalize("NFKC", cell).replace(" ", "")
