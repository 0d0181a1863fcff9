"""``POST /v1/ask``, ``GET /healthz``, ``GET /readyz``.

The caller's clearance comes from its API key. A question goes to the FAQ cache first; a vetted
hit answers with its own sources and never reaches the provider, the fact store or the
retriever. Otherwise the one ``Engine`` answers, and ``result.sources`` reach the response
unchanged.
"""

from __future__ import annotations

import logging
import time
from datetime import date
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Header, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from ragspine.agent.question import validate_question
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


class Source(BaseModel):
    doc: str
    locator: str


class Clarification(BaseModel):
    mode: str
    question: str | None = None
    assumption_note: str | None = None
    narrowing_options: list[str] = Field(default_factory=list)


class AskResponse(BaseModel):
    request_id: str
    answer: str
    route: str  # structured | narrative | composite | faq
    clarification: Clarification
    sources: list[Source]
    degraded: str | None = None
    faq_id: int | None = None


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


@router.post("/v1/ask", response_model=AskResponse)
async def ask(
    body: AskRequest, request: Request, who: Annotated[Caller, Depends(caller)]
) -> AskResponse:
    state = request.app.state
    rid = request.state.request_id
    try:
        question = validate_question(body.question)  # the FAQ reads what the engine would
    except InvalidQuestionError as exc:
        raise HTTPException(422, str(exc)) from None
    faq = state.faq
    if faq is not None:
        found = await anyio.to_thread.run_sync(
            lambda: faq.lookup(
                question,
                profile=state.engine.profile,
                clearance=who.clearance,
                today=date.today(),  # validity by the server's clock, never the caller's
                reference_date=body.reference_date,
            )
        )
        request.state.faq = found.reason
        if found.hit and found.item is not None:
            request.state.route = "faq"
            _trace_faq(found.item.id, who.clearance)
            item = found.item.item
            return AskResponse(
                request_id=rid,
                answer=item.answer,
                route="faq",
                clarification=Clarification(mode="none"),
                sources=[Source(doc=s.doc, locator=s.locator) for s in item.sources],
                faq_id=found.item.id,
            )

    def answer() -> Any:
        return state.engine.ask(
            body.question,
            reference_date=body.reference_date,
            clearance=who.clearance,
            rerank=body.rerank,
        )

    try:
        with anyio.fail_after(state.settings.timeout):
            # abandoned on timeout: the caller gets its 504 now; the thread ends on its own,
            # in the engine's pool, so FAQ hits and /readyz are never queued behind it
            result = await anyio.to_thread.run_sync(
                answer, abandon_on_cancel=True, limiter=state.engine_limiter
            )
    except TimeoutError:
        raise HTTPException(504, f"no answer within {state.settings.timeout:g} s") from None
    except InvalidQuestionError as exc:
        raise HTTPException(422, str(exc)) from None
    request.state.route = result.route
    c = result.clarification
    return AskResponse(
        request_id=rid,
        answer=result.answer,
        route=result.route,
        clarification=Clarification(
            mode=c.mode,
            question=c.question or None,
            assumption_note=c.assumption_note or None,
            narrowing_options=list(c.narrowing_options),
        ),
        sources=[Source(doc=s["doc"], locator=s["locator"]) for s in result.sources],
        degraded=result.degraded,
    )


def _trace_faq(item_id: int, clearance: str) -> None:
    """A hit is traced like any answer: codes and counts, never the text."""
    trace = Trace()
    trace.code("route", "faq")
    trace.code("clearance", clearance)
    trace.count("faq_item", item_id)
    trace.emit()


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
        "faq_items": len(state.faq.items()) if state.faq is not None else 0,
        "keys": len(state.keys),
        "ms": round((time.perf_counter() - started) * 1000, 3),
    }
