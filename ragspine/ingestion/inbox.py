"""One look at the worker's inbox: which files are ready, which wait, what is skipped, said once.

A file is ready once this worker has seen its size and modification time stand still for
``settle`` seconds: from the first look that saw them as they are now. A copy that pauses (a
slow share, a large file written in parts) is not read half-written, however late the worker
first looks at it; a file already there when the worker starts waits ``settle`` seconds too (a
modification time alone cannot say a copy paused). A file still settling is said once
("waiting"), and so is one that is never ingested: a type no reader takes (a .png) or a folder
other than done/ and failed/, once per name, never every look.

Names starting with a dot are left alone unsaid: copy tools write their partial files so
(rsync's .name.XXXXXX). A symbolic link is listed as soon as it is seen, to be refused unread.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ragspine.readers import BINARY_SUFFIXES
from ragspine.retrieval.documents import SUPPORTED_SUFFIXES

SUFFIXES = (*SUPPORTED_SUFFIXES, *BINARY_SUFFIXES)
OWN_FOLDERS = ("done", "failed")
SKIPPED, WAITING = "skipped", "waiting"


@dataclass(frozen=True)
class Notice:
    """Something said once about a file in the inbox: ``kind`` is SKIPPED or WAITING."""

    kind: str
    path: Path
    why: str


@dataclass
class Look:
    ready: list[Path] = field(default_factory=list)  # oldest first
    waiting: list[Path] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)  # new at this look


@dataclass
class InboxScan:
    """Remembers, between looks, each file's size and time and what was said of it."""

    settle: float = 0.0
    clock: Callable[[], float] = time.time
    _states: dict[str, tuple[int, int, float]] = field(default_factory=dict)  # size, ns, since
    _said: dict[str, str] = field(default_factory=dict)  # name → the kind said

    def look(self, inbox: Path) -> Look:
        now = self.clock()
        out = Look()
        present: set[str] = set()
        ready: list[tuple[int, str, Path]] = []
        for path in inbox.iterdir():
            name = path.name
            if name.startswith(".") or (name in OWN_FOLDERS and path.is_dir()):
                continue
            present.add(name)
            try:
                st = path.lstat()
            except FileNotFoundError:  # gone since it was listed
                continue
            if path.is_symlink():
                ready.append((st.st_mtime_ns, name, path))
                continue
            why = _skipped(path)
            if why is not None:
                self._say(out, SKIPPED, path, why)
                continue
            since = self._since(name, (st.st_size, st.st_mtime_ns), now)
            if now - since >= self.settle:
                ready.append((st.st_mtime_ns, name, path))
                self._said.pop(name, None)
                continue
            out.waiting.append(path)
            why = f"still changing: ingested once unchanged for {self.settle:g} s"
            self._say(out, WAITING, path, why)
        for gone in set(self._states) - present:  # a file of the same name later is another
            del self._states[gone]
        for gone in set(self._said) - present:
            del self._said[gone]
        out.ready = [p for *_, p in sorted(ready)]
        return out

    def _since(self, name: str, state: tuple[int, int], now: float) -> float:
        """The first look that saw the file as it is now."""
        known = self._states.get(name)
        if known is not None and known[:2] == state:
            return known[2]
        self._states[name] = (*state, now)
        return now

    def forget_waiting(self) -> None:
        """A first look's "waiting" left unsaid: said by the next look if still so."""
        self._said = {name: kind for name, kind in self._said.items() if kind != WAITING}

    def _say(self, out: Look, kind: str, path: Path, why: str) -> None:
        if self._said.get(path.name) != kind:
            self._said[path.name] = kind
            out.notices.append(Notice(kind, path, why))


def _skipped(path: Path) -> str | None:
    """Why a file is never ingested from here, or None."""
    if path.is_dir():
        return "a folder: the worker takes only the files at the inbox's top level"
    if path.suffix.lower() not in SUFFIXES:
        what = path.suffix.lower() or "a name without a suffix"
        return f"{what} is not a type ingest reads (it reads {', '.join(SUFFIXES)}); left in place"
    return None
