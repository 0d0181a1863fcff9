"""Tables the model writes (markdown ``| … |`` rows): each cell is read with its row label and
its column header as context, then the sentence before the table, then the answer's heading.

| 地区 | FY2023 | FY2024 |      a cell's claim takes its row's entity (香港), its column's
| 香港 | 410    | 455    |      period (FY2024) and the unit note (百万美元) of the header or
                                 of the sentence before, so a table with its columns swapped
                                 states FY2023's figures as FY2024's and is caught.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date

from ragspine.agent.claims import Claim
from ragspine.agent.cues import Vocabulary
from ragspine.agent.frames import Frame, frame_of, merged, with_unit_note

_ROW = re.compile(r"^\s*\|.*\|\s*$")
_RULE = re.compile(r"^\s*\|?(?:\s*:?-{2,}:?\s*\|)+\s*(?::?-{2,}:?\s*)?\|?\s*$")
_SCALE_WRITTEN = re.compile(r"[百千万亿億萬]|million|billion|thousand|bn|mn", re.I)


@dataclass(frozen=True)
class Cell:
    line: int  # index of its line in the answer
    index: int  # its place among the row's cells
    text: str
    frame: Frame


def table_end(lines: list[str], start: int) -> int:
    """Where a table starting at ``start`` ends (``start`` itself when none starts there)."""
    end = start
    while end < len(lines) and _ROW.match(lines[end]):
        end += 1
    return end if end - start >= 2 else start


def cells(line: str) -> list[str]:
    inner = line.strip()
    return inner[1:-1].split("|") if len(inner) >= 2 else []


def table_cells(
    lines: list[str],
    start: int,
    end: int,
    vocab: Vocabulary,
    ref: date,
    around: Frame,
    before: str,
) -> list[Cell]:
    """Every cell of the table with the frame it is read in."""
    header = cells(lines[start])
    outer = merged(frame_of([before], vocab, ref, metric=True), around)
    outer = with_unit_note(outer, before)
    columns = [with_unit_note(frame_of([h], vocab, ref, metric=True), h) for h in header]
    out = [Cell(start, i, text, outer) for i, text in enumerate(header)]
    for n in range(start + 1, end):
        if _RULE.match(lines[n]):
            continue
        row = cells(lines[n])
        label = row[0] if row else ""
        row_frame = with_unit_note(frame_of([label], vocab, ref, metric=True), label)
        for i, text in enumerate(row):
            column = columns[i] if i < len(columns) and i else Frame()
            own = merged(row_frame, column) if i else column
            out.append(Cell(n, i, text, merged(own, outer)))
    return out


def noted(claims: list[Claim], frame: Frame) -> list[Claim]:
    """A bare figure under a unit note is at the note's scale and kind: 455 under (百万美元)
    is 455,000,000; 11 under (%) is 11%."""
    if frame.scale == 1 and not frame.percent:
        return claims
    out = []
    for claim in claims:
        q = claim.quantity
        if q.kind == "number" and not _SCALE_WRITTEN.search(q.text):
            if frame.percent:
                q = replace(q, kind="percent")
            else:
                q = replace(q, value=q.value * frame.scale, precision=q.precision * frame.scale)
        out.append(Claim(q, claim.context))
    return out


def with_cell(line: str, index: int, text: str) -> str:
    """The row with one cell's text replaced."""
    head, _, rest = line.partition("|")
    parts = rest.split("|")
    parts[index] = f" {text} "
    return head + "|" + "|".join(parts)
