"""A privacy-aware trace: codes, counts, flags and timings, never answer text or values.

Everything written here is checked against a code pattern, so a fact value or a sentence
cannot slip into a log by accident: ``trace.code("route", answer)`` raises.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

logger = logging.getLogger("ragspine.trace")

CODE_PATTERN = r"^[A-Za-z][A-Za-z0-9_.:\-]{0,63}$"  # what a trace holds: short codes only
_CODE = re.compile(CODE_PATTERN)


def _check(kind: str, value: str) -> str:
    if not (isinstance(value, str) and _is_code(value)):
        raise ValueError(f"trace {kind} must be a short code, got {value!r:.40}")
    return value


@lru_cache(maxsize=2048)
def _is_code(value: str) -> bool:
    return _CODE.match(value) is not None


@dataclass
class Trace:
    request_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    codes: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    flags: dict[str, bool] = field(default_factory=dict)
    ids: dict[str, list[str]] = field(default_factory=dict)
    timings_ms: dict[str, float] = field(default_factory=dict)

    def code(self, key: str, value: str) -> None:
        self.codes[_check("key", key)] = _check("code", value)

    def count(self, key: str, n: int = 1) -> None:
        self.counts[_check("key", key)] = self.counts.get(key, 0) + int(n)

    def flag(self, key: str, value: bool = True) -> None:
        self.flags[_check("key", key)] = bool(value)

    def add_ids(self, key: str, values: list[str]) -> None:
        """Lineage identifiers (document ids, chunk ids): where, never what."""
        bucket = self.ids.setdefault(_check("key", key), [])
        for v in values:
            if _check("id", v) not in bucket:
                bucket.append(v)

    @contextmanager
    def span(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            elapsed = (time.perf_counter() - start) * 1000
            self.timings_ms[_check("key", name)] = round(
                self.timings_ms.get(name, 0.0) + elapsed, 3
            )

    @property
    def fabrication_guard_triggered(self) -> bool:
        return self.flags.get("fabrication_guard_triggered", False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "request_id": self.request_id,
            "codes": dict(self.codes),
            "counts": dict(self.counts),
            "flags": dict(self.flags),
            "ids": {k: list(v) for k, v in self.ids.items()},
            "timings_ms": dict(self.timings_ms),
            "fabrication_guard_triggered": self.fabrication_guard_triggered,
        }

    def emit(self) -> None:
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug("trace %s", self.to_dict())
