"""The ingestion worker: files dropped in an inbox become passages and facts.

Each file is ingested in its own transaction, then moved to ``done/`` (or to ``failed/`` with a
``.error.txt`` beside it saying why in one line). Killed at any point, it resumes without
duplicates: a file ingested but not yet moved is found unchanged by its content hash the next
time, and moved.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ragspine.errors import RagSpineError
from ragspine.ingestion.pipeline import FileReport, Progress, ingest_file, rebuild_index
from ragspine.interrupts import StopRequest
from ragspine.profile import DomainProfile
from ragspine.readers import BINARY_SUFFIXES
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.documents import SUPPORTED_SUFFIXES
from ragspine.storage.fact_store import FactStore

DONE, FAILED = "done", "failed"


@dataclass
class Batch:
    done: list[FileReport] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)


@dataclass
class Worker:
    inbox: Path
    chunks: ChunkStore
    facts: FactStore
    profile: DomainProfile
    sensitivity: str | None = None
    progress: Progress | None = None
    on_done: Callable[[FileReport], None] | None = None
    on_failed: Callable[[Path, str], None] | None = None
    # a file changed less than this many seconds ago may still be being copied in: next round
    settle: float = 0.0

    def pending(self) -> list[Path]:
        """Supported files waiting in the inbox (not in done/ or failed/), oldest first."""
        suffixes = (*SUPPORTED_SUFFIXES, *BINARY_SUFFIXES)
        fresh = time.time() - self.settle
        files = [
            p
            for p in self.inbox.iterdir()
            if p.is_file()
            and p.suffix.lower() in suffixes
            and not p.name.startswith(".")
            and (self.settle <= 0 or p.stat().st_mtime <= fresh)
        ]
        return sorted(files, key=lambda p: (p.stat().st_mtime, p.name))

    def run_once(self, stop: StopRequest | None = None) -> Batch:
        batch = Batch()
        for path in self.pending():
            if stop is not None and stop.is_set():
                break
            try:
                report = ingest_file(
                    path,
                    chunks=self.chunks,
                    facts=self.facts,
                    profile=self.profile,
                    sensitivity=self.sensitivity,
                    progress=self.progress,
                )
            except RagSpineError as exc:
                why = str(exc)
                moved = _move(path, self.inbox / FAILED)
                moved.with_name(moved.name + ".error.txt").write_text(why + "\n", "utf-8")
                batch.failed.append((moved, why))
                if self.on_failed:
                    self.on_failed(moved, why)
                continue
            _move(path, self.inbox / DONE)
            batch.done.append(report)
            if self.on_done:
                self.on_done(report)
        # Every round, not only after new files: a worker stopped between storing files and
        # indexing them leaves the index behind, and the next round catches it up (a current
        # index costs one manifest read).
        rebuild_index(self.chunks)
        return batch

    def run_forever(self, interval: float, stop: StopRequest) -> None:
        """A look at the inbox every ``interval`` seconds until ``stop`` is set; a file being
        ingested when it is set is finished first (each file is its own transaction)."""
        while not stop.is_set():
            self.run_once(stop)
            stop.sleep(interval)


def _move(path: Path, folder: Path) -> Path:
    """Into ``folder``, never over an earlier file of the same name."""
    folder.mkdir(exist_ok=True)
    target = folder / path.name
    n = 1
    while target.exists():
        target = folder / f"{path.stem}.{n}{path.suffix}"
        n += 1
    shutil.move(str(path), target)
    return target
