"""Runs kept, the latest a link: ``eval run --name NAME --latest LINK``.

Each run gets a folder of its own, ``reports/runs/<UTC start time>-NAME``, that no later run
reuses or deletes; LINK (``reports/latest``) is a symbolic link moved to the newest one. So a
before/after comparison is two folders already on disk, and whatever reads LINK (``eval diff``,
``gate``, ``bless``) reads the newest run. The link is replaced atomically: a new link is made
beside it and renamed over it, so a reader sees the old run or the new, never no link. A real
folder found where the link goes (a run written before runs were kept) is moved into the runs
folder, never deleted. Pruning old runs is the user's call (``rm -r reports/runs/<folder>``).
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

from ragspine.errors import RecordError

RUNS = Path("reports/runs")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def check_name(name: str) -> str:
    """A run's name goes into a folder name: letters, digits, ``.``, ``_`` and ``-`` only."""
    if not _NAME.fullmatch(name):
        raise RecordError(f"--name {name!r}: use letters, digits, . _ - (a folder name)")
    return name


def check_link(link: Path) -> None:
    """Before a run: LINK must be free, a link, or a folder (moved aside later); never a file,
    which moving the link would destroy."""
    if link.exists() and not link.is_symlink() and not link.is_dir():
        raise RecordError(f"--latest {link}: a file is there, not a link; move it or name another")


def new_run_folder(name: str, *, root: Path = RUNS, now: datetime | None = None) -> Path:
    """``root/<UTC time>-name``, not yet made; ``-2``, ``-3``… when a run of that name already
    started in the same second (the folder is the run's own: never shared)."""
    stamp = f"{(now or datetime.now(UTC)):%Y%m%dT%H%M%SZ}-{check_name(name)}"
    folder, n = root / stamp, 1
    while folder.exists() or folder.is_symlink():
        n += 1
        folder = root / f"{stamp}-{n}"
    return folder


def point_latest(link: Path, folder: Path) -> str | None:
    """Point ``link`` at ``folder`` (a relative target, so the reports folder can move whole),
    replacing it atomically. Returns a note when a real folder at ``link`` was moved aside."""
    check_link(link)
    moved = None
    if link.is_dir() and not link.is_symlink():
        aside = new_run_folder(
            link.name,
            root=folder.parent,
            now=datetime.fromtimestamp(link.stat().st_mtime, UTC),
        )
        link.rename(aside)
        moved = f"{link} was a folder, not a link: moved to {aside} (kept, not deleted)"
    target = os.path.relpath(os.path.abspath(folder), os.path.abspath(link.parent))
    temporary = link.with_name(f".{link.name}.{os.getpid()}.tmp")
    try:
        link.parent.mkdir(parents=True, exist_ok=True)
        temporary.unlink(missing_ok=True)
        os.symlink(target, temporary, target_is_directory=True)
        os.replace(temporary, link)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise RecordError(f"--latest {link}: cannot point it at {folder}: {exc.strerror}") from exc
    return moved
