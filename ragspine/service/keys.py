"""API keys and the clearance each one carries, kept hashed at rest.

A caller's clearance comes from its key, never from the request. The keys file holds each key's
SHA-256 (``ragspine keys new`` writes it and prints the key once); the environment can carry the
same entries as ``RAGSPINE_API_KEYS=name:CLEARANCE:sha256,…``. A key is compared by its hash in
constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragspine.errors import KeysError as KeysError
from ragspine.errors import first_problem
from ragspine.sensitivity import Clearance

ENV = "RAGSPINE_API_KEYS"
PREFIX = "rsk_"


class KeyEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9._-]{1,64}$")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    clearance: Clearance


class KeysFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    keys: list[KeyEntry] = Field(default_factory=list)


@dataclass(frozen=True)
class Caller:
    name: str
    clearance: str


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class KeyRing:
    def __init__(self, entries: list[KeyEntry]) -> None:
        self._entries = list(entries)

    def __len__(self) -> int:
        return len(self._entries)

    def caller(self, key: str | None) -> Caller | None:
        """The caller a key belongs to; None for no key or an unknown one."""
        if not key:
            return None
        found = digest(key)
        match = None
        for entry in self._entries:  # every entry compared: the time says nothing
            if hmac.compare_digest(entry.sha256, found):
                match = entry
        return Caller(match.name, match.clearance) if match else None


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
        entry = KeyEntry(name=name, sha256=digest(key), clearance=clearance)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise KeysError(f"{path}: {first_problem(exc)}") from exc
    current.keys.append(entry)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(yaml.safe_dump(current.model_dump(mode="json"), sort_keys=False), "utf-8")
    os.chmod(tmp, 0o600)
    tmp.replace(path)
    return key


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
