"""Convert the 金宇生物 2020 annual report PDF into one markdown document for the corpus.

Text only (pdfplumber's page text): running headers and page numbers dropped, 第X节 / 一、 / (一)
lines made headings so passages cite a section, hard-wrapped prose lines joined, table rows kept
one per line. Proper PDF ingestion (tables, layout) is the ingestion worker's job; this is enough
for the narrative channel to answer from the report's own words.

Run from the repo: ``.venv/bin/python examples/jinyu/build_corpus.py`` (needs ``.[ingest]``).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPORT = HERE.parents[1].parent / "shared" / "realworld" / "600201_金宇生物_2020_年度报告.pdf"
OUT = HERE / "corpus" / "JINYU_2020_Annual_Report.md"
FRONT = """---
title: 金宇生物技术股份有限公司2020年年度报告
sensitivity: PUBLIC
language: zh
entity: JINYU
period: 2020
---

本文为金宇生物技术股份有限公司(生物股份,600201)2020年年度报告的文字部分,由公开披露的 PDF 转换
(经 MetaGLM/FinGLM 公开数据集取得)。

"""
_PAGE_NOISE = re.compile(r"^(?:\d{4}\s*年年度报告|\d+\s*/\s*\d+)$")
_PART = re.compile(r"^第[一二三四五六七八九十]+节\s*\S")
_SECTION = re.compile(r"^[一二三四五六七八九十]+、\s*\S")
_SUBSECTION = re.compile(r"^[(（][一二三四五六七八九十]+[)）]\s*\S")
_NUMBERS = re.compile(r"-?[\d,]+(?:\.\d+)?%?")
_SENTENCE_END = tuple("。；;：:！!？?")


def _is_row(line: str) -> bool:
    """A table row: two or more figures on the line, or a bare figure."""
    return len(_NUMBERS.findall(line)) >= 2 and " " in line


def convert(pdf_path: Path) -> str:
    import pdfplumber

    lines: list[str] = []
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            for raw in (page.extract_text() or "").splitlines():
                line = raw.strip()
                if line and not _PAGE_NOISE.match(line) and "......" not in line:
                    lines.append(line)
    out: list[str] = []
    paragraph = ""
    started = False  # headings only after the table of contents

    def flush() -> None:
        nonlocal paragraph
        if paragraph:
            out.append(paragraph)
            paragraph = ""

    in_statements = False
    for line in lines:
        heading = None
        if _PART.match(line) and len(line) <= 30:
            started = True
            in_statements = "财务报告" in line
            heading = f"# {line}"
        elif started and len(line) <= 40 and not _NUMBERS.search(line[2:]):
            if _SECTION.match(line) and not (in_statements and _is_row(line)):
                heading = f"## {line}"
            elif _SUBSECTION.match(line):
                heading = f"### {line}"
        if heading:
            flush()
            out.append(heading)
        elif _is_row(line):
            flush()
            out.append(line)
        else:
            paragraph += line
            if line.endswith(_SENTENCE_END) or len(line) < 25:
                flush()
    flush()
    return FRONT + "\n\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", type=Path, nargs="?", default=REPORT)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    text = convert(args.pdf)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, "utf-8")
    print(f"{len(text):,} characters, {text.count(chr(10) + '#')} headings → {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
