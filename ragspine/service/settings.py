"""What the service is started with: the stores, the profile, the provider, the FAQ cache, the
keys, and its limits. ``ragspine serve`` passes them to every worker through the environment."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path

PREFIX = "RAGSPINE_SERVICE_"


@dataclass(frozen=True)
class ServiceSettings:
    db: Path = Path("data/fact_metric.db")
    corpus: Path | None = Path("data/chunks.db")
    profile: Path | None = None
    provider: str = "mock"
    faq: Path | None = None
    keys: Path | None = None
    max_body: int = 16 * 1024  # bytes: a question and its options, with room to spare
    timeout: float = 30.0  # seconds per request

    def to_env(self) -> dict[str, str]:
        """Every setting, an unset one as "" so a stale variable in the shell cannot stand in."""
        return {
            f"{PREFIX}{k.upper()}": "" if v is None else str(v) for k, v in asdict(self).items()
        }

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> ServiceSettings:
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            value = env.get(f"{PREFIX}{name.upper()}")
            return value if value else None

        def path(name: str) -> Path | None:
            value = get(name)
            return Path(value) if value else None

        base = cls()
        return cls(
            db=path("db") or base.db,
            corpus=path("corpus"),
            profile=path("profile"),
            provider=get("provider") or base.provider,
            faq=path("faq"),
            keys=path("keys"),
            max_body=int(get("max_body") or base.max_body),
            timeout=float(get("timeout") or base.timeout),
        )
