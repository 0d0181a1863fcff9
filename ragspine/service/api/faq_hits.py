"""FAQ hits answered below FastAPI's routing: the request the route would answer from the FAQ,
answered by the same checks without its per-request machinery (dependency solving, the response
model's validation), which cost a hit several times the lookup itself.

Only a hit is answered here, and only when the route would answer it the same way: the body is
JSON (``application/json``) that ``AskRequest`` accepts, the key names a caller (the same
``key_of`` and key ring as the route), and the engine's own ``faq_answer`` finds a vetted item for
the caller's clearance. Anything else, a miss, a bad body or key, an error, goes on to the app
with the body it sent, so every refusal is the route's own (problem+json) and nothing is answered
here that the route would refuse. It sits inside the body limit and the request log: a hit's body
is bounded and timed like any other, and it gets its request id and its log line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ragspine.engine import Engine
from ragspine.service.api.routes import AskRequest, key_of, off_loop, traced

ASK = "/v1/ask"


class FaqHits:
    """ASGI middleware: answer a FAQ hit at once (see the module); hand on everything else."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != ASK:
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
        answer = None
        if whole:  # on a thread where the stores are across the network (routes.off_loop)
            answer = await off_loop(scope["app"].state, _hit, scope, body)
        if answer is None:
            await self.app(scope, _replay(messages, receive), send)
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-length", str(len(answer)).encode()),
                    (b"content-type", b"application/json"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": answer})


def _hit(scope: Any, body: bytes) -> bytes | None:
    """The response body of a FAQ hit, or None when the route must answer."""
    headers = _headers(scope)
    if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return None
    state = scope["app"].state
    try:
        asked = AskRequest.model_validate(json.loads(body))
        who = state.keys.caller(key_of(headers))
        if who is None:
            return None
        engine: Engine = state.engine
        trace = traced(scope.get("state", {}))
        result = engine.faq_answer(
            asked.question,
            reference_date=asked.reference_date,
            clearance=who.clearance,
            trace=trace,
        )
    except Exception:  # whatever went wrong, the route says it, its own way
        return None
    if result is None:
        return None
    seen = scope.setdefault("state", {})  # what the request log reports, as the route sets it
    seen.update(caller=who.name, faq=trace.codes.get("faq", "-"), route=result.route)
    return result.to_record().model_dump_json().encode()


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
