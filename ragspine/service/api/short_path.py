"""``POST /v1/ask`` answered below FastAPI's routing when the route would answer it the same
way: a JSON body (``application/json``) that ``AskRequest`` accepts, from a key that names a
caller (the same ``key_of`` and key ring as the route). The route's steps are taken here
without its per-request machinery (dependency solving, the body read and validated a second
time, the response model's pass), which cost about as much as the FAQ lookup itself:

- the FAQ step (``routes.faq_step``): a vetted hit answers at once;
- else the engine (``routes.answered``): on its pool, within the timeout, the same 504 and 422
  as the route's (``errors.http_problem``); an unexpected error is raised as the route's would
  be, to the app's own handler of errors (a 500 problem, logged).

Anything else, a bad body or key, a media type that is JSON to FastAPI only (``+json``), goes
on to the app with the body it sent, so every refusal is the route's own (problem+json) and
nothing is answered here that the route would refuse. It sits inside the body limit and the
request log: its body is bounded and timed like any other, and it gets its request id and its
log line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from fastapi import HTTPException

from ragspine.agent.agent import AgentResult
from ragspine.service.api import errors
from ragspine.service.api.pinning import is_ask
from ragspine.service.api.routes import AskRequest, answered, faq_step, key_of, off_loop, traced
from ragspine.service.keys import Caller


class ShortPath:
    """ASGI middleware: answer an ask the route would answer (see the module); hand on the
    rest."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if not is_ask(scope):
            await self.app(scope, receive, send)
            return
        messages, body, whole = [], b"", True
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                whole = False  # the client left, or the body limit refused it: the app's turn
                break
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        state = scope["app"].state
        # the key check on a thread where the stores are across the network (routes.off_loop)
        asked = await off_loop(state, _accepted, scope, body) if whole else None
        if asked is None:
            await self.app(scope, _replay(messages, receive), send)
            return
        question, who = asked
        seen = scope.setdefault("state", {})  # what the request log reports, as the route sets
        seen["caller"] = who.name
        trace = traced(seen)
        try:
            result = await faq_step(state, question, who, trace)
            seen["faq"] = trace.codes.get("faq", "-")
            if result is None:
                result = await answered(state, question, who, trace)
        except HTTPException as exc:  # the route's 422 or 504, as its handler words it
            await errors.http_problem(exc, seen.get("request_id"))(scope, receive, send)
            return
        seen["route"] = result.route
        await _send_json(send, _record(result))


def _accepted(scope: Any, body: bytes) -> tuple[AskRequest, Caller] | None:
    """The request and its caller, or None when the route must answer (it refuses it)."""
    headers = _headers(scope)
    if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return None
    try:
        asked = AskRequest.model_validate(json.loads(body))
        who = scope["app"].state.keys.caller(key_of(headers))
    except Exception:  # whatever went wrong, the route says it, its own way
        return None
    return None if who is None else (asked, who)


def _record(result: AgentResult) -> bytes:
    """The response body: the record serialised once, as the route's response model does."""
    return result.to_record().model_dump_json().encode()


async def _send_json(send: Any, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-length", str(len(body)).encode()),
                (b"content-type", b"application/json"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _headers(scope: Any) -> Mapping[str, str]:
    """The first value of each header, by its lower-case name (as Starlette's ``get``)."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers") or []:
        found.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return found


def _replay(messages: list[Any], receive: Any) -> Any:
    """A ``receive`` that gives the messages already read, then the client's own."""
    pending = list(messages)

    async def replay() -> Any:
        return pending.pop(0) if pending else await receive()

    return replay
