"""Where a store lives: a SQLite file or a PostgreSQL database, read from one string.

    data/facts.db, sqlite:data/facts.db      a SQLite file (the default kind)
    postgresql://user:pw@host:5432/name      a PostgreSQL database (postgres:// too)

One PostgreSQL database holds every store (facts, chunks, FAQ, API keys), each in its own
schema. A location prints without its password (``str``), so a message, a log line or a trace
never shows one; ``PgLocation.url`` keeps it for connecting only.

The search index of a PostgreSQL corpus is local to each host (a memory-mapped folder):
``RAGSPINE_INDEX_DIR`` if set, else ``$RAGSPINE_HOME/indexes/<key>``, else
``$XDG_CACHE_HOME/ragspine/indexes/<key>`` (``~/.cache`` without it), where ``<key>`` names the
database by host, port, name and user (never the password), so two databases never share one.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import SplitResult, urlsplit, urlunsplit

from ragspine.errors import ConfigError

SCHEMES = ("postgresql", "postgres")
SQLITE_PREFIX = "sqlite:"
INDEX_ENV = "RAGSPINE_INDEX_DIR"
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class PgLocation:
    """A PostgreSQL database. ``url`` (with its password) is for connecting, nothing else."""

    url: str = field(repr=False)

    def __str__(self) -> str:
        return redact(self.url)

    def __repr__(self) -> str:
        return f"PgLocation({redact(self.url)!r})"

    @property
    def key(self) -> str:
        """A folder name for this database: its name and a digest of where it is."""
        parts = urlsplit(self.url)
        name = _SAFE.sub("_", parts.path.lstrip("/")) or "postgres"
        digest = hashlib.sha256(redact(self.url).encode("utf-8")).hexdigest()[:12]
        return f"{name}-{digest}"

    def index_dir(self) -> Path:
        """The local folder of this corpus's search index (see the module's docstring)."""
        given = os.environ.get(INDEX_ENV)
        if given:
            return Path(given).expanduser()
        home = os.environ.get("RAGSPINE_HOME")
        if home:
            return Path(home).expanduser() / "indexes" / self.key
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
        return base / "ragspine" / "indexes" / self.key


Location = Path | PgLocation


def redact(url: str) -> str:
    """The URL with its password (in the netloc or a ``password=`` parameter) replaced."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        name, colon, _pw = user.partition(":")
        netloc = f"{name}:***@{host}" if colon else f"{name}@{host}"
    query = re.sub(r"(?i)(^|&)password=[^&]*", r"\1password=***", parts.query)
    return urlunsplit(SplitResult(parts.scheme, netloc, parts.path, query, parts.fragment))


def parse_location(value: str | Path | PgLocation, *, flag: str = "--db") -> Location:
    """A store location from what a user wrote. A URL of another scheme, or a PostgreSQL URL
    without a database name, is a ConfigError naming ``flag`` (never the password)."""
    if isinstance(value, PgLocation | Path):
        return value
    text = str(value).strip()
    if text.startswith(SQLITE_PREFIX):
        rest = text[len(SQLITE_PREFIX) :]
        if rest.startswith("//"):  # sqlite:///abs/path, as SQLAlchemy writes it
            rest = rest[2:]
        if not rest:
            raise ConfigError(f"{flag}: sqlite: needs a file path (sqlite:data/facts.db)")
        return Path(rest).expanduser()
    scheme, sep, _ = text.partition("://")
    if not sep:
        return Path(text).expanduser()
    if scheme.lower() not in SCHEMES:
        raise ConfigError(
            f"{flag}: {redact(text)}: unknown store kind {scheme!r} "
            "(a file path, sqlite:PATH or postgresql://USER@HOST/DATABASE)"
        )
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError as exc:
        raise ConfigError(f"{flag}: {redact(text)}: not a valid URL: {exc}") from None
    if not parts.path.strip("/"):
        raise ConfigError(
            f"{flag}: {redact(text)}: name the database (postgresql://USER@HOST/DATABASE)"
        )
    return PgLocation(text)


def is_postgres(value: str | Path | PgLocation | None) -> bool:
    return isinstance(value, PgLocation) or (
        isinstance(value, str) and value.partition("://")[0].lower() in SCHEMES
    )


def check_one_transaction(db: Location, corpus: Location) -> None:
    """Ingesting writes a file's facts and passages in one transaction, so its two stores must
    be SQLite files (one attached to the other) or one PostgreSQL database. Said before either
    store is opened: a refused command makes no store (not ``data/fact_metric.db`` by default,
    no schema in the database), and a worker blames no file for its flags."""
    if isinstance(db, Path) and isinstance(corpus, Path):
        return
    if isinstance(db, PgLocation) and db == corpus:
        return
    raise ConfigError(
        f"{db} and {corpus}: a file's facts and passages are written in one transaction, so "
        "both stores must be SQLite files or one PostgreSQL database (give --db the corpus's "
        "URL, or leave --corpus to --db's database)"
    )
