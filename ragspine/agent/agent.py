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

import itertools
import json
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from ragspine.agent.intent import (
    CLARIFY_ANSWER_WITH_ASSUMPTIONS,
    CLARIFY_ASK_FIRST,
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ROUTE_COMPOSITE,
    ROUTE_NARRATIVE,
    ClarificationResult,
    IntentParser,
    ParsedIntent,
    RuleIntentParser,
    clarify_scope,
)
from ragspine.agent.narrative import NarrativeRetriever, run_narrative
from ragspine.agent.query_tools import (
    QUERY_METRIC,
    STATUS_FOUND,
    STATUS_NOT_FOUND,
    STATUS_UNRECOGNIZED,
    FoundResult,
    NotFoundResult,
    Source,
    ToolResult,
    UnrecognizedResult,
    build_query_metric_tool_anthropic,
    execute_query_metric,
)
from ragspine.agent.question import validate_question
from ragspine.agent.request import DEGRADED_PROVIDER, Request
from ragspine.errors import ProviderError
from ragspine.llm import LLMProvider
from ragspine.llm.prompts import STRUCTURED_SYSTEM, slots_message
from ragspine.observability import Trace
from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.glossary import glossary_for
from ragspine.profile.periods import Period
from ragspine.sensitivity import DEFAULT_CLEARANCE, check_level
from ragspine.storage.fact_store import FactStore
from ragspine.text import fold

MAX_TOOL_ITERATIONS = 5
MAX_SUBTASKS = 48

PROVIDER_UNAVAILABLE = "AI 服务暂时不可用,请稍后重试。为避免误导,本次不提供任何数字或推测。"
NO_QUERY_POSSIBLE = "无法确定要查询的指标、实体和期间,因此不作回答;为避免误导,不提供任何推测数字。"
NOT_FOUND_TAIL = "为避免误导,不提供任何推测数字;可尝试调整期间或实体后重问。"
ATTRIBUTION_HEADING = "归因分析:"


@dataclass
class AgentResult:
    """The answer and how it came about.

    ``degraded`` names why the answer is less than it would be with every part working
    (``provider_unavailable``, ``narrative_unavailable``), or is None.
    """

    answer: str
    route: str
    clarification: ClarificationResult
    tool_results: list[ToolResult] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    trace: Trace = field(default_factory=Trace)
    degraded: str | None = None

    def to_dict(self) -> dict[str, Any]:
        c = self.clarification
        return {
            "answer": self.answer,
            "route": self.route,
            "degraded": self.degraded,
            "clarification": {
                "mode": c.mode,
                "assumed_slots": dict(c.assumed_slots),
                "assumption_note": c.assumption_note,
                "narrowing_options": list(c.narrowing_options),
                "question": c.question,
            },
            "tool_results": self.tool_results,
            "sources": self.sources,
            "trace": self.trace.to_dict(),
        }


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
) -> AgentResult:
    """Answer one question; numbers come only from the fact store, each with its source.

    ``clearance`` is the caller's: documents above it are invisible to the narrative channel.
    ``rerank`` asks the provider to reorder retrieved chunks before synthesis.
    """
    check_level(clearance)
    trace = Trace()
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
    with trace.span("parse"):
        intent = (parser or RuleIntentParser(prof)).parse(question, ref)
    if intent.raw_question != question:
        # The gate screens the raw question; a parser cannot substitute its own.
        trace.flag("raw_question_restored")
        intent = replace(intent, raw_question=question)
    with trace.span("clarify"):
        clar = clarify_scope(intent, ref, profile=prof)
    trace.code("route", intent.route)
    trace.code("clarification", clar.mode)
    done = AgentResult(answer="", route=intent.route, clarification=clar, trace=trace)

    # Early returns, in this order: nothing below runs for a refusal or a clarifying question.
    if clar.mode in (CLARIFY_OUT_OF_SCOPE_ENTITY, CLARIFY_ASK_FIRST):
        done.answer = clar.question
        return done

    if intent.route == ROUTE_NARRATIVE:
        with trace.span("narrative"):
            done.answer, done.sources, done.degraded = run_narrative(req)
        return done

    tasks = _subtasks(intent, clar, prof)
    trace.count("subtasks", len(tasks))
    with trace.span("structured"):
        if not tasks:
            trace.code("structured", "no_query")
            answer, sources, results = NO_QUERY_POSSIBLE, list[Source](), list[ToolResult]()
        elif len(tasks) > 1:
            answer, sources, results = _multi_subtask_answer(req, tasks, intent)
        else:
            answer, sources, results = _run_structured(req, tasks[0])
            if not results:
                done.degraded = DEGRADED_PROVIDER
    statuses: list[str] = [r["status"] for r in results]
    for status in (STATUS_FOUND, STATUS_NOT_FOUND, STATUS_UNRECOGNIZED):
        if statuses.count(status):
            trace.count(f"status_{status}", statuses.count(status))
    trace.flag("fabrication_guard_triggered", bool(results) and STATUS_FOUND not in statuses)
    if clar.mode == CLARIFY_ANSWER_WITH_ASSUMPTIONS and done.degraded is None:
        answer = f"{clar.assumption_note}\n{answer}"
    if intent.route == ROUTE_COMPOSITE:
        with trace.span("narrative"):
            narrative = run_narrative(req)
        answer = f"{answer}\n\n{ATTRIBUTION_HEADING}\n{narrative.text}"
        sources = sources + [s for s in narrative.sources if s not in sources]
        done.degraded = done.degraded or narrative.degraded
    done.answer, done.sources, done.tool_results = answer, sources, results
    return done


# --------------------------------------------------------------------------------------------
# Sub-tasks
# --------------------------------------------------------------------------------------------


def _subtasks(
    intent: ParsedIntent, clar: ClarificationResult, prof: DomainProfile
) -> list[SubTask]:
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


# --------------------------------------------------------------------------------------------
# Single sub-task: the tool-use loop and the guard
# --------------------------------------------------------------------------------------------


def _run_structured(req: Request, task: SubTask) -> tuple[str, list[Source], list[ToolResult]]:
    """The tool loop, then the guard; an empty result list means the provider failed."""
    trace = req.trace
    try:
        results = _run_tool_loop(req, task)
    except ProviderError as exc:
        trace.code("provider_error", type(exc).__name__)
        return PROVIDER_UNAVAILABLE, [], []
    if not results:
        # The model answered without the tool: its text is never returned. Query ourselves.
        trace.flag("forced_tool_call")
        results = [_query(req, task.args())]
        trace.count("tool_calls")
    answer, sources = _structured_answer(results, req.question, req.profile)
    return answer, sources, results


def _query(req: Request, args: dict[str, str]) -> ToolResult:
    return execute_query_metric(
        req.store, **args, reference_date=req.reference_date, profile=req.profile
    )


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
            response = req.provider.create_message(
                system=STRUCTURED_SYSTEM, messages=messages, tools=tools
            )
        trace.count("llm_calls")
        for key, value in response.usage.items():
            trace.count(key, value)
        if not response.tool_calls:
            break
        trace.count("tool_iterations")
        messages.append({"role": "assistant", "content": list(response.raw_content)})
        blocks: list[dict[str, object]] = []
        for call in response.tool_calls:
            if call.name != QUERY_METRIC:
                trace.count("unknown_tool_calls")
                reply: dict[str, Any] = {
                    "status": "error",
                    "message": f"unknown tool {call.name!r}",
                }
                blocks.append(_tool_result_block(call.id, reply, is_error=True))
                continue
            result = _query(req, _reconcile(call.input, task, req))
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


def _structured_answer(
    tool_results: list[ToolResult], question: str, prof: DomainProfile
) -> tuple[str, list[Source]]:
    """The guard: found → render from stored values; otherwise an honest refusal."""
    found = _distinct_found(tool_results)
    if found:
        lines = [_fact_line(r, prof) for r in found]
        return "\n".join(lines), _sources(found)
    not_found = [r for r in tool_results if r["status"] == "not_found"]
    if not_found:
        return _not_found_answer(not_found[0]), []
    unrecognized = [r for r in tool_results if r["status"] == "unrecognized_param"]
    if unrecognized:
        return _unrecognized_answer(unrecognized[0], question, prof), []
    return NO_QUERY_POSSIBLE, []


def _distinct_found(tool_results: list[ToolResult]) -> list[FoundResult]:
    seen: dict[tuple[str, ...], FoundResult] = {}
    for r in tool_results:
        if r["status"] == "found":
            key = (r["metric_code"], r["entity"], r["channel"], r["period_type"], r["period"])
            seen.setdefault(key, r)
    return list(seen.values())


def _sources(found: list[FoundResult]) -> list[Source]:
    out: list[Source] = []
    for r in found:
        src: Source = {"doc": r["source"]["doc"], "locator": r["source"]["locator"]}
        if src not in out:
            out.append(src)
    return out


def format_value(value: float) -> str:
    """1320.0 → '1320', 12.345 → '12.345': no float noise, no scientific notation."""
    rounded = round(float(value), 6)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.6f}".rstrip("0").rstrip(".")


def _period_label(period_type: str, period: str) -> str:
    return Period(period_type, period).label


def _fact_line(r: FoundResult, prof: DomainProfile) -> str:
    channel = "" if r["channel"] == prof.default_channel else f"({r['channel']})"
    src = r["source"]
    return (
        f"{r['entity']} {_period_label(r['period_type'], r['period'])} {r['metric_code']}{channel}:"
        f"{format_value(r['value'])} {r['unit']}(来源:{src['doc']} · {src['locator']})"
    )


def _not_found_line(r: NotFoundResult) -> str:
    n = r["normalized"]
    return (
        f"查不到:{n['metric_code']} / {n['entity']} / {n['period']}(渠道 {n['channel']})"
        "未在事实表中找到。"
    )


def _not_found_answer(r: NotFoundResult) -> str:
    return f"{_not_found_line(r)}\n{NOT_FOUND_TAIL}"


def _unrecognized_line(r: UnrecognizedResult, question: str, prof: DomainProfile) -> str:
    param, raw = r["param"], r["raw"]
    # Echo the raw value only if the user wrote it: a model's argument may carry a made-up number.
    shown = f"「{raw}」" if raw and fold(raw) in fold(question) else ""
    supported = {
        "metric": prof.metric_codes,
        "entity": prof.entity_codes,
        "channel": prof.channel_codes,
    }.get(param, [])
    if param == "period":
        # No example figures here: an answer holds only numbers with a source.
        hint = "期间请写作财年、半年或季度。"
    else:
        hint = f"支持的取值如:{'、'.join(supported)}。" if supported else ""
    return f"无法识别参数 {param}{shown},未进行查询。{hint}"


def _unrecognized_answer(r: UnrecognizedResult, question: str, prof: DomainProfile) -> str:
    return f"{_unrecognized_line(r, question, prof)}\n为避免误导,不提供任何推测数字。"


# --------------------------------------------------------------------------------------------
# Several sub-tasks: deterministic, no LLM
# --------------------------------------------------------------------------------------------


def _multi_subtask_answer(
    req: Request, tasks: list[SubTask], intent: ParsedIntent
) -> tuple[str, list[Source], list[ToolResult]]:
    req.trace.code("structured", "multi_subtask")
    results = [_query(req, t.args()) for t in tasks]
    req.trace.count("tool_calls", len(results))
    lines = []
    for r in results:
        if r["status"] == "found":
            lines.append(_fact_line(r, req.profile))
        elif r["status"] == "not_found":
            lines.append(_not_found_line(r))
        else:
            lines.append(_unrecognized_line(r, req.question, req.profile))
    if len(intent.periods) == 2:
        diffs = _differences(results, req.profile)
        req.trace.count("differences", len(diffs))
        lines.extend(diffs)
    found = _distinct_found(results)
    if not found:
        lines.append("为避免误导,不提供任何推测数字。")
    return "\n".join(lines), _sources(found), results


def _differences(results: list[ToolResult], prof: DomainProfile) -> list[str]:
    """Later minus earlier, for each series found in exactly two periods of the same type."""
    series: dict[tuple[str, str, str], list[FoundResult]] = {}
    for r in _distinct_found(results):
        series.setdefault((r["metric_code"], r["entity"], r["channel"]), []).append(r)
    lines = []
    for (metric, entity, channel), pair in series.items():
        if len(pair) != 2:
            continue
        a, b = sorted(pair, key=lambda r: Period(r["period_type"], r["period"]).sort_key)
        if a["period_type"] != b["period_type"] or a["unit"] != b["unit"]:
            continue
        delta = round(float(b["value"]) - float(a["value"]), 6)
        sign = "+" if delta > 0 else ""
        ch = "" if channel == prof.default_channel else f"({channel})"
        lines.append(
            f"{entity} {metric}{ch} {_period_label(b['period_type'], b['period'])} 较 "
            f"{_period_label(a['period_type'], a['period'])} 变化:{sign}{format_value(delta)} "
            f"{b['unit']}(由上述两项计算)"
        )
    return lines


__all__ = [
    "MAX_TOOL_ITERATIONS",
    "AgentResult",
    "SubTask",
    "answer_question",
    "format_value",
]
