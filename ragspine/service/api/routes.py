"""``POST /v1/ask``, ``GET /healthz``, ``GET /readyz``.

The caller's clearance comes from its API key. The one ``Engine`` answers: its FAQ route first
(a vetted hit answers with its own sources and never reaches the provider, the fact store or
the retriever), then the agent. The response is the engine's ``AnswerRecord``, the shape every
door gives, so ``result.sources`` reach it unchanged.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from datetime import date
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool

from ragspine.agent.agent import AgentResult
from ragspine.agent.record import AnswerRecord
from ragspine.engine import Engine
from ragspine.errors import InvalidQuestionError
from ragspine.observability import Trace
from ragspine.service.api.spec import problems
from ragspine.service.keys import Caller
from ragspine.storage.generations import is_pinned

T = TypeVar("T")

router = APIRouter()
logger = logging.getLogger("ragspine.service")


_OK = r"[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
QUESTION_PATTERN = rf"^{_OK}*[^\s\x00-\x1f\x7f-\x9f]{_OK}*$"


def _iso_only(value: object) -> object:
    """A date is written as a string (YYYY-MM-DD): a number is refused, not read as seconds
    since 1970."""
    if not isinstance(value, str | date):
        raise ValueError("write the date as YYYY-MM-DD")
    return value


IsoDate = Annotated[date, BeforeValidator(_iso_only)]


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # the pattern says in the document what the engine refuses (with a clearer message than a
    # pattern's): blank questions and control characters other than tab and line breaks
    question: str = Field(
        min_length=1, max_length=2000, json_schema_extra={"pattern": QUESTION_PATTERN}
    )
    # the day 'last year' is relative to [default: today]; never the day an item is valid on
    # the pattern says in the document what ge/le check: the years 1900 to 2199
    reference_date: IsoDate | None = Field(
        default=None,
        ge=date(1900, 1, 1),
        le=date(2199, 12, 31),
        json_schema_extra={"pattern": r"^(19[0-9]{2}|2[01][0-9]{2})-"},
    )
    rerank: StrictBool = False  # true or false: "yes", 1 and "false" are refused, not guessed


BEARER = HTTPBearer(auto_error=False, description="an API key: `Authorization: Bearer KEY`")
API_KEY = APIKeyHeader(name="X-API-Key", auto_error=False, description="an API key")


def key_of(headers: Mapping[str, str]) -> str | None:
    """The key a request carries: ``Authorization: Bearer KEY`` (read as ``HTTPBearer`` reads
    it), else ``X-API-Key: KEY``. ``headers`` maps lower-case names to their first value."""
    authorization = headers.get("authorization") or ""
    scheme, _, credentials = authorization.partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    return headers.get("x-api-key")


def traced(state: Mapping[str, Any]) -> Trace:
    """A request's trace: its id the response's, and how its store generations were pinned
    (``pinning``: the code ``generations``, listened or queried) where they were."""
    rid = state.get("request_id")
    trace = Trace(request_id=str(rid)) if rid else Trace()
    if state.get("generations"):
        trace.code("generations", str(state["generations"]))
    return trace


async def off_loop(state: Any, call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` on the event loop for local stores, on a thread where the service's
    stores are across the network (``state.networked``: a PostgreSQL database), so a slow
    socket never stalls every other request on the loop; on the loop again when the request's
    generations were pinned (``pinning``): the keys and FAQ it reads are then in memory."""
    if getattr(state, "networked", False) and not is_pinned():
        return await anyio.to_thread.run_sync(call, *args)
    return call(*args)


async def caller(
    request: Request,
    _bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)],
    _api_key: Annotated[str | None, Depends(API_KEY)],
) -> Caller:
    """The caller its key names (``key_of``); the two schemes are declared for the OpenAPI
    document.

    Checked on the event loop (an ``async`` dependency: FastAPI would run a plain one on a
    thread): a SHA-256 and a ``stat`` of the keys file cost less than handing the request to a
    thread and back, which every request would pay. A changed file is re-read here, rarely."""
    key = key_of(request.headers)
    found: Caller | None = await off_loop(request.app.state, request.app.state.keys.caller, key)
    if found is None:
        why = "no API key" if not key else "unknown API key"
        raise HTTPException(401, why, headers={"WWW-Authenticate": "Bearer"})
    request.state.caller = found.name
    return found


@router.post(
    "/v1/ask", response_model=AnswerRecord, responses=problems(400, 401, 408, 413, 422, 500, 504)
)
async def ask(
    body: AskRequest, request: Request, who: Annotated[Caller, Depends(caller)]
) -> AnswerRecord:
    """Reached by a request the short path (``short_path``) leaves to the routing: the same
    answer, by the same steps (``faq_step``, then ``answered``)."""
    state = request.app.state
    trace = traced(request.scope.get("state", {}))
    result = await faq_step(state, body, who, trace)
    request.state.faq = trace.codes.get("faq", "-")
    if result is None:
        result = await answered(state, body, who, trace)
    request.state.route = result.route
    record: AnswerRecord = result.to_record()
    return record


async def faq_step(state: Any, asked: AskRequest, who: Caller, trace: Trace) -> AgentResult | None:
    """The FAQ step on the event loop, outside the engine's pool: a hit is never queued
    behind answers that are slow or abandoned, and costs no thread hand-off (two thread
    switches cost more than the lookup: an indexed read of the local cache and, when a
    variant matches, the question's parse, both well under a millisecond). A 422 for a
    question the engine refuses."""
    engine = state.engine
    try:
        found: AgentResult | None = await off_loop(
            state,
            lambda: engine.faq_answer(
                asked.question,
                reference_date=asked.reference_date,
                clearance=who.clearance,
                trace=trace,
            ),
        )
    except InvalidQuestionError as exc:
        raise HTTPException(422, str(exc)) from None
    return found


async def answered(state: Any, asked: AskRequest, who: Caller, trace: Trace) -> AgentResult:
    """The engine's answer past the FAQ step (taken on ``trace``), on the engine's pool
    within the service's timeout: a 504 past it (the thread is abandoned and ends on its own,
    in the engine's pool, so FAQ hits and /readyz are never queued behind it), a 422 for a
    question the engine refuses."""
    engine: Engine = state.engine

    def answer() -> AgentResult:
        return engine.ask(
            asked.question,
            reference_date=asked.reference_date,
            clearance=who.clearance,
            rerank=asked.rerank,
            faq=False,  # asked just before, on the same trace
            trace=trace,
        )

    try:
        with anyio.fail_after(state.settings.timeout):
            result: AgentResult = await anyio.to_thread.run_sync(
                answer, abandon_on_cancel=True, limiter=state.engine_limiter
            )
            return result
    except TimeoutError:
        raise HTTPException(504, f"no answer within {state.settings.timeout:g} s") from None
    except InvalidQuestionError as exc:
        raise HTTPException(422, str(exc)) from None


@router.get("/healthz", responses=problems(500))
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", responses=problems(500, 503))
async def readyz(request: Request) -> dict[str, Any]:
    """Ready when the fact store answers a query; no counts (of facts, items or keys: they say
    nothing about readiness and something about the deployment)."""
    state = request.app.state
    started = time.perf_counter()
    try:
        await anyio.to_thread.run_sync(state.engine.store.count)
    except Exception as exc:  # the store went away: not ready, and say so
        raise HTTPException(503, f"the fact store is not readable: {type(exc).__name__}") from exc
    return {
        "status": "ready",
        "corpus": state.engine.retriever is not None,
        "ms": round((time.perf_counter() - started) * 1000, 3),
    }
