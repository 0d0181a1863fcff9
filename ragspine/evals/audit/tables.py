"""Markdown tables the model writes: each cell's figure takes its row label and its column header
as its context (entity, period, metric), and the context of the sentence before the table."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from ragspine.evals.audit.context import Backdrop, Statement, read
from ragspine.evals.audit.names import Lexicon
from ragspine.evals.audit.words import unit_after, unit_before

_ROW = re.compile(r"^\s*\|.*\|\s*$")
_RULE = re.compile(r"^\s*\|?(?:\s*:?-{2,}:?\s*\|)+\s*(?::?-{2,}:?\s*)?$")


def table_blocks(lines: Sequence[str]) -> list[tuple[int, int]]:
    """[start, end) line ranges of the tables: a header row, a rule, rows."""
    out, i = [], 0
    while i < len(lines):
        if _ROW.match(lines[i]) and i + 1 < len(lines) and _RULE.match(lines[i + 1]):
            j = i + 2
            while j < len(lines) and _ROW.match(lines[j]):
                j += 1
            out.append((i, j))
            i = j
        else:
            i += 1
    return out


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def cell_statements(
    rows: Sequence[str], before: str, lex: Lexicon, backdrop: Backdrop
) -> list[Statement]:
    """The figures of a table's data rows (citations already blanked), each read after the
    sentence before the table, its row label and its column header."""
    header = _cells(rows[0])
    sentences = [x for x in re.split(r"[。!?;\n]", before) if x.strip()]
    lead = sentences[-1].strip().rstrip(":") if sentences else ""
    out: list[Statement] = []
    for row in rows[2:]:
        cells = _cells(row)
        for j, cell in enumerate(cells):
            label = "" if j == 0 else cells[0]
            column = header[j] if j < len(header) else ""
            prefix = f"{lead} {label} {column}: "
            scale, unit = _declared(column, label, lead)
            for st in read(prefix + cell, lex, backdrop):
                if st.start < len(prefix):
                    continue
                claim, ctx = st.claim, st.ctx
                if scale != 1 and claim.scale == 1 and claim.kind == "number" and claim.value:
                    claim = replace(claim, value=claim.value * scale, slack=claim.slack * scale)
                    ctx = replace(ctx, unit=ctx.unit or unit)
                at = len(prefix)
                out.append(Statement(st.start - at, st.end - at, claim, ctx))
    return out


_DECLARED = re.compile(
    r"\(\s*(?:单位\s*:\s*)?(?:(?P<pre>US\$|USD|HK\$|HKD|RMB)\s*)?(?P<mag>百万|千万|亿|万|千|million|billion"
    r"|thousand|mn|bn)\s*(?P<post>[^()\s]*)\s*\)",
    re.I,
)
_SCALES = {"百万": 10**6, "千万": 10**7, "亿": 10**8, "万": 10**4, "千": 10**3, "million": 10**6,
           "billion": 10**9, "thousand": 10**3, "mn": 10**6, "bn": 10**9}  # fmt: skip


def _declared(*texts: str) -> tuple[Fraction, str | None]:
    """The scale (and currency) a column header, row label or the line before declares for the
    figures under it: (百万美元), (USD million)."""
    for text in texts:
        m = _DECLARED.search(text)
        if m:
            unit = unit_after(m.group("post")) or unit_before(m.group("pre") or "")
            return Fraction(_SCALES[m.group("mag").lower()]), unit
    return Fraction(1), None
