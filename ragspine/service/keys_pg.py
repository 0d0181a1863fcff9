"""API keys in PostgreSQL: when the stores are one PostgreSQL database, so are the keys (the
``ragspine_keys`` schema), and every replica reads the same ones.

Only each key's SHA-256 is kept, with the clearance it carries and whether it is disabled, as
in the keys file (``service.keys``). A service holds every key in memory and checks at each
request that they are current by the keys' generation (``storage.generations``: bumped in the
transaction of every write to the table, announced at its commit to each replica's listener,
or read with the request's other counters in one query while it is not listening), reloading
them when it moved: a key disabled on one host is refused by every replica within the
notification's lag, and a request costs no read of the keys themselves.
"""

from __future__ import annotations

import secrets
import threading
from pathlib import Path

from pydantic import ValidationError

from ragspine.errors import ConstraintError, KeysError, first_problem
from ragspine.service.keys import PREFIX, Caller, KeyEntry, KeyRing, LiveKeys, digest
from ragspine.storage.generations import generation
from ragspine.storage.store import Store
from ragspine.store_location import Location, PgLocation


class PgKeys(Store):
    """The ``api_key`` table; PostgreSQL only (a SQLite deployment keeps keys.yaml)."""

    MIGRATIONS = "ragspine.service.migrations"
    SCHEMA = "ragspine_keys"
    TABLES = ("api_key",)
    KIND = "API keys"
    HOW_TO_BUILD = "`ragspine keys new NAME --clearance LEVEL --db URL` makes the first"
    GENERATION = "key_state"

    def __init__(self, location: str | Path | PgLocation, *, create: bool = True) -> None:
        super().__init__(location, create=create)
        if not isinstance(self.path, PgLocation):
            self.close()
            raise KeysError(f"{self.path}: API keys live in a keys file unless in PostgreSQL")
        self._held: tuple[int, KeyRing] | None = None  # the keys, and the generation they are of
        self._loading = threading.Lock()

    def new_key(self, name: str, clearance: str) -> str:
        """A fresh key for ``name``, its hash stored; the key itself is returned once."""
        key = PREFIX + secrets.token_urlsafe(32)
        try:
            entry = KeyEntry(name=name, sha256=digest(key), clearance=clearance)  # type: ignore[arg-type]
        except ValidationError as exc:
            raise KeysError(f"{self.path}: {first_problem(exc)}") from exc
        try:
            with self._conn:
                self._conn.execute(
                    "INSERT INTO api_key (name, sha256, clearance) VALUES (?, ?, ?)",
                    (entry.name, entry.sha256, entry.clearance),
                )
        except ConstraintError:
            raise KeysError(f"{self.path}: a key named {name!r} exists already") from None
        return key

    def set_disabled(self, name: str, disabled: bool) -> None:
        """Disable (or enable again) ``name``'s key; every replica sees it within the
        notification's lag (``storage.generation_listener``)."""
        with self._conn:
            changed = self._conn.execute(
                "UPDATE api_key SET disabled = ? WHERE name = ?", (disabled, name)
            ).rowcount
        if not changed:
            raise KeysError(f"{self.path}: no key named {name!r}")

    def put_all(self, entries: list[KeyEntry]) -> None:
        """Every key of a copy (``store migrate``) in one transaction, after any held ones are
        deleted (the caller checked the table may be replaced); each keeps its creation time
        (a key without one is as old as this copy)."""
        with self._conn:
            self._conn.execute("DELETE FROM api_key")
            self._conn.executemany(
                "INSERT INTO api_key (name, sha256, clearance, disabled, created_at)"
                f" VALUES (?, ?, ?, ?, COALESCE(?, {self._conn.now}))",
                [(e.name, e.sha256, e.clearance, e.disabled, e.created_at) for e in entries],
            )

    def ring(self) -> KeyRing:
        """Every key, as the keys file's would be read."""
        rows = self._conn.execute(
            "SELECT name, sha256, clearance, disabled, created_at FROM api_key ORDER BY name"
        ).fetchall()
        return KeyRing(
            [
                KeyEntry(name=n, sha256=s, clearance=c, disabled=bool(d), created_at=at)
                for n, s, c, d, at in rows
            ]
        )

    def __len__(self) -> int:
        """Keys held, disabled ones too (as a keys file counts them)."""
        (n,) = self._conn.execute("SELECT COUNT(*) FROM api_key").fetchone()
        return int(n)

    def caller(self, key: str | None) -> Caller | None:
        """The caller a key belongs to, from the keys held (``refresh``); None for no key, an
        unknown one or a disabled one."""
        if not key:
            return None
        return self.refresh().caller(key)

    def refresh(self) -> KeyRing:
        """The keys as the table holds them now: those held while the generation is theirs,
        else every key read again. The generation is read first, so what is held is never
        older than the number it is held under (a write in between only costs another reload)."""
        assert self.counter is not None  # a PostgreSQL store always has one
        now = generation(self.counter)
        held = self._held
        if held is None or held[0] != now:  # != not <: a database replaced starts again
            with self._loading:
                held = self._held
                if held is None or held[0] != now:
                    held = self._held = (now, self.ring())
        return held[1]


def service_keys(db: Location, keys_file: Path | None) -> LiveKeys | PgKeys:
    """The keys a service checks: its database's when ``db`` is PostgreSQL (every replica
    reads the same table at each request, so a key disabled through one is refused by all),
    else the keys file and RAGSPINE_API_KEYS, re-read when the file changes."""
    if isinstance(db, PgLocation):
        keys = PgKeys(db)
        keys.init_schema()
        return keys
    return LiveKeys(keys_file)
