"""The ingestion worker: files dropped in an inbox become passages and facts.

Each file is ingested in its own transaction, then moved to ``done/`` (with ``NAME.report.json``
beside it when it left values unstored or conflicts: ``ingestion.report``), or to ``failed/`` with a
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
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ragspine.errors import RagSpineError, StoreError, StoreUnavailableError
from ragspine.ingestion.inbox import WAITING, InboxScan, Notice
from ragspine.ingestion.isolated import one_line
from ragspine.ingestion.limits import FileLimits
from ragspine.ingestion.pipeline import FileReport, Progress, ingest_file, rebuild_index
from ragspine.interrupts import StopRequest
from ragspine.profile import DomainProfile
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.storage.fact_store import FactStore

DONE, FAILED = "done", "failed"
SYMLINK = "a symbolic link: refused unread (copy the file itself into the inbox)"
HARDLINK = "a hard link (the file has another name elsewhere): refused unread (copy it in)"


@dataclass
class Batch:
    done: list[FileReport] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)
    waiting: list[Path] = field(default_factory=list)  # still changing: left for the next look


@dataclass
class Worker:
    inbox: Path
    chunks: ChunkStore
    facts: FactStore
    profile: DomainProfile
    sensitivity: str | None = None
    progress: Progress | None = None
    # a file stored, and its NAME.report.json in done/ when it left something unstored
    on_done: Callable[[FileReport, Path | None], None] | None = None
    on_failed: Callable[[Path, str], None] | None = None
    # seconds a file's size and time must stand still before it is read (``ingestion.inbox``)
    settle: float = 0.0
    limits: FileLimits = field(default_factory=FileLimits)
    on_error: Callable[[RagSpineError], None] | None = None  # a round that stopped (run_forever)
    on_notice: Callable[[Notice], None] | None = None  # a file skipped or waiting, said once
    _scan: InboxScan | None = None

    def look(self) -> tuple[list[Path], list[Path]]:
        """The files ready (oldest first, symbolic links included, to be refused unread) and
        those still changing; what is new to say about the inbox goes to ``on_notice``."""
        look = self._scanner().look(self.inbox)
        for notice in look.notices:
            if self.on_notice:
                self.on_notice(notice)
        return look.ready, look.waiting

    def first_look(self) -> None:
        """Note every file's size and time, saying only what is skipped: ``--once`` looks, waits
        ``settle`` seconds, then takes what stood still (``run_once``)."""
        scan = self._scanner()
        for notice in scan.look(self.inbox).notices:
            if self.on_notice and notice.kind != WAITING:
                self.on_notice(notice)
        scan.forget_waiting()

    def _scanner(self) -> InboxScan:
        if self._scan is None or self._scan.settle != self.settle:
            self._scan = InboxScan(self.settle)
        return self._scan

    def pending(self) -> list[Path]:
        """The files ready to be ingested now (``look``)."""
        return self.look()[0]

    def run_once(self, stop: StopRequest | None = None) -> Batch:
        batch = Batch()
        ready, batch.waiting = self.look()
        for path in ready:
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
            moved = _move(path, self.inbox / DONE)
            batch.done.append(report)
            record = _record(moved, report)
            if self.on_done:
                self.on_done(report, record)
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
        except (OSError, StoreUnavailableError) as exc:
            raise StoreError(f"{path.name} not stored, it stays in the inbox: {exc}") from exc
        except StoreError as exc:
            if isinstance(exc.__cause__, StoreUnavailableError | OSError):
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


def _record(moved: Path, report: FileReport) -> Path | None:
    """``NAME.report.json`` beside a file in done/ that left values unstored or conflicts: the
    ``ingest --report`` record of that one file, every item with its locator."""
    if not (report.unmapped or report.conflicts):
        return None
    from ragspine.ingestion.report import write_report

    target = moved.with_name(moved.name + ".report.json")
    try:
        write_report(target, [report], complete=True)
    except OSError as exc:
        raise StoreError(f"{moved}: its report not written: {exc}") from exc
    return target


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
