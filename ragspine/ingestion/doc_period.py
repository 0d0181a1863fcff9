"""A document's period: what its own cover says it reports on, unless the user says otherwise.

A listed company's report names its period on its title page and in the running head of its
first pages ("2020 年年度报告", "2020年半年度报告", "2021年第三季度报告", "Annual Report 2020").
The first such name in a document's first blocks is its period; a document that names none has
no period (it is never guessed from a date in its text). ``ingest --period`` overrides it, and
so does a text file's front matter (``period:``).
"""

from __future__ import annotations

import re

from ragspine.errors import IngestError
from ragspine.profile.periods import FY, HALF, QUARTER, Period
from ragspine.readers import FileContent
from ragspine.retrieval.doc_periods import as_period
from ragspine.text import fold

COVER_BLOCKS = 40  # the title page and the table of contents of a long report, at most
_YEAR = r"((?:19|20)\d{2})"
_QUARTERS = {"一": 1, "二": 2, "三": 3, "四": 4, "1": 1, "2": 2, "3": 3, "4": 4}
# Longest first: 半年度 is never 年度, and a quarter is never the year it falls in.
_COVERS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"{_YEAR}\s*年\s*(?:半年度|中期)\s*报告(?!期)"), HALF),
    (re.compile(rf"{_YEAR}\s*年\s*第\s*([一二三四1-4])\s*季度\s*报告(?!期)"), QUARTER),
    # 2020 年年度报告, 2020年度报告, 2020年年报; never 2020年报告期 (a period named in passing)
    (re.compile(rf"{_YEAR}\s*年\s*(?:年?度\s*报告|年报)(?!期)"), FY),
    (re.compile(rf"(?:interim|half[- ]year)\s+report\s+{_YEAR}"), HALF),
    (re.compile(rf"{_YEAR}\s+(?:interim|half[- ]year)\s+report"), HALF),
    (re.compile(rf"annual\s+report\s+{_YEAR}"), FY),
    (re.compile(rf"{_YEAR}\s+annual\s+report"), FY),
]


def cover_period(content: FileContent) -> Period | None:
    """The period the document's cover names as the report's (its title, the title lines a
    reader set aside as running heads, then its first blocks with their headings), or None."""
    title = str(content.meta.get("title", ""))
    first = content.blocks[:COVER_BLOCKS]
    lines = [title, *content.cover, *(t for b in first for t in (b.heading, b.text))]
    for line in lines:
        text = fold(line)
        found = [(m.start(), m, kind) for pattern, kind in _COVERS for m in pattern.finditer(text)]
        if found:
            _, m, kind = min(found, key=lambda f: f[0])
            year = m.group(1)
            if kind == QUARTER:
                return Period(QUARTER, f"{year}Q{_QUARTERS[m.group(2)]}")
            return Period(HALF, f"{year}H1") if kind == HALF else Period(FY, year)
    return None


def period_label(text: str) -> str:
    """``--period`` as its label (FY2020, 2020H1, 2020Q3), or an IngestError naming the value."""
    period = as_period(text)
    if period is None:
        raise IngestError(f"--period {text!r}: not a period (FY2020, 2020H1 or 2020Q3)")
    return period.label
