"""What the service is started with: the stores, the profile, the provider, the FAQ cache, the
keys, and its limits. ``ragspine serve`` passes them to every worker through the environment.

A store may be a PostgreSQL database: its URL travels whole (password included: the workers
connect with it) and is read back as a location, never as a path (a path would fold its ``//``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path

from ragspine.store_location import Location, PgLocation, parse_location

PREFIX = "RAGSPINE_SERVICE_"
MAX_HEAD = 16 * 1024  # bytes of a request line and its headers (h11's buffer); past it, a 400


@dataclass(frozen=True)
class ServiceSettings:
    db: Location = Path("data/fact_metric.db")
    corpus: Location | None = Path("data/chunks.db")
    profile: Path | None = None
    provider: str = "mock"
    faq: Location | None = None
    keys: Path | None = None
    max_body: int = 16 * 1024  # bytes: a question and its options, with room to spare
    timeout: float = 30.0  # seconds per request
    body_timeout: float = 10.0  # seconds for a request body to arrive once its head has
    header_timeout: float = 10.0  # seconds for a request head to arrive once a client connects
    keep_alive: int = 5  # seconds an idle connection is kept between two requests
    max_connections: int = 256  # open connections per worker; past it the oldest idle one goes
    docs: bool = False  # /docs and /openapi.json
    master_pid: int | None = None  # `serve --workers N`: a worker ends when this process does

    def to_env(self) -> dict[str, str]:
        """Every setting, an unset one as "" so a stale variable in the shell cannot stand in."""
        return {f"{PREFIX}{f.name.upper()}": _text(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> ServiceSettings:
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            value = env.get(f"{PREFIX}{name.upper()}")
            return value if value else None

        def path(name: str) -> Path | None:
            value = get(name)
            return Path(value) if value else None

        def store(name: str) -> Location | None:
            value = get(name)
            return parse_location(value, flag=name) if value else None

        base = cls()
        master = get("master_pid")
        return cls(
            db=store("db") or base.db,
            corpus=store("corpus"),
            profile=path("profile"),
            provider=get("provider") or base.provider,
            faq=store("faq"),
            keys=path("keys"),
            max_body=int(get("max_body") or base.max_body),
            timeout=float(get("timeout") or base.timeout),
            body_timeout=float(get("body_timeout") or base.body_timeout),
            header_timeout=float(get("header_timeout") or base.header_timeout),
            keep_alive=int(get("keep_alive") or base.keep_alive),
            max_connections=int(get("max_connections") or base.max_connections),
            docs=get("docs") == "True",
            master_pid=int(master) if master else None,
        )


def _text(value: object) -> str:
    """A setting as its variable holds it: a database by its whole URL, unset as ""."""
    if value is None:
        return ""
    return value.url if isinstance(value, PgLocation) else str(value)
