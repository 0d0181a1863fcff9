"""Reading one file in a child process, killed at its deadline.

A parser can loop, inflate or crash on a hostile file (an lxml entity error, a page that takes an
hour, a segfault in a C extension); none of that may reach the process that stores files. The
child (forked, so nothing is imported twice) reads the file and sends back its content, its pages
read as they go, or one line saying why it could not; the parent waits until ``max_seconds`` and
then kills it (SIGKILL: a loop in C cannot be asked to stop). The child ignores SIGINT and SIGTERM,
which a terminal or a service manager sends to the whole process group: stopping is the parent's
decision (it finishes the file under way), and an alarm of its own ends a child whose parent died.
Where ``fork`` does not exist (Windows) the file is read in this process, without a wall-time limit.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ragspine.errors import RagSpineError, ReadError
from ragspine.ingestion.cache import DocumentCache
from ragspine.ingestion.limits import FileLimits
from ragspine.readers import FileContent, PdfReader, Reader

Pages = Callable[[int, int], None]  # (done, total) pages of this file


def read_file(
    path: Path,
    reader: Reader,
    limits: FileLimits,
    pages: Pages | None = None,
    cache: DocumentCache | None = None,
) -> FileContent:
    """The file's content, read under ``limits``; any failure is a ReadError in one line.

    With a ``cache``, a file whose bytes were read before is taken from it, after the same
    limits (``FileLimits.check`` before, ``check_read`` on what the reading saw); a file read
    here is kept in it. The reading itself stays in the child; the parent writes the entry."""
    limits.check(path)
    held = cache.lookup(path, reader) if cache is not None else None
    if cache is not None and held is not None and held.found is not None:
        limits.check_read(path, held.found.units, held.found.seconds)
        cache.taken(path)
        return held.found.content(path)
    started = time.monotonic()
    content = _read_isolated(path, reader, limits, pages)
    if cache is not None and held is not None:
        cache.store(held, path, reader, content, time.monotonic() - started)
    return content


def _read_isolated(
    path: Path, reader: Reader, limits: FileLimits, pages: Pages | None
) -> FileContent:
    if sys.platform == "win32" or "fork" not in multiprocessing.get_all_start_methods():
        return read_here(path, reader, pages, max_pages=limits.max_pages)
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(path, reader, limits, child), daemon=True)
    proc.start()
    child.close()
    deadline = time.monotonic() + limits.max_seconds
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ReadError(
                    f"{path}: refused: not read in {limits.max_seconds:g} s (--max-seconds)"
                )
            if not parent.poll(min(left, 0.5)):
                continue
            try:
                kind, *payload = parent.recv()
            except EOFError:  # it died without a word: a crash in C, the OOM killer
                proc.join()
                raise ReadError(f"{path}: the reader died ({_how(proc.exitcode)})") from None
            if kind == "pages" and pages is not None:
                pages(*payload)
            elif kind == "error":
                raise ReadError(payload[0])
            elif kind == "done":
                content: FileContent = payload[0]
                return content
    finally:  # a deadline, a second Ctrl-C, anything: the child never outlives the read
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()


def _child(path: Path, reader: Reader, limits: FileLimits, conn: Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.alarm(min(math.ceil(limits.max_seconds) + 5, 2**31 - 1))  # if the parent dies
    try:
        sent: Pages = lambda done, total: conn.send(("pages", done, total))  # noqa: E731
        content = read_here(path, reader, sent, max_pages=limits.max_pages)
        message: tuple[Any, ...] = ("done", content)
    except BaseException as exc:  # anything a parser raises is this file's failure, in one line
        message = ("error", one_line(path, exc))
    conn.send(message)
    conn.close()
    os._exit(0)  # no atexit handlers, no flushing of the parent's buffers a second time


def read_here(
    path: Path, reader: Reader, pages: Pages | None = None, *, max_pages: int | None = None
) -> FileContent:
    """The file read in this process: what a parser raises is a ReadError in one line."""
    if isinstance(reader, PdfReader):
        reader = PdfReader(pages, max_pages=max_pages)
    try:
        return reader.read(path)
    except RagSpineError:
        raise
    except FileNotFoundError:
        raise ReadError(f"{path}: no such file") from None
    except Exception as exc:
        raise ReadError(one_line(path, exc)) from None


def one_line(path: Path, exc: BaseException) -> str:
    """Why a file could not be read, in one line: our own message, or the parser's kind and
    the first line of what it said (never a traceback)."""
    if isinstance(exc, RagSpineError):
        text = str(exc)
    else:
        said = str(exc).strip().splitlines()
        text = f"{path}: cannot read: {type(exc).__name__}" + (f": {said[0]}" if said else "")
    return " ".join(text.split())[:500]


def _how(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"
