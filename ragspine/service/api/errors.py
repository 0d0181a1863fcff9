"""Errors as ``application/problem+json`` (RFC 9457): a title, a status, a detail a person can
act on and the request id; never a stack trace, never the question or an answer."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

PROBLEM = "application/problem+json"
TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    404: "Not found",
    405: "Method not allowed",
    503: "Not ready",
    504: "Timeout",
}
logger = logging.getLogger("ragspine.service")


def problem(
    status: int, title: str, detail: str, request: Request, headers: dict[str, str] | None = None
) -> JSONResponse:
    return problem_for(status, title, detail, getattr(request.state, "request_id", None), headers)


def problem_for(
    status: int, title: str, detail: str, request_id: str | None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:  # fmt: skip
    """The problem by the request's id: for an answer sent below FastAPI (``short_path``)."""
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
        "request_id": request_id,
    }
    return JSONResponse(body, status_code=status, media_type=PROBLEM, headers=headers)


def http_problem(exc: HTTPException, request_id: str | None) -> JSONResponse:
    """An ``HTTPException`` as the app's handler answers it, wherever it was raised."""
    title = TITLES.get(exc.status_code, "Request failed")
    headers = dict(exc.headers) if exc.headers else None
    return problem_for(exc.status_code, title, str(exc.detail), request_id, headers)


def install(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":
            at = first.get("loc", ("body", "?"))[-1]
            return problem(422, "Invalid request", f"the body is not JSON (at {at})", request)
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
        detail = f"{where}: {first.get('msg', 'invalid')}{more}"
        return problem(422, "Invalid request", detail, request)

    @app.exception_handler(HTTPException)
    async def http(request: Request, exc: HTTPException) -> JSONResponse:
        return http_problem(exc, getattr(request.state, "request_id", None))

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> JSONResponse:
        logger.error(
            "request %s failed: %s", getattr(request.state, "request_id", "?"), type(exc).__name__
        )
        return problem(500, "Internal error", "the request failed; see the service log", request)
