"""``query_metric``: the structured channel's only fact-producing primitive.

Every parameter goes through the glossary; the result is exactly one of three statuses and
never a guess: found (value, unit, codes and lineage), not_found (what was looked for), or
unrecognized_param (which parameter the glossary could not map).

It answers within the caller's clearance: a fact above it is not_found, exactly as an absent
fact is (the same result, no value, no source), so neither its value nor its existence nor the
file that states it leaks. A derived metric is as sensitive as its most restrictive operand:
an operand above the clearance is a missing operand, and a found one carries the highest level.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, Literal, NotRequired, TypedDict

from ragspine.profile import DerivedMetricSpec, DomainProfile, default_profile
from ragspine.profile.formula import FormulaError, Operand
from ragspine.profile.glossary import glossary_for
from ragspine.profile.periods import Period, previous_period
from ragspine.sensitivity import DEFAULT_CLEARANCE, LEVELS, allowed_levels
from ragspine.storage.fact_store import Fact, FactStore

STATUS_FOUND = "found"
STATUS_NOT_FOUND = "not_found"
STATUS_UNRECOGNIZED = "unrecognized_param"

QUERY_METRIC = "query_metric"


class Source(TypedDict):
    doc: str
    locator: str


class Lineage(TypedDict):
    """Which version of which file, read by which extractor and mapped by which profile."""

    source_file_hash: str
    extractor_version: str
    mapping_version: str


class FoundResult(TypedDict):
    status: Literal["found"]
    value: float
    value_text: str  # exact, as stored (or as computed, for a derived metric)
    unit: str
    metric_code: str
    entity: str
    period_type: str
    period: str
    channel: str
    source: Source  # a derived metric's: its first operand's; every operand carries its own
    sensitivity: str  # its file's; a derived metric's: its most restrictive operand's
    lineage: NotRequired[Lineage]  # a fact ingested from a file
    # A derived metric only: the formula as written in the profile, and every operand found.
    formula: NotRequired[str]
    operands: NotRequired[list[FoundResult]]
    decimals: NotRequired[int]


class Normalized(TypedDict):
    metric_code: str
    entity: str
    period_type: str
    period: str
    channel: str


class Missing(TypedDict):
    metric_code: str
    period: str


class NotFoundResult(TypedDict):
    status: Literal["not_found"]
    normalized: Normalized
    # A derived metric only: the operands with no fact (营业收入增长率 needs last year's too).
    missing: NotRequired[list[Missing]]


class UnrecognizedResult(TypedDict):
    status: Literal["unrecognized_param"]
    param: str
    raw: str


# What query_metric returns, as JSON: the status says which of the three shapes it is.
ToolResult = FoundResult | NotFoundResult | UnrecognizedResult


def execute_query_metric(
    store: FactStore,
    metric: object,
    entity: object,
    period: object,
    channel: object = "TOTAL",
    *,
    reference_date: date | None = None,
    profile: DomainProfile | None = None,
    clearance: str = DEFAULT_CLEARANCE,
) -> ToolResult:
    """Run one query_metric call. Arguments may come from a model, so anything is accepted;
    ``clearance`` is the caller's, never the model's."""
    prof = profile or default_profile()
    visible = _Visible(store, allowed_levels(clearance))
    glossary = glossary_for(prof)
    channel = prof.default_channel if channel is None or channel == "" else channel
    raw = {"metric": metric, "entity": entity, "period": period, "channel": channel}
    metric_code = glossary.normalize_metric(metric) if isinstance(metric, str) else None
    entity_code = glossary.normalize_entity(entity) if isinstance(entity, str) else None
    parsed_period = (
        glossary.normalize_period(period, reference_date) if isinstance(period, str) else None
    )
    channel_code = glossary.normalize_channel(channel) if isinstance(channel, str) else None
    for param, value in (
        ("metric", metric_code),
        ("entity", entity_code),
        ("period", parsed_period),
        ("channel", channel_code),
    ):
        if value is None:
            given = raw[param]
            return {
                "status": "unrecognized_param",
                "param": param,
                "raw": given if isinstance(given, str) else repr(given),
            }
    assert metric_code and entity_code and parsed_period and channel_code
    normalized: Normalized = {
        "metric_code": metric_code,
        "entity": entity_code,
        "period_type": parsed_period.period_type,
        "period": parsed_period.period,
        "channel": channel_code,
    }
    derived = prof.derived(metric_code)
    if derived is not None:
        return _derived(visible, derived, normalized)
    fact = visible.lookup(
        metric_code=metric_code,
        entity=entity_code,
        period_type=parsed_period.period_type,
        period=parsed_period.period,
        channel=channel_code,
    )
    if fact is None:
        return {"status": "not_found", "normalized": normalized}
    return found_result(fact)


class _Visible:
    """The fact store as the caller may see it: a fact above the clearance is not there."""

    def __init__(self, store: FactStore, allowed: tuple[str, ...]) -> None:
        self._store, self._allowed = store, allowed

    def lookup(self, **key: str) -> Fact | None:
        fact = self._store.lookup(**key)
        return fact if fact is not None and fact.sensitivity in self._allowed else None


def found_result(fact: Fact) -> FoundResult:
    """A stored fact as query_metric returns it found (what the guard holds numbers to)."""
    found: FoundResult = {
        "status": "found",
        "value": fact.value,
        "value_text": str(fact.exact),
        "unit": fact.unit,
        "metric_code": fact.metric_code,
        "entity": fact.entity,
        "period_type": fact.period_type,
        "period": fact.period,
        "channel": fact.channel,
        "source": {"doc": fact.source_doc_id, "locator": fact.source_locator},
        "sensitivity": fact.sensitivity,
    }
    if fact.source_file_hash:
        found["lineage"] = {
            "source_file_hash": fact.source_file_hash,
            "extractor_version": fact.extractor_version or "",
            "mapping_version": fact.mapping_version or "",
        }
    return found


def _derived(store: _Visible, spec: DerivedMetricSpec, key: Normalized) -> ToolResult:
    """Every operand looked up, then the formula evaluated exactly: in control flow, never by a
    model. A missing operand (or a zero divisor) is not_found, naming what is missing."""
    period = Period(key["period_type"], key["period"])
    facts: dict[Operand, Fact] = {}
    missing: list[Missing] = []
    for operand in spec.parsed.operands:
        at = previous_period(period) if operand.lag else period
        fact = store.lookup(
            metric_code=operand.code,
            entity=operand.entity or key["entity"],
            period_type=at.period_type,
            period=at.period,
            channel=operand.channel or key["channel"],
        )
        if fact is None:
            missing.append({"metric_code": operand.code, "period": at.label})
        else:
            facts[operand] = fact
    if not missing:
        try:
            exact = spec.parsed.evaluate({o: f.exact for o, f in facts.items()})
        except FormulaError:
            missing = [  # a zero divisor: the operand that made the ratio undefined
                {"metric_code": o.code, "period": Period(f.period_type, f.period).label}
                for o, f in facts.items()
                if f.exact == 0
            ]
        else:
            value = exact * 100 if spec.percent else exact
            value = value.quantize(Decimal("1e-12")).normalize()
            operands = [found_result(f) for f in facts.values()]
            return {
                "status": "found",
                "value": float(value),
                "value_text": f"{value:f}",
                "unit": spec.unit,
                "metric_code": key["metric_code"],
                "entity": key["entity"],
                "period_type": key["period_type"],
                "period": key["period"],
                "channel": key["channel"],
                "source": operands[0]["source"],
                "sensitivity": max((f.sensitivity for f in facts.values()), key=LEVELS.index),
                "formula": spec.formula,
                "operands": operands,
                "decimals": spec.decimals,
            }
    return {"status": "not_found", "normalized": key, "missing": missing}


_DESCRIPTION = (
    "Look up one reported metric value in the fact table. Returns status found (with value, "
    "unit and source), not_found, or unrecognized_param. Never estimate a number yourself: if "
    "the status is not found, say that the data is not available."
)


def _parameters(profile: DomainProfile) -> dict[str, Any]:
    entities = ", ".join(f"{e.code} ({e.aliases[0]})" for e in profile.entities)
    return {
        "type": "object",
        "properties": {
            "metric": {
                "type": "string",
                "description": "Metric code, one of: " + ", ".join(profile.metric_codes),
            },
            "entity": {"type": "string", "description": f"Entity code, for example: {entities}"},
            "period": {
                "type": "string",
                "description": "Period: FY2024 (fiscal year), 2024H1 (half), 2024Q3 (quarter)",
            },
            "channel": {
                "type": "string",
                "description": "Channel code, one of: " + ", ".join(profile.channel_codes),
                "default": profile.default_channel,
            },
        },
        "required": ["metric", "entity", "period"],
        "additionalProperties": False,
    }


def build_query_metric_tool_anthropic(profile: DomainProfile | None = None) -> dict[str, Any]:
    """The tool schema in the Anthropic Messages API shape, derived from the profile."""
    prof = profile or default_profile()
    return {"name": QUERY_METRIC, "description": _DESCRIPTION, "input_schema": _parameters(prof)}


def build_query_metric_tool_openai(profile: DomainProfile | None = None) -> dict[str, Any]:
    """The same tool in the OpenAI function-calling shape (the documented seam)."""
    prof = profile or default_profile()
    return {
        "type": "function",
        "function": {
            "name": QUERY_METRIC,
            "description": _DESCRIPTION,
            "parameters": _parameters(prof),
        },
    }


QUERY_METRIC_TOOL_ANTHROPIC = build_query_metric_tool_anthropic()
QUERY_METRIC_TOOL_OPENAI = build_query_metric_tool_openai()
