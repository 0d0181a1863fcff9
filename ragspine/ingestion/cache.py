"""What a reader made of a file, kept so the same bytes are never read twice.

`profile draft`, `profile check` and `ingest` each read a report (a 156-page PDF: about 40 s);
the second of them finds the first one's reading here. An entry is keyed by the file's content
(sha256 of its bytes), never its name or date, and by the reader that read it: its name, its
``version`` constant (bumped when its output changes), the installed versions of the libraries
it reads through, and a digest of ``ragspine/readers``' own source (an edit nobody bumped for is
a new key too). No reading limit changes what is read (each one refuses a file, none cuts it
short), so none is in the key; the limits that only a read can see, the PDF's page count and
the seconds the read took, are kept in the entry and checked again before it is used
(``FileLimits.check_read``): a file refused by a limit is refused whether it is cached or not.

Where: ``RAGSPINE_CACHE``, else ``$XDG_CACHE_HOME/ragspine``, else the platform's cache folder
(``~/.cache/ragspine``, ``~/Library/Caches/ragspine``, ``%LOCALAPPDATA%\\ragspine\\Cache``),
made ``0700``; a folder another user owns or can write to is not used (an entry planted there
would be read as the file's content). Each entry is a gzipped JSON record (``reads/KEY.json.gz``,
never a pickle), written to a temporary file and renamed over, so a reader never sees half of
one; it is stored only if the file's bytes are the same after the read as before. An entry
that cannot be read or does not validate is ignored with one warning line, and the file read
again. The folder is kept under ``RAGSPINE_CACHE_MB`` (500 MB unless set; 0 turns the cache
off), the entries used longest ago removed first. Only the binary formats are cached (readers
with a ``version``); a text file is read faster than an entry is loaded.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import math
import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragspine.errors import ConfigError, ReadError
from ragspine.readers import FileContent, Reader, Table, TextBlock

FORMAT: Literal[2] = 2  # the record's own layout; another value is not read (2: the cover lines)
DEFAULT_MB = 500
ENV_FOLDER, ENV_MB = "RAGSPINE_CACHE", "RAGSPINE_CACHE_MB"
MB = 1 << 20
_ENTRY = ".json.gz"
_READERS_SOURCE = Path(__file__).parents[1] / "readers"

Say = Callable[[str], None]


class CachedRead(BaseModel):
    """One file as its reader gave it back; validated field by field when loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal[2]
    key: str
    reader: str
    units: int = Field(ge=0)
    seconds: float = Field(ge=0)
    blocks: list[tuple[str, str, str]]  # locator, text, heading
    tables: list[tuple[str, list[list[str]], str]]  # locator, rows, caption
    meta: dict[str, Any] = Field(default_factory=dict)
    cover: list[str] = Field(default_factory=list)  # title lines set aside: the report's period

    def content(self, path: Path) -> FileContent:
        return FileContent(
            path,
            blocks=[TextBlock(*b) for b in self.blocks],
            tables=[Table(*t) for t in self.tables],
            units=self.units,
            meta=dict(self.meta),
            cover=list(self.cover),
        )


@dataclass
class Lookup:
    """A file's key, taken before it is read, and what the cache held for it."""

    key: str
    digest: str
    found: CachedRead | None = None


def default_folder(env: Mapping[str, str] = os.environ) -> Path:
    """``RAGSPINE_CACHE``, else the XDG cache folder, else the platform's."""
    if env.get(ENV_FOLDER):
        return Path(env[ENV_FOLDER]).expanduser()
    xdg = env.get("XDG_CACHE_HOME", "")
    if xdg and Path(xdg).is_absolute():  # the XDG spec: a relative value is ignored
        return Path(xdg) / "ragspine"
    if sys.platform == "win32":
        local = env.get("LOCALAPPDATA")
        return (Path(local) if local else Path.home() / "AppData" / "Local") / "ragspine" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "ragspine"
    return Path.home() / ".cache" / "ragspine"


def limit_from(env: Mapping[str, str] = os.environ) -> int:
    """The size the folder is kept under, in bytes, from ``RAGSPINE_CACHE_MB``."""
    raw = env.get(ENV_MB, "").strip()
    if not raw:
        return DEFAULT_MB * MB
    try:
        mb = float(raw)
    except ValueError:
        mb = -1.0
    if not 0 <= mb < math.inf:  # NaN and inf too
        raise ConfigError(f"{ENV_MB}={raw!r}: not a size in MB (0 turns the cache off)")
    return int(mb * MB)


def file_digest(path: Path) -> str:
    """sha256 of the file's bytes; an unreadable file is a ReadError naming it."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:  # the file's own fault (unreadable, gone), never the stores'
        raise ReadError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return digest.hexdigest()


def reader_id(reader: Reader) -> str | None:
    """What, besides the bytes, decides a reader's output (None: a reader never cached)."""
    version = getattr(reader, "version", None)
    if version is None:
        return None
    libraries = getattr(reader, "libraries", ())
    return f"{type(reader).__name__}/{version}/{_libraries(tuple(libraries))}/{_source()}"


@cache
def _libraries(names: tuple[str, ...]) -> str:
    found = []
    for name in names:
        try:
            found.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}=?")
    return ",".join(found)


@cache
def _source() -> str:
    digest = hashlib.sha256()
    for path in sorted(_READERS_SOURCE.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


class DocumentCache:
    """The folder of read documents. ``hits`` and ``misses`` count this process's files taken
    from it and read; ``say`` hears each file taken (one line, as the pages read are shown) and
    each warning (an entry that cannot be used, a folder that is not)."""

    def __init__(self, folder: Path, *, max_bytes: int = DEFAULT_MB * MB, say: Say | None = None):
        self.folder = folder
        self.max_bytes = max_bytes
        self.say: Say = say or (lambda line: None)
        self.hits = self.misses = 0
        self._usable: bool | None = None

    @classmethod
    def from_env(cls, say: Say | None = None) -> DocumentCache | None:
        """The cache the environment names, or None when ``RAGSPINE_CACHE_MB`` is 0."""
        limit = limit_from()
        return cls(default_folder(), max_bytes=limit, say=say) if limit else None

    @property
    def entries_folder(self) -> Path:
        return self.folder / "reads"

    def lookup(self, path: Path, reader: Reader) -> Lookup | None:
        """The file's key and its entry if one is held; None for a reader never cached."""
        rid = reader_id(reader)
        if rid is None:
            return None
        digest = file_digest(path)
        key = hashlib.sha256(f"{FORMAT}\n{rid}\n{digest}".encode()).hexdigest()
        return Lookup(key, digest, self._load(key, path) if self._ready() else None)

    def taken(self, path: Path) -> None:
        """The entry found is used for ``path`` (the limits passed): counted, and said."""
        self.hits += 1
        self.say(f"  reading {path.name}: from the cache, not read again")

    def store(
        self, held: Lookup, path: Path, reader: Reader, content: FileContent, seconds: float
    ) -> None:
        """Keep what was read, if the file is still the bytes that were looked up."""
        self.misses += 1
        try:
            same = file_digest(path) == held.digest
        except ReadError:  # gone or unreadable since: what was read is not kept
            same = False
        if not same or not self._ready():
            return
        record = CachedRead(
            format=FORMAT,
            key=held.key,
            reader=type(reader).__name__,
            units=content.units,
            seconds=seconds,
            blocks=[(b.locator, b.text, b.heading) for b in content.blocks],
            tables=[(t.locator, t.rows, t.caption) for t in content.tables],
            meta=content.meta,
            cover=content.cover,
        )
        try:
            data = gzip.compress(record.model_dump_json().encode("utf-8"), mtime=0)
        except (TypeError, ValueError):  # what the file says of itself is not JSON: not kept
            return
        if len(data) > self.max_bytes:
            return
        try:
            self._write(self.entries_folder / f"{held.key}{_ENTRY}", data)
            self._evict()
        except OSError as exc:
            self.say(f"warning: {self.folder}: read documents not cached: {exc.strerror or exc}")
            self._usable = False

    def entries(self) -> list[Path]:
        if not self.entries_folder.is_dir():
            return []
        return [p for p in self.entries_folder.iterdir() if p.name.endswith(_ENTRY)]

    def size(self) -> int:
        return sum(_size(p) for p in self.entries())

    def clear(self) -> tuple[int, int]:
        """Remove every entry (and a write left half-done): how many, and their bytes."""
        removed = freed = 0
        if not self.entries_folder.is_dir():
            return 0, 0
        for p in self.entries_folder.iterdir():
            if p.name.endswith(_ENTRY) or (p.name.startswith(".") and p.name.endswith(".tmp")):
                size = _size(p)
                with contextlib.suppress(FileNotFoundError):
                    p.unlink()
                    removed += p.name.endswith(_ENTRY)
                    freed += size
        return removed, freed

    def _load(self, key: str, path: Path) -> CachedRead | None:
        """The entry for ``key``, or None: none held, or one that cannot be used (said)."""
        entry = self.entries_folder / f"{key}{_ENTRY}"
        try:
            record = _parse(entry.read_bytes(), key)
        except FileNotFoundError:  # none, or evicted by another process just now
            return None
        except OSError as exc:
            why = exc.strerror or str(exc)
        except _Unusable as exc:
            why = str(exc)
        else:
            with contextlib.suppress(OSError):
                os.utime(entry)  # used now: the last to be evicted
            return record
        self.say(f"warning: {entry}: a cache entry that cannot be used ({why}); "
                 f"{path.name} is read again")  # fmt: skip
        return None

    def _ready(self) -> bool:
        """The folder exists (made 0700) and is this user's alone; else the cache is off."""
        if self._usable is None:
            try:
                for folder in (self.folder, self.entries_folder):
                    if not folder.is_dir():
                        folder.mkdir(mode=0o700, parents=True)
                        folder.chmod(0o700)
                    why = _not_private(folder)
                    if why:
                        self.say(f"warning: {folder}: {why}: the cache of read documents is "
                                 f"not used (chmod 700 it, or set {ENV_FOLDER})")  # fmt: skip
                        self._usable = False
                        return False
                self._usable = True
            except OSError as exc:
                self.say(f"warning: {self.folder}: the cache of read documents is not used: "
                         f"{exc.strerror or exc}")  # fmt: skip
                self._usable = False
        return self._usable

    def _write(self, target: Path, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def _evict(self) -> None:
        """The entries used longest ago go first, until the folder is under its size."""
        held = []
        for p in self.entries():
            with contextlib.suppress(FileNotFoundError):
                st = p.stat()
                held.append((st.st_mtime, st.st_size, p))
        total = sum(size for _, size, _ in held)
        for _, size, p in sorted(held):
            if total <= self.max_bytes:
                break
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
            total -= size


class _Unusable(Exception):
    """Why an entry's bytes are not a record for its key."""


def _parse(raw: bytes, key: str) -> CachedRead:
    try:
        record = CachedRead.model_validate_json(gzip.decompress(raw))
    except ValidationError as exc:
        raise _Unusable(f"{exc.error_count()} fields not valid") from None
    except (OSError, EOFError, ValueError) as exc:  # not gzip, cut short, not JSON
        raise _Unusable(str(exc) or type(exc).__name__) from None
    if record.key != key:
        raise _Unusable("it is another file's entry")
    return record


def _not_private(folder: Path) -> str:
    """Why another user could plant an entry in ``folder`` ("" when none can)."""
    if sys.platform == "win32":
        return ""
    st = folder.stat()
    if st.st_uid != os.geteuid():
        return f"owned by another user (uid {st.st_uid})"
    if st.st_mode & 0o022:
        return f"writable by others (mode {st.st_mode & 0o777:o})"
    return ""


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
