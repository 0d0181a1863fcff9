"""The ingestion worker: files dropped in an inbox become passages and facts.

Each file is ingested in its own transaction, then moved to ``done/``, or to ``failed/`` with a
``NAME.error.txt`` beside it saying why in one line: whatever goes wrong reading it (a corrupt or
hostile file, a parser's own exception, a limit of ``ingestion.limits``) is that file's failure,
never the worker's, so no file stays in the inbox to fail every round. A symbolic link in the
inbox is refused unread (moved to ``failed/``): a link to a secrets file must not become passages.

What is not the file's fault stops the round instead, and leaves the file in the inbox for the
next one: a store or the index that cannot be written (disk full, permission denied) is a
``StoreError`` in one line. One worker per inbox: ``inbox_lock`` holds a lock on the inbox folder.
Killed at any point, it resumes without duplicates: a file ingested but not yet moved is found
unchanged by its content hash the next time, and moved.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ragspine.errors import RagSpineError, StoreError
from ragspine.ingestion.isolated import one_line
from ragspine.ingestion.limits import FileLimits
from ragspine.ingestion.pipeline import FileReport, Progress, ingest_file, rebuild_index
from ragspine.interrupts import StopRequest
from ragspine.profile import DomainProfile
from ragspine.readers import BINARY_SUFFIXES
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.documents import SUPPORTED_SUFFIXES
from ragspine.storage.fact_store import FactStore

DONE, FAILED = "done", "failed"
SYMLINK = "a symbolic link: refused unread (copy the file itself into the inbox)"
HARDLINK = "a hard link (the file has another name elsewhere): refused unread (copy it in)"


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
    limits: FileLimits = field(default_factory=FileLimits)
    on_error: Callable[[RagSpineError], None] | None = None  # a round that stopped (run_forever)

    def pending(self) -> list[Path]:
        """Supported files and symbolic links waiting in the inbox (not in done/ or failed/),
        oldest first; a link is listed to be refused, never followed."""
        suffixes = (*SUPPORTED_SUFFIXES, *BINARY_SUFFIXES)
        fresh = time.time() - self.settle
        files = []
        for p in self.inbox.iterdir():
            if p.name.startswith(".") or p.suffix.lower() not in suffixes:
                continue
            try:
                st = p.lstat()
            except FileNotFoundError:  # gone since it was listed
                continue
            if p.is_symlink() or (p.is_file() and (self.settle <= 0 or st.st_mtime <= fresh)):
                files.append((st.st_mtime, p.name, p))
        return [p for *_, p in sorted(files)]

    def run_once(self, stop: StopRequest | None = None) -> Batch:
        batch = Batch()
        for path in self.pending():
            if stop is not None and stop.is_set():
                break
            try:
                report = self._ingest(path)
            except _FileFailed as failure:
                if not os.path.lexists(path):
                    continue  # taken away while it was read: nothing here to move
                moved = _move(path, self.inbox / FAILED)
                try:
                    sidecar = moved.with_name(moved.name + ".error.txt")
                    sidecar.write_text(failure.why + "\n", "utf-8")
                except OSError as exc:
                    raise StoreError(f"{moved}: why it failed not written: {exc}") from exc
                batch.failed.append((moved, failure.why))
                if self.on_failed:
                    self.on_failed(moved, failure.why)
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

    def _ingest(self, path: Path) -> FileReport:
        """One file; ``_FileFailed`` when the file is at fault, ``StoreError`` when the stores
        could not be written (the file is not to blame and stays for the next round)."""
        if path.is_symlink() or path.resolve().parent != self.inbox.resolve():
            raise _FileFailed(f"{path}: {SYMLINK}")
        if path.lstat().st_nlink > 1:  # another name of a file that may lie outside the inbox
            raise _FileFailed(f"{path}: {HARDLINK}")
        try:
            return ingest_file(
                path,
                chunks=self.chunks,
                facts=self.facts,
                profile=self.profile,
                sensitivity=self.sensitivity,
                progress=self.progress,
                limits=self.limits,
            )
        except (OSError, sqlite3.OperationalError) as exc:
            raise StoreError(f"{path.name} not stored, it stays in the inbox: {exc}") from exc
        except StoreError as exc:
            if isinstance(exc.__cause__, sqlite3.OperationalError | OSError):
                raise StoreError(f"{path.name} stays in the inbox: {exc}") from exc
            raise _FileFailed(str(exc)) from exc
        except Exception as exc:  # the file's content tripped something: its failure alone
            raise _FileFailed(one_line(path, exc)) from exc

    def run_forever(self, interval: float, stop: StopRequest) -> None:
        """A look at the inbox every ``interval`` seconds until ``stop`` is set; a file being
        ingested when it is set is finished first (each file is its own transaction). A round
        stopped by the disk or the stores is reported to ``on_error`` and tried again."""
        while not stop.is_set():
            try:
                self.run_once(stop)
            except RagSpineError as exc:
                if self.on_error is None:
                    raise
                self.on_error(exc)
            stop.sleep(interval)


class _FileFailed(Exception):
    """The file, not the worker, is at fault; ``why`` is the one line its sidecar says."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@contextmanager
def inbox_lock(inbox: Path) -> Iterator[None]:
    """One worker per inbox: an exclusive flock on the inbox folder itself (no file left in
    it), or a StoreError at once. Two workers moving the same files would race (one failed with
    FileNotFoundError); the kernel drops the lock when its holder dies."""
    if sys.platform == "win32":  # no flock: run one worker per inbox
        yield
        return
    import fcntl

    fd = os.open(inbox, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreError(
                f"{inbox}: another worker is running on this inbox; one at a time"
            ) from None
        yield
    finally:
        os.close(fd)


def _move(path: Path, folder: Path) -> Path:
    """Into ``folder``, never over an earlier file of the same name."""
    target = folder / path.name
    n = 1
    try:
        folder.mkdir(exist_ok=True)
        while os.path.lexists(target):
            target = folder / f"{path.stem}.{n}{path.suffix}"
            n += 1
        shutil.move(str(path), target)
    except OSError as exc:  # the inbox itself is read-only or full: the file stays where it is
        raise StoreError(f"{path}: not moved to {folder.name}/: {exc}") from exc
    return target
