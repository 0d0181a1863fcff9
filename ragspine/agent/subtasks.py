"""Sub-tasks: every combination of metric, entity, period and channel a question lists, and
the deterministic answer to several of them (no LLM; the difference of two comparable periods
computed from the two found facts).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ragspine.agent.change_answers import Unmade, decline_unmade
from ragspine.agent.intent import ClarificationResult, ParsedIntent
from ragspine.agent.period_extremes import period_extreme_lines
from ragspine.agent.query_tools import Source, ToolResult, execute_query_metric
from ragspine.agent.ranks import rank_lines
from ragspine.agent.render import (
    asked_decimals,
    differences,
    distinct_found,
    fact_line,
    fact_sources,
    not_found_line,
    unrecognized_line,
)
from ragspine.agent.request import Request
from ragspine.agent.wording import say
from ragspine.profile import DomainProfile

MAX_SUBTASKS = 48


@dataclass(frozen=True)
class SubTask:
    """One query_metric call the question asks for; values are codes, labels or raw text."""

    metric: str
    entity: str
    period: str
    channel: str

    def args(self) -> dict[str, str]:
        return {
            "metric": self.metric,
            "entity": self.entity,
            "period": self.period,
            "channel": self.channel,
        }


def subtasks(intent: ParsedIntent, clar: ClarificationResult, prof: DomainProfile) -> list[SubTask]:
    """Every combination the user listed, with assumed slots filled in; empty if impossible."""
    metrics = intent.metrics or ([intent.metric] if intent.metric else [])
    # What the user wrote but the glossary does not know is queried too, so it is named back.
    entities = [*(intent.entities or [intent.entity] if intent.entity else [])]
    entities += [v for v in [intent.unrecognized.get("entity")] if v]
    entities = entities or [v for v in [clar.assumed_slots.get("entity")] if v]
    periods = [p.label for p in (intent.periods or ([intent.period] if intent.period else []))]
    periods += [v for v in [intent.unrecognized.get("period")] if v]
    periods = periods or [v for v in [clar.assumed_slots.get("period")] if v]
    channels = intent.channels or [intent.channel or prof.default_channel]
    combos = itertools.product(metrics, entities, periods, channels)
    return [SubTask(*c) for c in itertools.islice(combos, MAX_SUBTASKS)]


def query(req: Request, args: dict[str, str]) -> ToolResult:
    return execute_query_metric(
        req.store,
        **args,
        reference_date=req.reference_date,
        profile=req.profile,
        clearance=req.clearance,
    )


@dataclass
class MultiAnswer:
    """The text, its sources, every tool result, and the metrics whose change between two
    periods it gives because the question asked a change (empty for a comparison of levels)."""

    text: str
    sources: list[Source]
    results: list[ToolResult]
    changes: list[str]


def multi_subtask_answer(req: Request, tasks: list[SubTask], intent: ParsedIntent) -> MultiAnswer:
    req.trace.code("structured", "multi_subtask")
    results = [query(req, t.args()) for t in tasks]
    req.trace.count("tool_calls", len(results))
    unmade = Unmade(results)
    if intent.change and len(intent.periods) == 2:  # no level alone for a change asked
        unmade = decline_unmade([t.args() for t in tasks], results, req.profile,
                                lambda args: query(req, args), req.language)  # fmt: skip
        if unmade.lines or unmade.growths:
            req.trace.count("changes_declined", len(unmade.lines) + len(unmade.growths))
    results = unmade.results + unmade.growths
    lines = []
    decimals, lang = asked_decimals(req.question), req.language
    for r in results:
        if r["status"] == "found":
            lines.append(fact_line(r, req.profile, decimals, lang))
        elif r["status"] == "not_found":
            lines.append(not_found_line(r, req.profile, lang))
        else:
            lines.append(unrecognized_line(r, req.question, req.profile, lang))
    lines += unmade.lines
    results += unmade.missing
    changes: list[str] = []
    if len(intent.periods) == 2:
        diffs = differences(results, req.profile, lang)
        req.trace.count("differences", len(diffs))
        lines.extend(line for _, line in diffs)
        if intent.change:
            changes = list(dict.fromkeys(code for code, _ in diffs))
    if intent.rank:
        ranks = rank_lines(results, intent.rank, req.profile, lang)
        req.trace.count("ranks", len(ranks))
        lines.extend(ranks)
    if intent.period_rank:  # in which year did the margin peak: each year's, the top named
        extremes = period_extreme_lines(results, intent.period_rank, req.profile, lang)
        req.trace.count("period_extremes", len(extremes))
        lines.extend(extremes)
    found = distinct_found(results)
    if not found:
        lines.append(say("no_guess", lang))
    return MultiAnswer("\n".join(lines), fact_sources(found), results, changes)
