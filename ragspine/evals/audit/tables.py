"""Markdown tables the model writes: each cell's figure takes its row label and its column header
as its context (entity, period, metric), and the context of the sentence before the table."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ragspine.evals.audit.context import Backdrop, Statement, read
from ragspine.evals.audit.names import Lexicon

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
            for st in read(prefix + cell, lex, backdrop):
                if st.start >= len(prefix):
                    out.append(replace(st, start=st.start - len(prefix), end=st.end - len(prefix)))
    return out
