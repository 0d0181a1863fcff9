"""Heading-aware chunking with stable locators.

A Markdown heading opens a numbered section (1, 1.1, 2 …, counted from the document's
shallowest heading level); paragraphs are numbered within their section. A chunk's locator is
``section=2.1,para=3`` (``para=3`` in plain text), and ``,part=2`` when a long paragraph is split.
The same file always yields the same locators, so a citation keeps pointing at the same place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_SENTENCE = re.compile(r"(?<=[。!?!?;;])|(?<=[.!?])\s+")
MAX_CHUNK_CHARS = 800


@dataclass(frozen=True)
class ChunkDraft:
    locator: str
    heading: str
    text: str


def chunk_text(body: str, *, markdown: bool) -> list[ChunkDraft]:
    """Chunks of a document body, in reading order."""
    lines = body.split("\n")
    levels = sorted({len(m[1]) for ln in lines if markdown and (m := _HEADING.match(ln))})
    top = levels[0] if levels else 1
    counters: list[int] = []
    headings: list[str] = []
    para = 0
    block: list[str] = []
    fenced = False
    out: list[ChunkDraft] = []

    def flush() -> None:
        nonlocal para, block
        text = _join(block)
        block = []
        if not text:
            return
        para += 1
        section = ".".join(map(str, counters)) if counters else ""
        base = f"section={section},para={para}" if markdown and section else f"para={para}"
        heading = " › ".join(headings)
        pieces = split_long(text)
        for i, piece in enumerate(pieces, start=1):
            locator = base if len(pieces) == 1 else f"{base},part={i}"
            out.append(ChunkDraft(locator, heading, piece))

    for line in lines:
        if markdown and _FENCE.match(line):
            fenced = not fenced
            block.append(line)
            continue
        m = _HEADING.match(line) if markdown and not fenced else None
        if m:
            flush()
            depth = max(len(m[1]) - top + 1, 1)
            counters = (counters + [0] * depth)[:depth]
            counters[-1] += 1
            headings = (headings + [""] * depth)[:depth]
            headings[-1] = m[2].strip()
            para = 0
        elif line.strip():
            block.append(line)
        elif not fenced:
            flush()
    flush()
    return out


# Bumped when the same text would be cut or joined differently: a stored document whose content
# hash carries an older version is chunked again on the next ingest, unchanged or not.
CHUNKER_VERSION = 2

# A row of a table or a label-value list in Chinese: 公司的法定代表人 张翀宇, 货币资金 1,516,034.28.
_ROW = re.compile(r"[\u4e00-\u9fff][^\S\n]+\S")


def _join(lines: list[str]) -> str:
    """Join wrapped lines; CJK lines join without a space, others with one. A Chinese table row
    keeps its line break: joined, 张翀宇 would run into the next row's label."""
    text = ""
    last = ""
    for raw in lines:
        line = raw.strip()  # never blank: blocks hold only lines with text
        if text and (_ROW.search(last) or _ROW.search(line)):
            text += "\n"
        elif text and not (_is_cjk(text[-1]) and _is_cjk(line[0])):
            text += " "
        text += line
        last = line
    return text


def _is_cjk(char: str) -> bool:
    return "\u3000" <= char <= "\u9fff" or "\uff00" <= char <= "\uffef"


def split_long(text: str) -> list[str]:
    if len(text) <= MAX_CHUNK_CHARS:
        return [text]
    pieces: list[str] = []
    current = ""
    for sentence in (s for s in _SENTENCE.split(text) if s):
        if current and len(current) + len(sentence) > MAX_CHUNK_CHARS:
            pieces.append(current.strip())
            current = ""
        while len(sentence) > MAX_CHUNK_CHARS:  # one sentence longer than a chunk: hard cut
            pieces.append(sentence[:MAX_CHUNK_CHARS])
            sentence = sentence[MAX_CHUNK_CHARS:]
        current += sentence
    if current.strip():
        pieces.append(current.strip())
    return pieces
