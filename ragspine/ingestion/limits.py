"""What one file may cost to read, checked before it is parsed.

A file dropped in an inbox is input from anyone: a 394 KB workbook can hold 400 MB of XML (a
decompression bomb), a PDF thousands of pages, a page a parser loop. Each limit is refused with a
``ReadError`` naming the file, the figure and the flag that raises it:

    size         --max-file-mb       RAGSPINE_MAX_FILE_MB       100 MB on disk
    pages        --max-pages         RAGSPINE_MAX_PAGES         2000 PDF pages, slides or sheets
    inflated     --max-unzipped-mb   RAGSPINE_MAX_UNZIPPED_MB   256 MB, all entries of a zip
    ratio        --max-ratio         RAGSPINE_MAX_RATIO         200x, any zip entry over 1 MiB
    wall time    --max-seconds       RAGSPINE_MAX_SECONDS       300 s to read one file

XLSX, DOCX and PPTX are zip files: their entries' declared sizes are read from the zip's
directory (``zipfile.infolist``) before anything is inflated; a bomb is refused on its directory.
A zip that declares less than it holds gains nothing: Python's zipfile, which openpyxl,
python-docx and python-pptx read through, stops at the declared size and fails the entry's CRC.
The wall time is enforced by reading in a child process that is killed at the deadline
(``ragspine.ingestion.isolated``).
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ragspine.errors import ReadError

MB = 1 << 20
# zip-based suffixes, and what the readers call a file of each (the same words when it is broken)
ZIP_KINDS = {
    ".xlsx": "XLSX workbook",
    ".xlsm": "XLSX workbook",
    ".docx": "DOCX document",
    ".pptx": "PPTX deck",
}
RATIO_FLOOR = 1 * MB  # a small entry may compress any amount (a run of spaces): no ratio check
MAX_ZIP_ENTRIES = 10_000  # a directory of a million entries is its own bomb
# what counts as a page inside a zip-based file: a deck's slides, a workbook's sheets
_ZIP_PAGES = re.compile(r"^(?:ppt/slides/slide\d+\.xml|xl/worksheets/sheet\d+\.xml)$")


@dataclass(frozen=True)
class FileLimits:
    """Per-file limits; the defaults are the documented ones (see the module docstring)."""

    max_bytes: int = 100 * MB
    max_pages: int = 2000
    max_unzipped: int = 256 * MB
    max_ratio: float = 200.0
    max_seconds: float = 300.0

    def check(self, path: Path) -> None:
        """Refuse a file over a limit that can be seen without parsing it: its size on disk
        and, for a zip-based file, its entries' declared sizes, ratios and page count."""
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise ReadError(f"{path}: cannot read: {exc.strerror or exc}") from None
        if size > self.max_bytes:
            raise ReadError(
                f"{path}: refused: {_mb(size)} on disk, over the limit of "
                f"{_mb(self.max_bytes)} (--max-file-mb)"
            )
        if path.suffix.lower() in ZIP_KINDS:
            self._check_zip(path)

    def check_read(self, path: Path, units: int, seconds: float) -> None:
        """Refuse a file already read (the cache's entry) as its reading would have: over the
        pages only opening a PDF shows, or over the seconds the reading took. The words are
        the reader's and ``isolated.read_file``'s own, so a refusal reads the same either way."""
        if units > self.max_pages:
            raise ReadError(
                f"{path}: refused: {units} pages, over the limit of {self.max_pages} (--max-pages)"
            )
        if seconds > self.max_seconds:
            raise ReadError(f"{path}: refused: not read in {self.max_seconds:g} s (--max-seconds)")

    def _check_zip(self, path: Path) -> None:
        try:
            with zipfile.ZipFile(path) as zf:
                entries = zf.infolist()
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            kind = ZIP_KINDS[path.suffix.lower()]
            raise ReadError(f"{path}: not a readable {kind}: {exc}") from None
        if len(entries) > MAX_ZIP_ENTRIES:
            raise ReadError(f"{path}: refused: {len(entries)} zip entries (over {MAX_ZIP_ENTRIES})")
        inflated = sum(e.file_size for e in entries)
        if inflated > self.max_unzipped:
            raise ReadError(
                f"{path}: refused: its zip entries inflate to {_mb(inflated)}, over the limit of "
                f"{_mb(self.max_unzipped)} (--max-unzipped-mb)"
            )
        for e in entries:
            ratio = e.file_size / max(e.compress_size, 1)
            if e.file_size > RATIO_FLOOR and ratio > self.max_ratio:
                raise ReadError(
                    f"{path}: refused: {e.filename} inflates {ratio:.0f} times "
                    f"({_mb(e.compress_size)} to {_mb(e.file_size)}), over the limit of "
                    f"{self.max_ratio:g} (--max-ratio): a decompression bomb?"
                )
        pages = sum(1 for e in entries if _ZIP_PAGES.match(e.filename))
        if pages > self.max_pages:
            raise ReadError(
                f"{path}: refused: {pages} slides or sheets, over the limit of {self.max_pages} "
                "(--max-pages)"
            )


def _mb(n: int) -> str:
    if n < MB:
        return f"{n / 1024:.0f} KB"
    return f"{n / MB:.1f} MB" if n < 10 * MB else f"{n // MB} MB"
