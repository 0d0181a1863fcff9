"""The orchestrator: 意图解析 → 澄清网关 → 安全门 → 三路分流 → tool-use 循环 → 合成回答.

``answer_question`` is the one public entry point, and the anti-fabrication guard lives here,
in control flow rather than in a prompt:

* structured: a found fact is rendered from its stored value and lineage, the model's prose is
  discarded; no found fact means an honest refusal. A model that never called the tool, or that
  called it with arguments the question contradicts, is overruled by a deterministic query.
* multi-sub-task: executed without the LLM; the difference of two comparable periods is computed.
* narrative: the model's prose is trusted, its citations are not (see ``narrative.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from ragspine.agent.asked_scale import asked_scale
from ragspine.agent.clarify import DECLINED_QUANTITY, declined_line
from ragspine.agent.described_answer import described_answer, described_criteria
from ragspine.agent.intent import (
    CLARIFY_ANSWER_WITH_ASSUMPTIONS,
    CLARIFY_ASK_FIRST,
    CLARIFY_NONE,
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ROUTE_COMPOSITE,
    ROUTE_NARRATIVE,
    ClarificationResult,
    IntentParser,
    RuleIntentParser,
    clarify_scope,
)
from ragspine.agent.narrative import NarrativeRetriever, run_narrative
from ragspine.agent.passage_periods import asked_periods, base_periods
from ragspine.agent.query_tools import (
    QUERY_METRIC,
    STATUS_FOUND,
    STATUS_NOT_FOUND,
    STATUS_UNRECOGNIZED,
    Source,
    ToolResult,
    build_query_metric_tool_anthropic,
)
from ragspine.agent.question import validate_question
from ragspine.agent.record import AnswerRecord
from ragspine.agent.render import (
    asked_decimals,
    distinct_found,
    fact_line,
    fact_sources,
    format_value,
    not_found_answer,
    unrecognized_answer,
)
from ragspine.agent.request import DEGRADED_PROVIDER, Request, note_provider_error
from ragspine.agent.said_periods import said_periods
from ragspine.agent.stated_figures import stated_answer
from ragspine.agent.subjects import WORD
from ragspine.agent.subtasks import (
    SubTask,
    multi_subtask_answer,
    query,
    subtasks,
)
from ragspine.agent.wording import ZH, Language, language_of, say
from ragspine.errors import ProviderError
from ragspine.llm import LLMProvider, ask_model
from ragspine.llm.prompts import STRUCTURED_SYSTEM, slots_message
from ragspine.observability import Trace
from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.glossary import glossary_for
from ragspine.sensitivity import DEFAULT_CLEARANCE, check_level
from ragspine.storage.fact_store import FactStore

MAX_TOOL_ITERATIONS = 5

PROVIDER_UNAVAILABLE = say("provider_unavailable", ZH)  # a Chinese question's; all in wording.py


@dataclass
class AgentResult:
    """The answer and how it came about.

    ``degraded`` names why the answer is less than it would be with every part working
    (``provider_unavailable``, ``narrative_unavailable``), or is None. ``model_text`` is the
    narrative model's prose before the guard held its numbers to their sources: for audits
    only, never shown, and left out of the record. ``faq_id`` is the vetted item that
    answered, on the engine's ``faq`` route.
    """

    answer: str
    route: str
    clarification: ClarificationResult
    tool_results: list[ToolResult] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    trace: Trace = field(default_factory=Trace)
    degraded: str | None = None
    model_text: str | None = None
    question: str = ""
    faq_id: int | None = None
    changes: list[str] = field(default_factory=list)  # metrics whose asked change is given
    criteria: list[str] = field(default_factory=list)  # metrics that only picked the entity

    @property
    def language(self) -> Language:
        """The language of the answer's own words: the question's (``wording.language_of``)."""
        return language_of(self.question)

    def to_record(self) -> AnswerRecord:
        """The one conversion to what every door gives (``ragspine ask --json``, the service,
        the eval scorers): validated, versioned, without ``model_text``."""
        c, t = self.clarification, self.trace
        return AnswerRecord.model_validate(
            {
                "request_id": t.request_id,
                "question": self.question,
                "language": self.language,
                "answer": self.answer,
                "route": self.route,
                "clarification": {
                    "mode": c.mode,
                    "question": c.question or None,
                    "assumption_note": c.assumption_note or None,
                    "assumed_slots": dict(c.assumed_slots),
                    "narrowing_options": list(c.narrowing_options),
                    "declined": c.declined or None,
                    "declined_kind": c.decline_kind or None,
                },
                "sources": self.sources,
                "tool_results": self.tool_results,
                "degraded": self.degraded,
                "faq_id": self.faq_id,
                "changes": self.changes,
                "criteria": self.criteria,
                "trace": {
                    "codes": t.codes,
                    "counts": t.counts,
                    "flags": t.flags,
                    "ids": t.ids,
                    "timings_ms": t.timings_ms,
                    "fabrication_guard_triggered": t.fabrication_guard_triggered,
                },
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """The record, as JSON-ready data."""
        return self.to_record().model_dump(mode="json")


def answer_question(
    question: str,
    store: FactStore,
    provider: LLMProvider,
    *,
    reference_date: date | None = None,
    narrative_retriever: NarrativeRetriever | None = None,
    intent_parser: IntentParser | None = None,
    profile: DomainProfile | None = None,
    clearance: str = DEFAULT_CLEARANCE,
    rerank: bool = False,
    trace: Trace | None = None,
) -> AgentResult:
    """Answer one question; numbers come only from the fact store, each with its source.

    ``clearance`` is the caller's: documents above it are invisible to the narrative channel.
    ``rerank`` asks the provider to reorder retrieved chunks before synthesis. ``trace`` is
    one begun by the caller (the engine's FAQ step), or a new one.
    """
    check_level(clearance)
    trace = trace if trace is not None else Trace()
    req = Request(
        question=validate_question(question),
        store=store,
        provider=provider,
        reference_date=reference_date or date.today(),
        profile=profile or default_profile(),
        trace=trace,
        retriever=narrative_retriever,
        clearance=clearance,
        rerank=rerank,
    )
    trace.code("clearance", clearance)
    with trace.span("total"):
        result = _answer(req, intent_parser)
    trace.count("sources", len(result.sources))
    trace.emit()
    return result


def _answer(req: Request, parser: IntentParser | None) -> AgentResult:
    trace, question, prof, ref = req.trace, req.question, req.profile, req.reference_date
    lang = req.language
    with trace.span("parse"):
        intent = (parser or RuleIntentParser(prof)).parse(question, ref)
    if intent.raw_question != question:
        # The gate screens the raw question; a parser cannot substitute its own.
        trace.flag("raw_question_restored")
        intent = replace(intent, raw_question=question)
    with trace.span("clarify"):
        clar = clarify_scope(intent, ref, profile=prof)
    if intent.stated is not None and clar.decline_kind == DECLINED_QUANTITY:
        with trace.span("narrative"):  # 前五名客户…的比例: the report's own figure, where stated
            stated = stated_answer(req, intent.stated)
        if stated is not None:
            trace.code("route", ROUTE_NARRATIVE)
            return AgentResult(
                answer=stated.text,
                route=ROUTE_NARRATIVE,
                clarification=ClarificationResult(mode=CLARIFY_NONE),
                sources=stated.sources,
                trace=trace,
                degraded=stated.degraded,
                model_text=stated.model_text,
                question=question,
            )
    trace.code("route", intent.route)
    if intent.corrections:  # words read as the name they misspell: counted, never the words
        trace.count("typos_read", len(intent.corrections))
    trace.code("clarification", clar.mode)
    if clar.decline_kind:
        trace.code("declined", clar.decline_kind)
    done = AgentResult(
        answer="", route=intent.route, clarification=clar, trace=trace, question=question
    )

    # Early returns, in this order: nothing below runs for a refusal or a clarifying question.
    if clar.mode in (CLARIFY_OUT_OF_SCOPE_ENTITY, CLARIFY_ASK_FIRST):
        done.answer = clar.question
        return done

    if intent.route == ROUTE_NARRATIVE:
        with trace.span("narrative"):
            done.answer, done.sources, done.degraded, done.model_text = run_narrative(
                req,
                define=intent.definition,
                subjects=intent.subjects,
                figure=intent.asks_figure,
                periods=asked_periods(intent),
            )
        if trace.codes.get("narrative") == "no_subject":  # the name, for --json; not the answer
            held = [s for s in intent.subjects if s.kind != WORD]
            clar.declined, clar.decline_kind = held[0].name if held else "", "subject"
        return done

    tasks = subtasks(intent, clar, prof)
    trace.count("subtasks", len(tasks))
    with trace.span("structured"):
        if not tasks and intent.described is None:
            trace.code("structured", "no_query")
            answer, sources, results = say("no_query", lang), list[Source](), list[ToolResult]()
        elif len(tasks) > 1 or intent.described is not None:
            multi = (  # the fastest-growing market: its parts ranked on growth, then asked
                described_answer(req, intent, clar)
                if intent.described is not None
                else multi_subtask_answer(req, tasks, intent)
            )
            answer, sources, results, done.changes = (
                multi.text,
                multi.sources,
                multi.results,
                multi.changes,
            )
            if done.changes:
                trace.count("changes", len(done.changes))
            done.criteria = described_criteria(intent, multi.results, clar)
        else:
            try:
                answer, sources, results = _run_structured(req, tasks[0])
            except ProviderError as exc:
                note_provider_error(trace, exc)
                answer, sources, results = say("provider_unavailable", lang), [], []
                done.degraded = DEGRADED_PROVIDER
    statuses: list[str] = [r["status"] for r in results]
    for status in (STATUS_FOUND, STATUS_NOT_FOUND, STATUS_UNRECOGNIZED):
        if statuses.count(status):
            trace.count(f"status_{status}", statuses.count(status))
    trace.flag("fabrication_guard_triggered", bool(results) and STATUS_FOUND not in statuses)
    if intent.declined is not None and not clar.declined:
        # 香港的收入和坪效: the revenue is answered, the quantity not held is named, no number
        answer = f"{declined_line(intent.declined, lang)}\n{answer}"
        clar.declined, clar.decline_kind = intent.declined, DECLINED_QUANTITY
        trace.code("declined", DECLINED_QUANTITY)
    if clar.mode == CLARIFY_ANSWER_WITH_ASSUMPTIONS and done.degraded is None:
        answer = f"{clar.assumption_note}\n{answer}"
    if intent.route == ROUTE_COMPOSITE:
        with trace.span("narrative"):
            narrative = run_narrative(
                req, facts=results, periods=asked_periods(intent), base=base_periods(intent)
            )
        answer = f"{answer}\n\n{say('attribution', lang)}\n{narrative.text}"
        sources = sources + [s for s in narrative.sources if s not in sources]
        done.degraded = done.degraded or narrative.degraded
        done.model_text = narrative.model_text
    done.answer, done.sources, done.tool_results = answer, sources, results
    return done


# --------------------------------------------------------------------------------------------
# Single sub-task: the tool-use loop and the guard
# --------------------------------------------------------------------------------------------


def _run_structured(req: Request, task: SubTask) -> tuple[str, list[Source], list[ToolResult]]:
    """The tool loop, then the guard. A ProviderError propagates: the caller degrades."""
    trace = req.trace
    results = _run_tool_loop(req, task)
    if not results:
        # The model answered without the tool: its text is never returned. Query ourselves.
        trace.flag("forced_tool_call")
        results = [query(req, task.args())]
        trace.count("tool_calls")
    answer, sources = _structured_answer(results, req)
    return answer, sources, results


def _run_tool_loop(req: Request, task: SubTask) -> list[ToolResult]:
    """Call the model, run its query_metric calls (≤ MAX_TOOL_ITERATIONS rounds), keep results."""
    trace, prof = req.trace, req.profile
    tools: list[dict[str, object]] = [
        prof.memo("tool_anthropic", lambda: build_query_metric_tool_anthropic(prof))
    ]
    messages: list[dict[str, object]] = [
        {"role": "user", "content": slots_message(req.question, task.args())}
    ]
    results: list[ToolResult] = []
    for _ in range(MAX_TOOL_ITERATIONS):
        with trace.span("llm"):
            response = ask_model(
                req.provider, system=STRUCTURED_SYSTEM, messages=messages, tools=tools
            )
        trace.count("llm_calls")
        for key, value in response.usage.items():
            trace.count(key, value)
        if not response.tool_calls:
            break
        trace.count("tool_iterations")
        messages.append({"role": "assistant", "content": list(response.raw_content)})
        blocks: list[dict[str, object]] = []
        reply: dict[str, Any]
        for call in response.tool_calls:
            if not isinstance(call.input, dict):
                # A provider that passes a string or a list as tool input: recorded, answered
                # with an error result, never executed and never a crash.
                trace.count("malformed_tool_calls")
                reply = {"status": "error", "message": "tool input must be a JSON object"}
                blocks.append(_tool_result_block(call.id, reply, is_error=True))
                continue
            if call.name != QUERY_METRIC:
                trace.count("unknown_tool_calls")
                reply = {"status": "error", "message": f"unknown tool {call.name!r}"}
                blocks.append(_tool_result_block(call.id, reply, is_error=True))
                continue
            result = query(req, _reconcile(call.input, task, req))
            trace.count("tool_calls")
            results.append(result)
            blocks.append(_tool_result_block(call.id, result))
        messages.append({"role": "user", "content": blocks})
    else:
        trace.flag("tool_loop_capped")
    return results


def _tool_result_block(
    call_id: str, result: ToolResult | dict[str, Any], *, is_error: bool = False
) -> dict[str, object]:
    block: dict[str, object] = {
        "type": "tool_result",
        "tool_use_id": call_id,
        "content": json.dumps(result, ensure_ascii=False),
    }
    if is_error:
        block["is_error"] = True
    return block


def _reconcile(model_args: dict[str, Any], task: SubTask, req: Request) -> dict[str, str]:
    """The question's slots win over the model's arguments when the two disagree."""
    prof, ref = req.profile, req.reference_date
    mine = task.args()
    if model_args == mine:
        return mine
    g = glossary_for(prof)
    channel = model_args.get("channel") or prof.default_channel

    def same(norm: Any, mine: str, theirs: Any) -> bool:
        if not isinstance(theirs, str):
            return False
        value = norm(theirs)
        return value is not None and value == norm(mine)

    agree = (
        same(g.normalize_metric, task.metric, model_args.get("metric"))
        and same(g.normalize_entity, task.entity, model_args.get("entity"))
        and same(lambda v: g.normalize_period(v, ref), task.period, model_args.get("period"))
        and same(g.normalize_channel, task.channel, channel)
    )
    if not agree:
        req.trace.count("tool_args_overridden")
    return mine


def _structured_answer(tool_results: list[ToolResult], req: Request) -> tuple[str, list[Source]]:
    """The guard: found → render from stored values; otherwise an honest refusal."""
    question, prof, lang = req.question, req.profile, req.language
    found = distinct_found(tool_results)
    if found:
        decimals = asked_decimals(question)
        asked = asked_scale(question)
        lines = [fact_line(r, prof, decimals, lang, asked) for r in found]
        return "\n".join(lines), fact_sources(found)
    not_found = [r for r in tool_results if r["status"] == "not_found"]
    if not_found:
        said = said_periods(question, req.reference_date)  # 2021Q4(2021年第四季度)
        return not_found_answer(not_found[0], prof, lang, said), []
    unrecognized = [r for r in tool_results if r["status"] == "unrecognized_param"]
    if unrecognized:
        return unrecognized_answer(unrecognized[0], question, prof, lang), []
    return say("no_query", lang), []


__all__ = [
    "MAX_TOOL_ITERATIONS",
    "AgentResult",
    "SubTask",
    "answer_question",
    "format_value",
]
