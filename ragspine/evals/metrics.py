"""Every metric a run reports, declared once: summary, report, diff, gate and the CLI derive
from here. A scorer that feeds a rate declares it where it is written (``@scorer(rate=...)``),
so a new golden expectation is one ``Expect`` field and one scorer, nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ragspine.evals import scorers

Kind = Literal["rate", "count", "numbers", "latency", "tokens"]
Better = Literal["higher", "lower"] | None


@dataclass(frozen=True)
class Metric:
    name: str
    kind: Kind
    better: Better  # which way is an improvement; None: neither (a rate to watch, not to push)
    check: str | None = None  # a rate's check (a scorer's Check.name); None: the whole case
    leaves: tuple[str, ...] = ()  # the numbers a composite metric holds: latency_ms.p50 …
    headline: bool = True

    @property
    def names(self) -> list[str]:
        """Its flattened names, as thresholds and diffs use them."""
        return [f"{self.name}.{leaf}" for leaf in self.leaves] or [self.name]


PASS_RATE = Metric("pass_rate", "rate", "higher")
_AFTER_RATES = (
    Metric("guard_triggered_rate", "rate", None),  # how often the guard fired, of all cases
    Metric("errors", "count", "lower"),
    Metric("unsupported_numbers", "numbers", "lower", leaves=("cases", "numbers")),
    # What the audit finds in the model's raw prose, and what the narrative guard removed:
    # a measure of the model, not a score of the engine, so neither way is "better".
    Metric("raw_unsupported", "numbers", None, leaves=("cases", "numbers")),
    Metric("narrative_removed", "numbers", None, leaves=("cases", "numbers")),
    Metric("latency_ms", "latency", "lower", leaves=("p50", "p95")),
    Metric("tokens", "tokens", "lower", leaves=("input", "output")),
)


def all_metrics() -> list[Metric]:
    """In report order: the pass rate, each scorer's rate, then the rest."""
    rates = [Metric(s.rate, "rate", "higher", check=s.check) for s in scorers.SCORERS if s.rate]
    return [PASS_RATE, *rates, *_AFTER_RATES]


def scored_rates() -> dict[str, str | None]:
    """Rate name → the check it reads (None: the whole case), for the summary to count."""
    return {m.name: m.check for m in all_metrics() if m.kind == "rate" and m.better}


def headline_names() -> list[str]:
    return [m.name for m in all_metrics() if m.headline]


def metric_names() -> list[str]:
    """Every flattened name a summary holds: what thresholds may name."""
    return [n for m in all_metrics() for n in m.names]


def better(flat_name: str) -> Better:
    """Which way the metric behind ``name`` or ``name.leaf`` improves."""
    base = flat_name.split(".", 1)[0]
    return next((m.better for m in all_metrics() if m.name == base), None)
