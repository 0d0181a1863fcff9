"""A report's text lines back into headings and paragraphs.

A PDF gives lines, not structure. Annual reports filed in China number their structure the same
way, so it can be read back: ``第X节`` opens a part; inside it ``一、`` lines are sections,
``(一)`` lines subsections, and lines numbered with figures (``1.`` / ``1、``) one level below
the deepest heading open. A 一、 list of its own inside a section (the audit report's
一、审计意见 … 六、…) is one level down too.

A line is a heading only if it continues its level's numbering (the next number, or up to
``SKIP`` further on when one did not qualify), is written like the level's first heading (a space
after the marker or not), is at most 40 characters (or a full line plus the short tail the page
wrapped, joined back), does not end a sentence, and is not a label between table rows. In the
financial report part a heading also has no figure after its title (``一、营业总收入
1,581,905,632.48`` is a statement row there), and after table rows it must be followed by the
适用/不适用 tick, a table unit, a list item or prose, not more table.

Body: hard-wrapped prose is joined into one paragraph, which ends at a line ending in 。；：!? or
at a short line. Table rows (two figures side by side) and the short lines around them stay one
per line, in blocks small enough to be one chunk. A caption line (``其他说明：``) opens the
paragraph it introduces. A document with no numbered parts is all body, under no heading.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from itertools import pairwise

_CN = "〇零一二三四五六七八九十"
_PART = re.compile(rf"^第([{_CN}]+)节\s*(\S.*)$")
_SECTION = re.compile(rf"^([{_CN}]+)、(\s*)(\S.*)$")
_SUBSECTION = re.compile(rf"^[(（]([{_CN}]+)[)）](\s*)(\S.*)$")
_ITEM = re.compile(r"^(\d{1,2})([.．、])(\s*)(\S.*)$")
_FINANCE_PART = "财务报告"

_NUMBER = re.compile(r"^[-−－]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?%?$")
_FIGURE_CELL = re.compile(r"(?:^|\s)[-−－]?\d[\d,.]*%?(?:\s|$)")
_LIST_MARK = re.compile(r"^(?:[(（]\d{1,2}[)）]|[①-⑳])")
_SENTENCE_END = tuple("。；;：:!！?？")
_FULL_STOP = tuple("。；;!！?？")  # a short line ending so is a paragraph; "：" leads on
_HEADING_END = tuple("。；;，,")

FULL_WIDTH = 74  # display columns: a prose line the page did not wrap is shorter than this
MAX_HEADING_CHARS = 40
MAX_TAIL_CHARS = 20  # the wrapped tail of a long heading
MAX_BLOCK_CHARS = 700  # a block of table lines stays under the chunker's 800 characters
SKIP = 3  # a heading may skip up to this many numbers (when one did not qualify)


@dataclass(frozen=True)
class Line:
    page: int
    text: str


@dataclass(frozen=True)
class Block:
    """A paragraph or a block of table lines: the page it starts on, the headings above it."""

    page: int
    heading: str  # 第四节 经营情况讨论与分析 › 二、报告期内主要经营情况
    text: str


def display_width(text: str) -> int:
    """Columns the text takes on the page: CJK and full-width characters count two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def cn_number(text: str) -> int:
    """一 → 1, 十 → 10, 十二 → 12, 二十一 → 21 (as far as section numbers go)."""
    digits = {ch: i for i, ch in enumerate("零一二三四五六七八九")} | {"〇": 0}
    if "十" not in text:
        return digits.get(text, 0) if len(text) == 1 else 0
    tens, _, ones = text.partition("十")
    return (digits.get(tens, 0) if tens else 1) * 10 + (digits.get(ones, 0) if ones else 0)


def is_row(line: str) -> bool:
    """A table row: two figures side by side as their own space-separated cells.

    Prose spaces figures too, but one at a time (``2020 年 1 月 1 日``), and bare one- or
    two-digit integers alone do not make a row.
    """
    cells = line.split()
    side_by_side = any(_NUMBER.match(a) and _NUMBER.match(b) for a, b in pairwise(cells))
    figures = [cell for cell in cells if _NUMBER.match(cell)]
    return side_by_side and any(len(c) > 2 or not c.isdigit() for c in figures)


def is_part(line: str) -> bool:
    return bool(_PART.match(line))


def is_short(line: str) -> bool:
    return display_width(line) < FULL_WIDTH


def join_wrapped(left: str, right: str) -> str:
    """Join a hard-wrapped line to the next: no space, except between two Latin letters."""
    if left[-1:].isascii() and left[-1:].isalpha() and right[:1].isascii() and right[:1].isalpha():
        return f"{left} {right}"
    return left + right


@dataclass
class Level:
    """The numbering of one heading level under its current parent."""

    last: int = 0
    style: str | None = None  # the first heading's marker and spacing; the rest must match
    kind: str | None = None  # which kind of heading numbers this level (see Heading.kind)

    def accepts(self, number: int, style: str, kind: str) -> bool:
        if self.kind not in (None, kind) or self.style not in (None, style):
            return False
        return self.last < number <= self.last + SKIP

    def take(self, number: int, style: str, kind: str) -> None:
        self.last, self.style, self.kind = number, style, kind


@dataclass
class Outline:
    """Where the reading is in the report's numbering: which levels are open, and how."""

    part: int = 0
    finance: bool = False
    levels: dict[int, Level] = field(default_factory=dict)  # by depth, 2 and below
    titles: dict[int, str] = field(default_factory=dict)  # the open headings' text, by depth
    depth: int = 0  # deepest open heading

    def open(self, depth: int, title: str) -> None:
        self.depth = depth
        for d in [d for d in self.levels if d > depth]:
            del self.levels[d]
        self.titles = {d: t for d, t in self.titles.items() if d < depth} | {depth: title}

    def level(self, depth: int) -> Level:
        """The numbering at a depth (a fresh one when that level is not open)."""
        return self.levels.get(depth, Level())

    @property
    def path(self) -> str:
        return " › ".join(self.titles[d] for d in sorted(self.titles))


@dataclass(frozen=True)
class Heading:
    depth: int
    kind: str  # "part", "section", "nested" (一、 inside 一、), "subsection" or "item"
    number: int
    style: str
    text: str
    consumed: int = 1  # input lines it used (2 when a wrapped tail was joined)


def find_heading(lines: list[str], i: int, outline: Outline, in_table: bool) -> Heading | None:
    """The heading that starts at ``lines[i]``, if it is one; changes nothing."""
    line = lines[i]
    if m := _PART.match(line):
        number = cn_number(m[1])
        if outline.part < number <= outline.part + SKIP and len(line) <= 30:
            return Heading(1, "part", number, "", f"第{m[1]}节 {m[2]}")
        return None
    if outline.part == 0 or is_row(line):
        return None
    if in_table and any(is_row(nxt) for nxt in lines[i + 1 : i + 4]):
        return None  # a label between two table rows
    heading = _numbered(line, outline)
    if heading is None:
        return None
    following = lines[i + 1] if i + 1 < len(lines) else ""
    if outline.finance and in_table and heading.depth > 2 and not _opens_text(lines[i + 1 : i + 3]):
        return None  # a statement's row label, wrapped or empty ("（四）所有者" / "权益内部结转")
    text, consumed = line, 1
    if len(line) > MAX_HEADING_CHARS:
        if _is_heading_tail(following):
            text, consumed = join_wrapped(line, following), 2
        elif not _is_furniture(following):
            return None  # a long line that runs on: prose, not a heading
    title = text[len(line) - len(heading.text) :]
    if text.endswith(_HEADING_END) or (outline.finance and _FIGURE_CELL.search(title)):
        return None  # in the statements, a label followed by a figure is a row
    return replace(heading, text=text, consumed=consumed)


def _numbered(line: str, outline: Outline) -> Heading | None:
    """The line as a numbered heading, when it continues the numbering of a level."""
    if m := _SECTION.match(line):
        heading = Heading(2, "section", cn_number(m[1]), bool(m[2]) * " ", m[3])
        if not _continues(outline, heading) and heading.style != outline.level(2).style:
            # a 一、 list of its own inside a section, written differently from the sections
            heading = replace(heading, depth=3, kind="nested")
    elif m := _SUBSECTION.match(line):
        depth = 4 if outline.level(3).kind == "nested" else 3
        heading = Heading(depth, "subsection", cn_number(m[1]), bool(m[2]) * " ", m[3])
    elif m := _ITEM.match(line):
        heading = Heading(_item_depth(outline), "item", int(m[1]), m[2] + bool(m[3]) * " ", m[4])
    else:
        return None
    return heading if _continues(outline, heading) else None


def _continues(outline: Outline, heading: Heading) -> bool:
    """Whether the heading fits under the open headings and continues its level's numbering."""
    if outline.depth < max(heading.depth - 1, 2 if heading.kind == "item" else 1):
        return False  # a level below one that is not open; figures number nothing under 第X节
    return outline.level(heading.depth).accepts(heading.number, heading.style, heading.kind)


def _item_depth(outline: Outline) -> int:
    """Figure-numbered headings: their level if one is open, else one below the deepest open."""
    for depth, level in outline.levels.items():
        if level.kind == "item" and depth <= outline.depth:
            return depth
    return outline.depth + 1


def _is_heading_tail(line: str) -> bool:
    """The rest of a heading the page wrapped: a few characters, not a line of its own kind."""
    return (
        0 < len(line) <= MAX_TAIL_CHARS
        and len(line.split()) == 1
        and not is_row(line)
        and not line.endswith(_HEADING_END)
        and not _is_furniture(line)
        and not any(p.match(line) for p in (_PART, _SECTION, _SUBSECTION, _ITEM))
    )


def _is_furniture(line: str) -> bool:
    """The template lines that follow a heading: the 适用/不适用 tick, the unit of a table."""
    return line.startswith(("□", "√", "单位：", "单位:"))


def _opens_text(following: list[str]) -> bool:
    """Whether the lines after a heading candidate read as a section's start, not more table."""
    if any(_is_furniture(line) for line in following):
        return True
    first = following[0] if following else ""
    return bool(
        _LIST_MARK.match(first)
        or first.endswith(_FULL_STOP)
        or not (is_short(first) or is_row(first))
    )


def take_heading(outline: Outline, heading: Heading) -> None:
    """Record a heading: its level moves on, the levels below it start again."""
    if heading.kind == "part":
        outline.part = heading.number
        outline.finance = _FINANCE_PART in heading.text
        outline.levels.clear()
    else:
        level = outline.levels.setdefault(heading.depth, Level())
        level.take(heading.number, heading.style, heading.kind)
    outline.open(heading.depth, heading.text)


def blocks(lines: list[Line]) -> Iterator[Block]:
    """Paragraphs and table-line blocks, in reading order, each under its heading path."""
    texts = [ln.text for ln in lines]
    outline = Outline()
    prose, prose_page = "", 0  # the paragraph being joined, and the page it starts on
    table: list[Line] = []  # the block of table lines being collected
    in_table = False  # a table row since the last heading or full paragraph
    i = 0

    def flush() -> Iterator[Block]:
        nonlocal prose, table
        if prose:
            yield Block(prose_page, outline.path, prose)
        elif table:
            yield Block(table[0].page, outline.path, "\n".join(t.text for t in table))
        prose, table = "", []

    while i < len(lines):
        line = texts[i]
        heading = find_heading(texts, i, outline, in_table)
        if heading:
            yield from flush()
            take_heading(outline, heading)
            in_table = False
            i += heading.consumed
            continue
        page = lines[i].page
        i += 1
        row = is_row(line)
        if prose and not row and not _LIST_MARK.match(line):
            prose = join_wrapped(prose, line)  # the paragraph goes on
        elif row or (is_short(line) and not line.endswith(_FULL_STOP)):
            if prose or sum(len(t.text) for t in table) + len(line) > MAX_BLOCK_CHARS:
                yield from flush()
            table.append(lines[i - 1])
            in_table = in_table or row
            continue
        else:
            # A caption ("一、审计意见", "其他说明：") leads into the paragraph it names.
            caption = [t.text for t in table]
            label = table.pop() if table and _is_caption(caption, in_table) else None
            yield from flush()
            prose, prose_page = (f"{label.text}\n{line}", label.page) if label else (line, page)
        in_table = in_table and is_short(line)  # a caption in a table ("八、每股收益：") stays in
        if line.endswith(_SENTENCE_END) or is_short(line):
            yield from flush()
    yield from flush()


def _is_caption(block: list[str], in_table: bool) -> bool:
    """Whether the block's last line names the paragraph that follows it: it stands alone, or
    ends a block without table rows and is numbered or ends in a colon; never a tick or a row."""
    line = block[-1]
    if _is_furniture(line) or is_row(line):
        return False
    numbered = any(p.match(line) for p in (_SECTION, _SUBSECTION, _ITEM, _LIST_MARK))
    return len(block) == 1 or (not in_table and (numbered or line.endswith(("：", ":"))))
