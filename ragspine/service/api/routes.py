"""``POST /v1/ask``, ``GET /healthz``, ``GET /readyz``.

The caller's clearance comes from its API key. The one ``Engine`` answers: its FAQ route first
(a vetted hit answers with its own sources and never reaches the provider, the fact store or
the retriever), then the agent. The response is the engine's ``AnswerRecord``, the shape every
door gives, so ``result.sources`` reach it unchanged.
"""

from __future__ import annotations

import logging
import time
from datetime import date
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Header, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from ragspine.agent.record import AnswerRecord
from ragspine.errors import InvalidQuestionError
from ragspine.observability import Trace
from ragspine.service.keys import Caller

router = APIRouter()
logger = logging.getLogger("ragspine.service")


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=2000)
    # the day 'last year' is relative to [default: today]; never the day an item is valid on
    reference_date: date | None = Field(default=None, ge=date(1900, 1, 1), le=date(2199, 12, 31))
    rerank: bool = False


def caller(
    request: Request,
    authorization: Annotated[str | None, Header()] = None,
    x_api_key: Annotated[str | None, Header()] = None,
) -> Caller:
    """The caller its key names: ``Authorization: Bearer KEY`` or ``X-API-Key: KEY``."""
    key = x_api_key
    if authorization and authorization.lower().startswith("bearer "):
        key = authorization[7:].strip()
    found: Caller | None = request.app.state.keys.caller(key)
    if found is None:
        why = "no API key" if not key else "unknown API key"
        raise HTTPException(401, why, headers={"WWW-Authenticate": "Bearer"})
    request.state.caller = found.name
    return found


@router.post("/v1/ask", response_model=AnswerRecord)
async def ask(
    body: AskRequest, request: Request, who: Annotated[Caller, Depends(caller)]
) -> AnswerRecord:
    state = request.app.state
    engine = state.engine
    trace = Trace(request_id=request.state.request_id)  # the response's id is the trace's

    # The FAQ step on its own thread, outside the engine's pool: a hit is never queued behind
    # answers that are slow or abandoned.
    def from_faq() -> Any:
        return engine.faq_answer(
            body.question,
            reference_date=body.reference_date,
            clearance=who.clearance,
            trace=trace,
        )

    def answer() -> Any:
        return engine.ask(
            body.question,
            reference_date=body.reference_date,
            clearance=who.clearance,
            rerank=body.rerank,
            faq=False,  # asked just before, on the same trace
            trace=trace,
        )

    try:
        result = await anyio.to_thread.run_sync(from_faq)
        request.state.faq = trace.codes.get("faq", "-")
        if result is None:
            with anyio.fail_after(state.settings.timeout):
                # abandoned on timeout: the caller gets its 504 now; the thread ends on its
                # own, in the engine's pool, so FAQ hits and /readyz are never queued behind it
                result = await anyio.to_thread.run_sync(
                    answer, abandon_on_cancel=True, limiter=state.engine_limiter
                )
    except TimeoutError:
        raise HTTPException(504, f"no answer within {state.settings.timeout:g} s") from None
    except InvalidQuestionError as exc:
        raise HTTPException(422, str(exc)) from None
    request.state.route = result.route
    record: AnswerRecord = result.to_record()
    return record


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(request: Request) -> dict[str, Any]:
    state = request.app.state
    started = time.perf_counter()
    try:
        facts = await anyio.to_thread.run_sync(state.engine.store.count)
    except Exception as exc:  # the store went away: not ready, and say so
        raise HTTPException(503, f"the fact store is not readable: {type(exc).__name__}") from exc
    return {
        "status": "ready",
        "facts": facts,
        "corpus": state.engine.retriever is not None,
        "faq_items": len(state.engine.faq.items()) if state.engine.faq is not None else 0,
        "keys": len(state.keys),
        "ms": round((time.perf_counter() - started) * 1000, 3),
    }
