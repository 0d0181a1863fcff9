"""PPTX: text frames as blocks and tables as tables, slide by slide, with python-pptx."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from zipfile import BadZipFile

from ragspine.readers.base import FileContent, ReadError, Table, TextBlock


class PptxReader:
    suffixes: tuple[str, ...] = (".pptx",)
    # what the cache of read documents keys on (``ingestion.cache``): bump ``version`` when
    # this reader's output changes; ``libraries`` are the packages it reads through
    version = 1
    libraries: tuple[str, ...] = ("python-pptx",)

    def read(self, path: Path) -> FileContent:
        from pptx import Presentation
        from pptx.exc import PackageNotFoundError

        try:
            deck = Presentation(str(path))
        except (BadZipFile, PackageNotFoundError, KeyError, ValueError) as exc:
            raise ReadError(f"{path}: not a readable PPTX deck: {exc}") from None
        content = FileContent(path)
        for n, slide in enumerate(deck.slides, start=1):
            content.units += 1
            try:
                self._slide(content, n, slide)
            except Exception as exc:  # python-pptx raises what the broken XML gives it
                raise ReadError(f"{path}: slide={n}: cannot read: {exc}") from exc
        if not content.units:
            raise ReadError(f"{path}: the deck has no slides")
        return content

    def _slide(self, content: FileContent, n: int, slide: Any) -> None:
        title = slide.shapes.title.text_frame.text.strip() if slide.shapes.title else ""
        para = table = 0
        for shape in slide.shapes:
            if shape.has_table:
                table += 1
                rows = [[c.text.strip() for c in row.cells] for row in shape.table.rows]
                content.tables.append(Table(f"slide={n},table={table}", rows, title))
            elif shape.has_text_frame:
                for p in shape.text_frame.paragraphs:
                    text = "".join(r.text for r in p.runs).strip()
                    if text:
                        para += 1
                        content.blocks.append(TextBlock(f"slide={n},para={para}", text, title))
