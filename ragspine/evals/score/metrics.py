"""Every metric a run reports, declared once: summary, report, diff, gate and the CLI derive
from here. A scorer that feeds a rate declares it where it is written (``@scorer(rate=...)``),
so a new golden expectation is one ``Expect`` field and one scorer, nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ragspine.evals.score import scorers

# rate: a score, the cases that passed of those judged (a check's, or the whole case's);
# share: how often something happened, of all cases (a measure, not a score);
# count: one integer; numbers: cases and numbers counted from a per-case field;
# latency, tokens: their leaves (p50/p95 ms, input/output sums).
Kind = Literal["rate", "share", "count", "numbers", "latency", "tokens"]
Better = Literal["higher", "lower"] | None


@dataclass(frozen=True)
class Metric:
    name: str
    kind: Kind
    better: Better  # which way is an improvement; None: neither (watched, not pushed)
    check: str | None = None  # a rate's check (a scorer's Check.name); None: the whole case
    counts: str | None = None  # numbers: the CaseResult field counted (a list, or an int)
    leaves: tuple[str, ...] = ()  # the numbers a composite metric holds: latency_ms.p50 …
    headline: bool = True  # a line of its own in the console's summary
    # a rate's cases: "all" (a provider error counts as a failure) or "answered" (cases the
    # provider answered: an outage is never a guard, route or status miss)
    over: Literal["all", "answered"] = "answered"

    @property
    def names(self) -> list[str]:
        """Its flattened names, as thresholds and diffs use them."""
        return [f"{self.name}.{leaf}" for leaf in self.leaves] or [self.name]


def _numbers(name: str, better: Better, counts: str) -> Metric:
    return Metric(name, "numbers", better, counts=counts, leaves=("cases", "numbers"))


PASS_RATE = Metric("pass_rate", "rate", "higher", over="all")
_AFTER_RATES = (
    # the same verdicts over the cases the provider answered: quality apart from outages
    Metric("answered_pass_rate", "rate", "higher"),
    Metric("error_rate", "share", "lower"),  # cases the provider failed, of all cases
    Metric("guard_triggered_rate", "share", None),  # how often the guard fired, of all cases
    Metric("errors", "count", "lower", headline=False),  # the console's first line says it
    _numbers("unsupported_numbers", "lower", "unsupported_numbers"),
    # What the audit finds in the model's raw prose, and what the narrative guard removed:
    # a measure of the model, not a score of the engine, so neither way is "better".
    _numbers("raw_unsupported", None, "raw_unsupported"),
    _numbers("narrative_removed", None, "guard_removed"),
    Metric("latency_ms", "latency", "lower", leaves=("p50", "p95")),
    Metric(
        "tokens",
        "tokens",
        "lower",
        leaves=("input", "output", "cache_read", "cache_write"),
        headline=False,
    ),
)


def all_metrics() -> list[Metric]:
    """In report order: the pass rate, each registered scorer's rate, then the rest.

    Read at call time, so a scorer registered later (a test's, a plugin's) is included.
    """
    rates = [Metric(s.rate, "rate", "higher", check=s.check) for s in scorers.SCORERS if s.rate]
    return [PASS_RATE, *rates, *_AFTER_RATES]


def scored_rates() -> dict[str, tuple[str | None, str]]:
    """Rate name → (the check it reads, None for the whole case; the cases it is over)."""
    return {m.name: (m.check, m.over) for m in all_metrics() if m.kind == "rate"}


def counted_fields() -> dict[str, str]:
    """Numbers metric → the CaseResult field it counts, for the summary."""
    return {m.name: m.counts for m in all_metrics() if m.kind == "numbers" and m.counts}


def headline_names() -> list[str]:
    """The metrics the console's summary gives a line each."""
    return [m.name for m in all_metrics() if m.headline]


def metric_names() -> list[str]:
    """Every flattened name a summary holds: what thresholds may name."""
    return [n for m in all_metrics() for n in m.names]


def better(flat_name: str) -> Better:
    """Which way the metric behind ``name`` or ``name.leaf`` improves."""
    base = flat_name.split(".", 1)[0]
    return next((m.better for m in all_metrics() if m.name == base), None)
