"""Markdown and plain text behind the same reader interface as PDF, XLSX, PPTX and DOCX, and the
one ``reader_for`` that picks a file's reader among them all.

A text file's front matter (title, sensitivity, entity, period …) and its heading-aware passages
(``section=2.1,para=3``) come from the narrative channel's own loader and chunker, so a text file
ingested here and one built into the demo corpus are cut the same way.
"""

from __future__ import annotations

from pathlib import Path

from ragspine.readers import READERS, FileContent, Reader, TextBlock
from ragspine.retrieval.chunking.chunker import chunk_text
from ragspine.retrieval.documents import SUPPORTED_SUFFIXES, load_document


class TextReader:
    suffixes: tuple[str, ...] = SUPPORTED_SUFFIXES

    def read(self, path: Path) -> FileContent:
        doc = load_document(path)  # IngestError names the file and the field
        drafts = chunk_text(doc.body, markdown=doc.markdown)
        blocks = [TextBlock(d.locator, d.text, d.heading) for d in drafts]
        meta = doc.meta.model_dump(exclude_defaults=True, mode="json")
        return FileContent(path, blocks=blocks, units=1, meta=meta)


_ALL: tuple[Reader, ...] = (TextReader(), *READERS)


def reader_for(path: Path) -> Reader | None:
    """The reader for a file's suffix: text here, the binary formats in ``ragspine.readers``."""
    suffix = path.suffix.lower()
    return next((r for r in _ALL if suffix in r.suffixes), None)
