"""A profile as a fact store remembers it: YAML text, read back into the profile it was.

The storage layer keeps the text (it knows nothing of profiles); this side parses it, once per
distinct text in a process, since a store is opened far more often than its profile changes.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Protocol

from ragspine.profile import (
    DomainProfile,
    default_profile,
    demo_profile_text,
    parse_profile,
    read_profile,
)

_CACHED = 16  # distinct stored profiles kept parsed; past it the cache starts again


class ProfileRecord(Protocol):
    """What a store keeps of a profile (``storage.fact_store.StoredProfile``)."""

    @property
    def version(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def sha256(self) -> str: ...
    @property
    def text(self) -> str: ...


_parsed: dict[str, DomainProfile] = {}


def profile_of_record(record: ProfileRecord, where: str) -> DomainProfile:
    """The profile a record holds; ``where`` (the store) names it in an error. The demo's own text
    is the packaged demo profile itself. Alias collisions are not warned of again: they were
    when the profile was stored."""
    if record.sha256 == _demo_sha256():
        return default_profile()
    found = _parsed.get(record.sha256)
    if found is None:
        name = f"{where}: the profile stored as v{record.version} ({record.name})"
        found = parse_profile(record.text, name, check_aliases=False)
        if len(_parsed) >= _CACHED:
            _parsed.clear()
        _parsed[record.sha256] = found
    return found


def text_sha256(text: str) -> str:
    """The hash a store keeps of a profile's text (``FactStore.remember_profile``'s)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def _demo_sha256() -> str:
    return text_sha256(demo_profile_text())


class GivenProfile:
    """A profile file a command was given: the profile, and the text a store would remember."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.profile, self.text = read_profile(path)

    @property
    def sha256(self) -> str:
        return text_sha256(self.text)

    def differs_from(self, record: ProfileRecord, store: str | Path) -> str:
        """One line: this profile is not the one ``store`` remembers (``record``)."""
        return (
            f"profile {self.path} ({self.profile.name}) differs from the one {store} stores "
            f"({record.name}, v{record.version})"
        )
