"""`ragspine profile draft`: a company's profile over a base (``extends: cas``), from the
company's own report and, optionally, a statements workbook.

The report's first pages name the company (``ingestion.company``); its statement tables, and the
workbook's sheets, are mapped through the base as `ingest` maps them (``ingestion.row_labels``).
What the draft writes: the company as the one entity, its names as aliases, the years its
figures cover, and every statement row with figures that names nothing in the base, as a
commented candidate (its label and where it was seen). Nothing is guessed: a candidate gets a
placeholder code (``ITEM_1``) for the user to name. The text loads as a valid profile as it is.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import yaml

from ragspine.errors import IngestError, ProfileError
from ragspine.ingestion.company import CompanyNames, company_names
from ragspine.ingestion.row_labels import Seen, distinct, map_tables
from ragspine.ingestion.tables import RowLabel
from ragspine.profile import DomainProfile
from ragspine.profile.extends import resolve
from ragspine.profile.model import MetricSpec
from ragspine.profile.periods import FY
from ragspine.profile.vocabulary import alias_collisions
from ragspine.readers import FileContent

# A table is a statement when titled as one, or untitled (a workbook's sheet, a .docx table)
# with this many labels that name line items; notes and summaries are not drafted from.
_STATEMENT = re.compile(r"合并(?:资产负债表|利润表|现金流量表)")
_UNTITLED_MAPPED = 2
_CODE = re.compile(r"^[A-Z][A-Z0-9_]*$")
GENERIC = ("本公司", "公司")  # how a report calls its own company
_FIELD_NAMES = {
    "code": "公司代码", "short": "公司简称", "legal": "中文名称", "english": "外文名称",
    "initials": "外文名称缩写",
}  # fmt: skip


@dataclass
class Draft:
    base: str
    names: CompanyNames
    files: list[str]
    entity_code: str
    aliases: list[str]
    coverage: list[str]
    # a line item's own years, where not the coverage's
    own_coverage: dict[str, list[str]] = field(default_factory=dict)
    mapped: list[Seen] = field(default_factory=list)
    candidates: list[Seen] = field(default_factory=list)
    shapes: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)  # unit, kind
    left_out: list[str] = field(default_factory=list)  # drafted aliases another company holds


def draft(report: FileContent, others: list[FileContent], base: str = "cas") -> Draft:
    """The draft for the company ``report`` is about; ``others`` (a workbook) are mapped too."""
    names = company_names(report)
    if not names.found:
        raise IngestError(
            f"{report.path}: names no company in its first pages (公司代码/公司简称, "
            "公司的中文名称): draft from the company's annual report"
        )
    out = Draft(base, names, [c.path.name for c in (report, *others)], entity_code(names), [], [])
    out.aliases = [*names.aliases(), *GENERIC]
    profile = load(out)
    official = {names.short, names.legal, names.code}
    clash = {c.alias for c in alias_collisions(profile) if c.alias not in official}
    if clash:  # 金宇 would read inside 金宇车城: a listed company's name is never this alias
        out.left_out = [a for a in out.aliases if a in clash]
        out.aliases = [a for a in out.aliases if a not in clash]
        profile = load(out)
    years: dict[str, set[str]] = defaultdict(set)  # metric code → the years with a figure
    for content in (report, *others):
        mapped = map_tables(content, profile)
        for f in mapped.facts:
            if f.period_type == FY and f.entity == profile.home_entity_code:
                years[f.metric_code].add(f.period)
        tables = statement_tables(mapped.labels)
        seen = [s for s in distinct(content.path.name, mapped.labels) if s.where in tables]
        out.mapped += [s for s in seen if s.code is not None]
        out.candidates += [s for s in seen if s.code is None]
        out.shapes |= table_shapes(content.path.name, seen, profile)
    common = _most_common(list(years.values()))
    out.coverage = [f"FY{y}" for y in sorted(common)]
    out.own_coverage = {
        m.code: [f"FY{y}" for y in sorted(years[m.code])]
        for m in profile.metrics
        if years.get(m.code) and years[m.code] != common
    }
    load(out)  # the text as written must load: a failure here is a bug, said in one line
    return out


def _most_common(sets: list[set[str]]) -> set[str]:
    """The years most line items have figures for (the profile's coverage; a line item with
    other years says its own); of two as common, the one with more years."""
    counts: Counter[frozenset[str]] = Counter(frozenset(s) for s in sets)
    if not counts:
        return set()

    def rank(years: frozenset[str]) -> tuple[int, int, list[str]]:
        return counts[years], len(years), sorted(years)

    return set(sorted(counts, key=rank)[-1])


def statement_tables(labels: list[RowLabel]) -> set[str]:
    """The locators of a file's statement tables (see ``_STATEMENT``)."""
    mapped: dict[str, int] = defaultdict(int)
    titled: set[str] = set()
    for row in labels:
        if _STATEMENT.search(row.caption):
            titled.add(row.locator)
        elif not row.caption.strip() or row.locator.startswith("sheet="):
            mapped[row.locator] += row.code is not None
    return titled | {loc for loc, n in mapped.items() if n >= _UNTITLED_MAPPED}


def table_shapes(
    file: str, seen: list[Seen], profile: DomainProfile
) -> dict[tuple[str, str], tuple[str, str]]:
    """(file, table) → the unit and kind most of the table's mapped rows have: what a row of
    that table that names nothing most likely is (a balance sheet's 元 at year end, a people
    sheet's 人)."""
    votes: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
    for s in seen:
        spec = profile.any_metric(s.code) if s.code else None
        if isinstance(spec, MetricSpec):
            votes[s.where][(spec.unit, spec.kind)] += 1
    return {(file, where): count.most_common(1)[0][0] for where, count in votes.items()}


def entity_code(names: CompanyNames) -> str:
    """The company's code: its English initials (SQTEG), else CO_ and its stock code."""
    initials = re.sub(r"[^A-Z0-9]+", "_", names.initials.upper()).strip("_")
    if _CODE.match(initials):
        return initials
    return f"CO_{names.code}" if names.code else "CO"


def load(d: Draft) -> DomainProfile:
    """The draft's text, loaded as `--profile` would load it."""
    text = render(d)
    data = yaml.safe_load(text)
    try:
        return DomainProfile.model_validate(resolve(data, "<draft>", None))
    except (ProfileError, ValueError) as exc:
        raise IngestError(f"the drafted profile does not load: {exc}") from None


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _list(items: list[str]) -> str:
    return "[" + ", ".join(_q(i) for i in items) + "]"


def render(d: Draft) -> str:
    """The profile as YAML, with comments saying where each part came from."""
    n = d.names
    at: dict[str, list[str]] = defaultdict(list)
    for key, where in n.where.items():
        at[where].append(_FIELD_NAMES[key])
    seen_at = "; ".join(f"{', '.join(keys)} at {where}" for where, keys in at.items())
    lines = [
        f"# Drafted by `ragspine profile draft` from {', '.join(d.files)}.",
        f"# The company, as its report names itself ({seen_at}).",
        f"# {len(d.mapped)} statement row labels name line items of `{d.base}`; "
        f"{len(d.candidates)} do not (candidates at the end).",
        "# Check: ragspine profile check THIS_FILE " + " ".join(d.files),
        "version: 2",
        f"extends: {d.base}",
        f"name: {_q(f'{n.short or n.legal}-{n.code}' if n.code else n.short or n.legal)}",
        f"home_company_name: {_q(n.legal or n.short)}",
        f"home_entity_code: {d.entity_code}",
    ]
    if d.coverage:
        lines.append(f"coverage: [{', '.join(d.coverage)}]  # the years most line items have")
    lines += [
        "",
        "entities:",
        f"  - code: {d.entity_code}",
        f"    name_zh: {_q(n.short or n.legal)}",
    ]
    english = next((a for a in d.aliases if a.isascii() and not a.isdigit()), "")
    if english:
        lines.append(f"    name_en: {_q(english)}")
    lines.append(f"    aliases: {_list(d.aliases)}")
    for alias in d.left_out:
        lines.append(f"    # left out: {_q(alias)}, part of another listed company's name")
    lines += [
        "",
        "# Partners the report names (answered from documents, never given facts) and",
        "# competitors (refused) are yours to add:",
        "# external_entities:",
        "#   - {name: 合作方全称, role: partner, aliases: [合作方简称]}",
    ]
    if d.own_coverage:
        lines += [
            "",
            "# The years a line item has figures for, where not the coverage's (the years most",
            "# line items have): a question naming no year is answered for the latest of them.",
            "metrics:",
        ]
        lines += [
            f"  - {{code: {code}, coverage: [{', '.join(labels)}]}}"
            for code, labels in d.own_coverage.items()
        ]
    if d.candidates:
        lines += [
            "",
            f"# Statement rows with figures that name no line item of `{d.base}`: `ingest` leaves",
            "# their figures out. To keep one, uncomment its line (and `metrics:`), give it a code",
            "# and check its unit and kind (balance: at the year's end; flow: over the year).",
        ]
        if not d.own_coverage:
            lines.append("# metrics:")
        for i, c in enumerate(d.candidates, start=1):
            unit, kind = d.shapes.get((c.file, c.where), ("CNY", "flow"))
            item = (
                f"{{code: ITEM_{i}, unit: {unit}, kind: {kind}, name_zh: {_q(c.label)}, "
                f"aliases: [{_q(c.label)}]}}"
            )
            times = f", {c.times} rows" if c.times > 1 else ""
            lines.append(f"#   - {item}  # {c.file} · {c.where}{times}")
    return "\n".join(lines) + "\n"
