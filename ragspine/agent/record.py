"""One answer, one shape: the ``AnswerRecord`` every door gives.

``ragspine ask --json`` prints it, ``POST /v1/ask`` returns it (its OpenAPI schema is generated
from it) and the eval scorers read it. It is built in one place, ``AgentResult.to_record``, and
carries its ``schema_version``. It holds what a caller may see: the answer, its route, the
clarification, the sources, the tool results as ``query_metric`` returned them, why the answer
degraded, the FAQ item that answered, and the trace (codes, counts, flags, lineage ids and
timings, never text). What only an audit may read (the model's prose before the guard) is not
in it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ragspine.agent.wording import Language
from ragspine.observability import CODE_PATTERN
from ragspine.sensitivity import Clearance

# 2: ``clarification.declined_kind`` (a decline stated apart from a question back). 3: ``language``
# (the answer's words, in the question's language). Add-only: an older record still reads, what
# it predates unstated.
RECORD_VERSION = 3

Route = Literal["structured", "narrative", "composite", "faq"]
Mode = Literal["none", "ask_first", "answer_with_assumptions", "out_of_scope_entity"]
DeclineKind = Literal["quantity", "subject", "company", "ranking"]
Degraded = Literal["provider_unavailable", "narrative_unavailable"]
Code = Annotated[str, StringConstraints(pattern=CODE_PATTERN)]


class _Part(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, json_schema_serialization_defaults_required=True
    )


class Source(_Part):
    doc: str
    locator: str


class Clarification(_Part):
    mode: Mode
    question: str | None = None  # the text shown when the flow stopped at the gateway
    assumption_note: str | None = None  # the 【假设】 banner over an answer with assumptions
    assumed_slots: dict[str, str] = Field(default_factory=dict)
    narrowing_options: list[str] = Field(default_factory=list)
    # what the engine would not answer, as the question named it: a quantity the fact table
    # lacks (坪效), a subject it does not know (Project Nightingale), another company
    declined: str | None = None
    # Set whenever the engine declines, whatever the mode: a quantity the fact table lacks (mode
    # ask_first, which then states no question back), a name it does not know, another company,
    # a rank it cannot make. ``ask_first`` without it is a question back ("which metric?").
    declined_kind: DeclineKind | None = None


class Lineage(_Part):
    source_file_hash: str
    extractor_version: str
    mapping_version: str


class Found(_Part):
    """A fact, stored or derived; a derived one carries its formula and every operand."""

    status: Literal["found"]
    value: float
    value_text: str  # exact, as stored (or as computed, for a derived metric)
    unit: str
    metric_code: str
    entity: str
    period_type: str
    period: str
    channel: str
    source: Source  # a derived metric's: its first operand's
    # its file's level; a derived metric's, its most restrictive operand's (never above the
    # caller's clearance: a fact above it is not_found). Records from before it: INTERNAL.
    sensitivity: Clearance = Clearance.INTERNAL
    lineage: Lineage | None = None
    formula: str | None = None
    operands: list[Found] | None = None
    decimals: int | None = None


class Normalized(_Part):
    metric_code: str
    entity: str
    period_type: str
    period: str
    channel: str


class Missing(_Part):
    metric_code: str
    period: str


class NotFound(_Part):
    status: Literal["not_found"]
    normalized: Normalized
    missing: list[Missing] | None = None  # a derived metric's operands with no fact


class Unrecognized(_Part):
    status: Literal["unrecognized_param"]
    param: str
    raw: str


ToolResultRecord = Annotated[Found | NotFound | Unrecognized, Field(discriminator="status")]


class AnswerTrace(_Part):
    """Codes, counts, flags, lineage ids and timings: never a question, an answer or a value."""

    codes: dict[Code, Code] = Field(default_factory=dict)
    counts: dict[Code, int] = Field(default_factory=dict)
    flags: dict[Code, bool] = Field(default_factory=dict)
    ids: dict[Code, list[Code]] = Field(default_factory=dict)
    timings_ms: dict[Code, float] = Field(default_factory=dict)
    # the seeds' flag, where they document it: tool results, none found (also in flags)
    fabrication_guard_triggered: bool = False


class AnswerRecord(_Part):
    """One answered question, as every door gives it."""

    schema_version: int = RECORD_VERSION
    request_id: str
    question: str
    # The language the answer's own words are in, the question's (zh: Chinese, simplified or
    # traditional; en: English): the figures and sources are the same whichever it is. None in
    # a record from before version 3.
    language: Language | None = None
    answer: str
    route: Route
    clarification: Clarification
    sources: list[Source] = Field(default_factory=list)
    tool_results: list[ToolResultRecord] = Field(default_factory=list)
    degraded: Degraded | None = None
    faq_id: int | None = None  # the vetted item that answered, on the faq route
    # The metrics whose change between two periods the answer gives because the question asked
    # a change (both sourced levels and their difference): the answer is about that change, not
    # about either level. Empty for a level, and for levels merely compared.
    changes: list[str] = Field(default_factory=list)
    # The metrics whose figures only picked the entity a question describes (the fastest-growing
    # market: each region's revenue growth, then the winner's asked figure): the answer is about
    # the asked metric, not these. Empty elsewhere.
    criteria: list[str] = Field(default_factory=list)
    trace: AnswerTrace = Field(default_factory=AnswerTrace)

    @property
    def guard_triggered(self) -> bool:
        return self.trace.fabrication_guard_triggered


__all__ = [
    "RECORD_VERSION",
    "AnswerRecord",
    "AnswerTrace",
    "Clarification",
    "DeclineKind",
    "Found",
    "NotFound",
    "Source",
    "ToolResultRecord",
    "Unrecognized",
]
