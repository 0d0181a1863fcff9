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


class ProfileMemory(Protocol):
    """A store that remembers its profile (``storage.fact_store.FactStore``)."""

    @property
    def path(self) -> object: ...  # printed in messages: a file, or a URL without its password
    def stored_profile(self) -> ProfileRecord | None: ...
    def remember_profile(
        self, name: str, text: str
    ) -> tuple[ProfileRecord, ProfileRecord | None]: ...


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

    def differs_from(self, record: ProfileRecord, store: object) -> str:
        """One line: this profile is not the one ``store`` remembers (``record``)."""
        return (
            f"profile {self.path} ({self.profile.name}) differs from the one {store} stores "
            f"({record.name}, v{record.version})"
        )


def profile_for(store: ProfileMemory, given: DomainProfile | None = None) -> DomainProfile:
    """The profile a store is read with: the one given, else the one the store remembers (the
    last ``facts load``/``ingest`` given one stored it), else the packaged ACME demo's."""
    if given is not None:
        return given
    record = store.stored_profile()
    return profile_of_record(record, str(store.path)) if record else default_profile()


def fill_profile(
    store: ProfileMemory, given: GivenProfile | None
) -> tuple[DomainProfile, str | None]:
    """For a command that fills a store (``ingest``, ``worker``, ``facts load``): the profile
    given is remembered by it (a different one than before is a new version, and the second
    value says so in one line); none given, the store's own (``profile_for``). Here, below the
    engine, so the ingestion commands reach it without importing the engine."""
    if given is None:
        return profile_for(store), None
    now, before = store.remember_profile(given.profile.name, given.text)
    if before is None or before.sha256 == now.sha256:
        return given.profile, None
    return given.profile, f"{given.differs_from(before, store.path)}; stored as v{now.version}"
