"""API keys and the clearance each one carries, kept hashed at rest.

A caller's clearance comes from its key, never from the request. The keys file holds each key's
SHA-256 (``ragspine keys new`` writes it and prints the key once); the environment can carry the
same entries as ``RAGSPINE_API_KEYS=name:CLEARANCE:sha256,…``. A key is compared by its hash in
constant time. A running service re-reads the file when it changes (``LiveKeys``), so a key
disabled with ``ragspine keys disable`` is refused at its next request, without a restart.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragspine.errors import KeysError as KeysError
from ragspine.errors import first_problem
from ragspine.sensitivity import Clearance
from ragspine.storage.private import open_private

logger = logging.getLogger("ragspine.service")
ENV = "RAGSPINE_API_KEYS"
PREFIX = "rsk_"


class KeyEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9._-]{1,64}$")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    clearance: Clearance
    disabled: bool = False  # kept, refused: `ragspine keys enable` serves it again
    # UTC, as the stores write times; None in a file written before keys carried theirs
    created_at: str | None = Field(default=None, pattern=r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")


class KeysFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    keys: list[KeyEntry] = Field(default_factory=list)


@dataclass(frozen=True)
class Caller:
    name: str
    clearance: str


def utc_now() -> str:
    """The time now as the stores write it (UTC, 'YYYY-MM-DD HH:MM:SS')."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class KeyRing:
    def __init__(self, entries: list[KeyEntry]) -> None:
        self._entries = list(entries)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def entries(self) -> list[KeyEntry]:
        return list(self._entries)

    def caller(self, key: str | None) -> Caller | None:
        """The caller a key belongs to; None for no key or an unknown one."""
        if not key:
            return None
        found = digest(key)
        match = None
        for entry in self._entries:  # every entry compared: the time says nothing
            if hmac.compare_digest(entry.sha256, found):
                match = entry
        if match is None or match.disabled:
            return None
        return Caller(match.name, match.clearance)


class LiveKeys:
    """The keys of a file, re-read when it changes: each request stats the file (its device,
    inode, size and mtime in ns; one ``stat``, no read) and reloads it only if one of them moved,
    so a key added, disabled or removed counts from the next request on. A file that cannot be
    read any more refuses every key it held (fail closed) and says so once in the log; the keys
    from the environment keep working."""

    def __init__(self, path: Path | None, environ: dict[str, str] | None = None) -> None:
        self.path, self._environ = path, environ
        self._stamp = self._stat()
        self._ring = load_keys(path, environ)  # at start an unreadable file is an error
        self._lock = threading.Lock()

    def __len__(self) -> int:
        self._refresh()
        return len(self._ring)

    def caller(self, key: str | None) -> Caller | None:
        self._refresh()
        return self._ring.caller(key)

    def _stat(self) -> tuple[int, ...] | None:
        if self.path is None:
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return (0,)
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)

    def _refresh(self) -> None:
        stamp = self._stat()
        if stamp == self._stamp:
            return
        with self._lock:
            if stamp == self._stamp:
                return
            try:
                ring = load_keys(self.path, self._environ)
            except KeysError as exc:
                logger.error("keys: %s; its keys are refused until it is readable", exc)
                ring = load_keys(None, self._environ)
            else:
                logger.info("keys: reloaded %s", self.path)
            self._ring, self._stamp = ring, stamp


def load_keys(path: Path | None = None, environ: dict[str, str] | None = None) -> KeyRing:
    """The keys in ``path`` (YAML) and in ``RAGSPINE_API_KEYS``."""
    entries: list[KeyEntry] = []
    if path is not None:
        entries += _read(path).keys
    env = (os.environ if environ is None else environ).get(ENV, "")
    for i, raw in enumerate(p for p in env.split(",") if p.strip()):
        name, _, rest = raw.strip().partition(":")
        clearance, _, sha = rest.partition(":")
        try:
            entries.append(KeyEntry(name=name, clearance=clearance, sha256=sha))  # type: ignore[arg-type]
        except ValidationError as exc:
            raise KeysError(f"{ENV}: entry {i + 1}: {first_problem(exc)}") from exc
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise KeysError(f"{path or ENV}: a key name appears twice")
    return KeyRing(entries)


def new_key(path: Path, name: str, clearance: str) -> str:
    """A fresh key for ``name``, its hash appended to ``path``; the key itself is returned once."""
    current = _read(path) if path.exists() else KeysFile()
    if any(e.name == name for e in current.keys):
        raise KeysError(f"{path}: a key named {name!r} exists already")
    key = PREFIX + secrets.token_urlsafe(32)
    try:
        entry = KeyEntry(name=name, sha256=digest(key), clearance=clearance, created_at=utc_now())  # type: ignore[arg-type]
    except ValidationError as exc:
        raise KeysError(f"{path}: {first_problem(exc)}") from exc
    current.keys.append(entry)
    _write(path, current)
    return key


def set_disabled(path: Path, name: str, disabled: bool) -> None:
    """Disable (or enable again) the key named ``name``; a running service sees it at once."""
    current = _read(path)
    for i, entry in enumerate(current.keys):
        if entry.name == name:
            current.keys[i] = entry.model_copy(update={"disabled": disabled})
            break
    else:
        raise KeysError(f"{path}: no key named {name!r}")
    _write(path, current)


def write_keys(path: Path, entries: list[KeyEntry]) -> None:
    """A keys file holding exactly ``entries`` (``store migrate`` into a SQLite folder)."""
    _write(path, KeysFile(keys=entries))


def _write(path: Path, keys: KeysFile) -> None:
    """Written whole to a private (0600) copy, then renamed over the file: a service reading
    it sees the old keys or the new ones, never half a file."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    text = yaml.safe_dump(keys.model_dump(mode="json", exclude_defaults=True), sort_keys=False)
    try:
        with open_private(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(path)
    except OSError as exc:
        raise KeysError(f"{path}: cannot write: {exc}") from exc


def _read(path: Path) -> KeysFile:
    try:
        data = yaml.safe_load(path.read_text("utf-8")) or {}
    except FileNotFoundError:
        raise KeysError(f"{path}: no such keys file") from None
    except (OSError, yaml.YAMLError) as exc:
        raise KeysError(f"{path}: cannot read: {exc}") from exc
    try:
        return KeysFile.model_validate(data)
    except ValidationError as exc:
        raise KeysError(f"{path}: {first_problem(exc)}") from exc
