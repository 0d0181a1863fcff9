"""The answer for an entity described by a held criterion (described.py): the fastest-growing
market's revenue, the net profit of 最大市场.

Every part of the company is queried on the criterion for the period asked (a growth: the
asked period's growth), each sourced figure stated; the part at the asked position names the
entity, and the asked figure is that part's, with its source. Never the group's figure, never a
part picked on partial data: where a part's criterion figure is missing, or two parts tie at the
position asked, the description is declined by its words, with no figure.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from ragspine.agent.clarify import DECLINED_SUBJECT, described_declined
from ragspine.agent.described import HIGH, Described
from ragspine.agent.names import entity_name, metric_name
from ragspine.agent.query_tools import FoundResult, ToolResult
from ragspine.agent.ranks import parts
from ragspine.agent.render import (
    asked_decimals,
    fact_amount,
    fact_line,
    fact_sources,
    period_label,
)
from ragspine.agent.request import Request
from ragspine.agent.slots import ClarificationResult, ParsedIntent
from ragspine.agent.subtasks import MultiAnswer, multi_subtask_answer, query, subtasks
from ragspine.agent.wording import say


def _winner(found: list[FoundResult], d: Described) -> FoundResult | None:
    """The part at the asked position of the criterion's order, None on a tie there."""
    order = sorted(found, key=lambda r: Decimal(r["value_text"]), reverse=d.direction == HIGH)
    if len(order) < d.place:
        return None
    pick = order[d.place - 1]
    ties = [r for r in order if Decimal(r["value_text"]) == Decimal(pick["value_text"])]
    return pick if len(ties) == 1 else None


def described_answer(req: Request, intent: ParsedIntent, clar: ClarificationResult) -> MultiAnswer:
    """The criterion's figure for every part, the part it picks, then the asked figures of
    that part (see the module); declined by the description where no part is picked."""
    d, prof, lang = intent.described, req.profile, req.language
    assert d is not None and d.criterion is not None
    req.trace.code("structured", "described")
    others = parts(prof)
    ranked = replace(
        intent, metrics=[d.criterion], metric=d.criterion, entities=others, entity=others[0],
        periods=intent.periods[-1:], channels=[], change=False, rank=None,
    )  # fmt: skip
    results = [query(req, t.args()) for t in subtasks(ranked, clar, prof)]
    req.trace.count("tool_calls", len(results))
    found = [r for r in results if r["status"] == "found"]
    pick = _winner(found, d) if len(found) == len(results) and results else None
    if pick is None:
        req.trace.code("described", "unresolved")
        return MultiAnswer(described_declined(d.words, prof, lang), [], [], [])
    decimals = asked_decimals(req.question)
    lines = [fact_line(r, prof, decimals, lang) for r in found]
    lines.append(
        say(
            "described.pick",
            lang,
            words=d.words,
            period=period_label(pick["period_type"], pick["period"]),
            metric=metric_name(d.criterion, prof, lang),
            entity=entity_name(pick["entity"], prof, lang),
            amount=fact_amount(pick, prof, lang=lang),
        )
    )
    asked = replace(intent, entities=[pick["entity"]], entity=pick["entity"], rank=None)
    tasks = subtasks(asked, clar, prof)
    answer = multi_subtask_answer(req, tasks, asked)
    text = "\n".join([*lines, answer.text])
    sources = fact_sources(found)
    sources += [s for s in answer.sources if s not in sources]
    return MultiAnswer(text, sources, [*results, *answer.results], answer.changes)


def described_criteria(
    intent: ParsedIntent, results: list[ToolResult], clar: ClarificationResult
) -> list[str]:
    """The criterion whose figures only picked the described entity (the record's
    ``criteria``: the answer is about the asked metric); where no entity was picked, the
    description is what is declined (``clar``), by its words."""
    d = intent.described
    if d is None or d.criterion is None:
        return []
    if not results:
        clar.declined, clar.decline_kind = d.words, DECLINED_SUBJECT
        return []
    return [d.criterion]
