"""How every command turns a known error into one line: `error: …` on stderr and exit 1, never
a traceback (the commands of `ragspine`, `ragspine eval` and the service share it). An OSError
that reaches a command (a disk full, a folder not writable, a path through a file) is the
machine's answer, not a bug: one line too, naming the path."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, NoReturn, TypeVar

import click

from ragspine.errors import RagSpineError

F = TypeVar("F", bound=Callable[..., Any])


def fail(exc: RagSpineError) -> NoReturn:
    click.echo(f"error: {exc}", err=True)
    sys.exit(1)


def known_errors(func: F) -> F:
    """A command whose RagSpineError becomes one line and exit 1."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except RagSpineError as exc:
            fail(exc)
        except OSError as exc:
            where = f": {exc.filename}" if exc.filename else ""
            click.echo(f"error: {exc.strerror or exc}{where}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]
