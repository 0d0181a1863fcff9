"""Files that may hold restricted text, answers or key hashes are created readable by their owner
only: files 0600, directories 0700.

Each store calls these where it *creates* a file, never on an existing one (a mode the operator set
on purpose is kept). The mode is given to ``os.open``/``mkdir`` themselves, not set afterwards, so
no other user can open the file in between; the process umask is never touched (it is shared by
every thread of a server). SQLite creates its journal with its database's mode, so a database
created here keeps its journal private too.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO, Any

FILE_MODE = 0o600
DIR_MODE = 0o700


def private_dirs(path: Path) -> None:
    """``path`` and each missing parent, created 0700 (``mkdir -p`` would give parents the
    default mode); directories that exist are left as they are."""
    missing: list[Path] = []
    at = Path(path)
    while not at.exists() and at != at.parent:
        missing.append(at)
        at = at.parent
    for directory in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made meanwhile by another process
            directory.mkdir(mode=DIR_MODE)


def create_private(path: Path) -> bool:
    """An empty ``path`` created 0600 (its missing directories 0700); False if it existed."""
    private_dirs(Path(path).parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def open_private(path: Path, mode: str = "wb", **kw: Any) -> IO[Any]:
    """``path`` opened for writing (truncated), created 0600 if absent; a file left over from
    an earlier run (a temporary copy) is made 0600 before anything is written to it."""
    if not mode.startswith("w"):
        raise ValueError(f"open_private writes: mode {mode!r}")
    private_dirs(Path(path).parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
        return os.fdopen(fd, mode, **kw)
    except BaseException:
        os.close(fd)
        raise
