"""The OpenAPI document as the service answers: every error (4xx and 5xx) is
``application/problem+json`` with the ``Problem`` shape, each route lists the errors it can give,
and the keys are a security scheme, not header parameters a client would have to guess."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from ragspine.service.api.errors import PROBLEM


class Problem(BaseModel):
    """RFC 9457: what went wrong, for a person to act on; never a trace, a question or an answer."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    request_id: str | None = None


def problems(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route for these error codes (their media type is set by
    ``install``)."""
    return {code: {"model": Problem, "description": DESCRIPTIONS[code]} for code in codes}


DESCRIPTIONS = {
    400: "The body cannot be read (not text, or not JSON)",
    401: "No API key, or an unknown or disabled one",
    408: "The request body did not arrive in time",
    413: "The request body is over the limit",
    422: "The request is not valid (a field, the JSON, or a question the engine refuses)",
    500: "The request failed; the service log has its request id",
    503: "Not ready: the fact store cannot be read",
    504: "No answer in time",
}


def install(app: FastAPI) -> None:
    """Serve the document with every error response as problem+json."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = get_openapi(
                title=app.title,
                version=app.version,
                summary=app.summary,
                routes=app.routes,
            )
            for path in spec.get("paths", {}).values():
                for operation in path.values():
                    for code, response in operation.get("responses", {}).items():
                        content = response.get("content", {})
                        if code[:1] in "45" and "application/json" in content:
                            content[PROBLEM] = content.pop("application/json")
            app.openapi_schema = spec
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
