"""What the rule parser reads from a question and what the clarification gateway decides:
the route and mode names, ``ParsedIntent`` and ``ClarificationResult``. ``intent.py`` reads,
``clarify.py`` decides; both import these from here (and ``intent`` re-exports them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Protocol

from ragspine.agent.described import Described
from ragspine.agent.subjects import Subject
from ragspine.profile.periods import Period

ROUTE_STRUCTURED = "structured"
ROUTE_NARRATIVE = "narrative"
ROUTE_COMPOSITE = "composite"
CLARIFY_OUT_OF_SCOPE_ENTITY = "out_of_scope_entity"
CLARIFY_ASK_FIRST = "ask_first"
CLARIFY_ANSWER_WITH_ASSUMPTIONS = "answer_with_assumptions"
CLARIFY_NONE = "none"


@dataclass
class ParsedIntent:
    """Four slots (metric, entity, period, channel), their multi-value forms, and the route."""

    metric: str | None
    entity: str | None
    period: Period | None
    channel: str | None
    route: str
    raw_question: str
    metrics: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    periods: list[Period] = field(default_factory=list)
    channels: list[str] = field(default_factory=list)
    external_entity: str | None = None
    unrecognized: dict[str, str] = field(default_factory=dict)
    # A quarter or half the user wrote without a year, read as the latest complete one.
    assumed_period: Period | None = None
    # A line item the profile knows but holds no facts for (递延所得税负债): documents only.
    unsupported_term: str | None = None
    # A partner the user named: talked about from documents, never given facts.
    partner: str | None = None
    # A concept question's term (什么是在建工程 → 在建工程): answered only from a definition.
    definition: str | None = None
    # A quantity the profile does not hold, as the question names it (库存周转率, 同店销售额).
    declined: str | None = None
    # Names the profile does not know (a programme, a place, another company): see subjects.py.
    subjects: list[Subject] = field(default_factory=list)
    # The subjects a metric question is declined for (never answered with another's figure).
    unknown_subject: str | None = None
    # The question asks for a figure (多少, how much, or a quantity it declines by name): a name
    # no passage holds is declined by it.
    asks_figure: bool = False
    # The question asks how much a metric moved (增长了多少, by how many percentage points, 净增):
    # its two periods' levels and their difference answer it.
    change: bool = False
    # Which of the company's parts ranks first (ranks.HIGH / ranks.LOW): each part is queried
    # and the first named from their figures.
    rank: str | None = None
    # Which of the periods asked ranks first (HIGH / LOW): named from each period's figure.
    period_rank: str | None = None
    # A rank of the company's parts on a profile with none (which segment had the highest
    # revenue, with one entity): declined by these words, never the company's own figure.
    unranked: str | None = None
    # Words read as a known name they misspell (毛利律 → 毛利率, revnue → revenue): the question's
    # own words and the name read, said in the answer's 【假设】 note.
    corrections: list[tuple[str, str]] = field(default_factory=list)
    # A share the question declines that a report may state beside its part (前五名客户销售额占
    # 年度销售总额的比例): answered from a passage that states it, else declined (report_text).
    stated: Subject | None = None
    # An entity described instead of named (the fastest-growing market, 最大客户): the parts
    # ranked on its criterion and the winner's figure given, or, criterion None, declined by it.
    described: Described | None = None

    @property
    def is_multi(self) -> bool:
        """The user explicitly listed several metrics, entities, periods or channels."""
        return any(len(v) > 1 for v in (self.metrics, self.entities, self.periods, self.channels))


class IntentParser(Protocol):
    """Any parser must fill ``raw_question``: the security gate re-screens it independently."""

    def parse(self, question: str, reference_date: date | None = None) -> ParsedIntent: ...


@dataclass
class ClarificationResult:
    """What the gateway decided; ``question`` is the text shown when the flow stops here."""

    mode: str
    assumed_slots: dict[str, str] = field(default_factory=dict)
    assumption_note: str = ""
    narrowing_options: list[str] = field(default_factory=list)
    question: str = ""
    # What is declined, as the question names it (深圳, 库存周转率, 贵州茅台), and why:
    # company, ranking, subject (a name the profile does not know) or quantity.
    declined: str = ""
    decline_kind: str = ""
