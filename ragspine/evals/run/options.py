"""What a run is asked to do, as the CLI gives it and as ``run.json`` records it (so --resume
and --retry-errors can take a run's own options back)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ragspine.evals.run.records import read_run
from ragspine.llm import LiveOptions
from ragspine.store_location import PgLocation, parse_location


@dataclass(frozen=True)
class RunOptions:
    golden: Path
    out: Path
    provider: str = "mock"
    db: Path | PgLocation = Path("data/fact_metric.db")
    corpus: Path | PgLocation = Path("data/chunks.db")
    filter: str | None = None
    limit: int | None = None
    repeat: int = 1
    concurrency: int = 1
    profile: Path | None = None
    live: LiveOptions = field(default_factory=LiveOptions)
    prices: Path | None = None  # a price table instead of the shipped one
    budget: float | None = None  # USD: stop (resumably) when the estimate reaches it
    faq: Path | PgLocation | None = None  # a FAQ cache: the engine's faq route answers first

    def recorded(self) -> dict[str, Any]:
        """What must match for --resume to continue a run rather than start another."""
        live = self.live
        return {
            "filter": self.filter,
            "limit": self.limit,
            "repeat": self.repeat,
            "db": str(self.db),
            "corpus": str(self.corpus),
            "profile": str(self.profile) if self.profile else None,
            "base_url": live.base_url,
            "timeout": live.timeout,
            "max_retries": live.max_retries,
            "cassette": str(live.cassette) if live.cassette else None,
            "cassette_mode": live.cassette_mode if live.cassette else None,
            "prices": str(self.prices) if self.prices else None,
            "faq": str(self.faq) if self.faq else None,
        }


def options_of(folder: Path, **changes: Any) -> RunOptions:
    """The options a run in ``folder`` was started with (for --resume and --retry-errors). A
    store is read back as a location (``store_location``), never as a path: a PostgreSQL URL
    read as a path loses a slash of ``postgresql://`` and names a file that is not there."""
    record = read_run(folder)
    o = record.options
    cassette = o.get("cassette")
    live = LiveOptions(
        base_url=o.get("base_url"),
        timeout=o.get("timeout"),
        max_retries=o.get("max_retries"),
        cassette=Path(cassette) if cassette else None,
        cassette_mode=o.get("cassette_mode") or "replay",
    )
    opts = RunOptions(
        golden=Path(record.golden_path),
        out=folder,
        provider=record.provider,
        db=parse_location(o.get("db", "data/fact_metric.db")),
        corpus=parse_location(o.get("corpus", "data/chunks.db")),
        filter=o.get("filter"),
        limit=o.get("limit"),
        repeat=int(o.get("repeat", 1)),
        profile=Path(o["profile"]) if o.get("profile") else None,
        live=live,
        prices=Path(o["prices"]) if o.get("prices") else None,
        faq=parse_location(o["faq"]) if o.get("faq") else None,
    )
    return replace(opts, **changes)
