"""The slots a composite answer's structured half answered or could not find: what its prose
may not give another value (see ``grounding``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.agent.query_tools import ToolResult
from ragspine.agent.request import Request
from ragspine.agent.support import fact_quantities
from ragspine.numbers import Quantity
from ragspine.profile import DomainProfile
from ragspine.profile.periods import Period
from ragspine.text import fold


def metric_words(profile: DomainProfile) -> dict[str, list[str]]:
    """Each metric's folded names."""
    specs = [*profile.metrics, *profile.derived_metrics]
    return {m.code: [fold(w) for w in (m.code, *m.aliases)] for m in specs}


@dataclass(frozen=True)
class Slot:
    """One slot the structured half answered (``found``, with its value) or could not find."""

    metric: str
    entity: str
    period: Period
    channel: str
    unit: str
    own: tuple[Quantity, ...]
    found: bool


def slots(req: Request, facts: Sequence[ToolResult]) -> list[Slot]:
    out = []
    for fact in facts:
        if fact["status"] == "found":
            own = tuple(fact_quantities(req.profile, fact))
            period = Period(fact["period_type"], fact["period"])
            slot = Slot(
                fact["metric_code"], fact["entity"], period, fact["channel"], fact["unit"],
                own, True,
            )  # fmt: skip
        elif fact["status"] == "not_found":
            n = fact["normalized"]
            spec = req.profile.any_metric(n["metric_code"])
            unit = spec.unit if spec is not None else ""
            period = Period(n["period_type"], n["period"])
            slot = Slot(n["metric_code"], n["entity"], period, n["channel"], unit, (), False)
        else:
            continue
        out.append(slot)
    return list(dict.fromkeys(out))
