"""The options several commands share, declared once: each with its environment variable and
its default, so a command that takes one takes it the same way and the variable works for it too.

    --db            RAGSPINE_DB            data/fact_metric.db
    --corpus        RAGSPINE_CORPUS        data/chunks.db
    --profile       RAGSPINE_PROFILE       the ACME demo profile
    --clearance     RAGSPINE_CLEARANCE     INTERNAL
    --provider      RAGSPINE_PROVIDER      mock
    --base-url      RAGSPINE_BASE_URL      the SDK's (which reads ANTHROPIC_BASE_URL)
    --timeout       RAGSPINE_TIMEOUT       the SDK's (60 s)
    --max-retries   RAGSPINE_MAX_RETRIES   the SDK's (2)
    --max-file-mb, --max-pages, --max-unzipped-mb, --max-ratio, --max-seconds: a file's limits
                    RAGSPINE_MAX_FILE_MB … (for `ingest` and `worker`; see ingestion.limits)

A flag on the command line wins over its variable; an empty variable counts as unset. The
cassette options are one run's and have no variable. ``keys new --clearance`` (the clearance a
new key carries) is not this ``--clearance`` and never comes from the environment: a shell's
``RAGSPINE_CLEARANCE`` must not mint a RESTRICTED key. Nor is ``serve --timeout`` (its HTTP
limit) this ``--timeout``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ragspine.sensitivity import DEFAULT_CLEARANCE, LEVELS

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_DB = Path("data/fact_metric.db")
DEFAULT_CORPUS = Path("data/chunks.db")

LEVEL = click.Choice(LEVELS)  # a sensitivity or a clearance: PUBLIC, INTERNAL or RESTRICTED
_FILE = click.Path(dir_okay=False, path_type=Path)


def db_option() -> Callable[[F], F]:
    return click.option(
        "--db",
        type=_FILE,
        default=DEFAULT_DB,
        show_default=True,
        envvar="RAGSPINE_DB",
        show_envvar=True,
        help="the fact store (SQLite)",
    )


def corpus_option() -> Callable[[F], F]:
    return click.option(
        "--corpus",
        type=_FILE,
        default=DEFAULT_CORPUS,
        show_default=True,
        envvar="RAGSPINE_CORPUS",
        show_envvar=True,
        help="the document chunk store (its index beside it); missing: document questions say so",
    )


def profile_option(help: str = "domain profile YAML [default: the ACME demo]") -> Callable[[F], F]:
    """``help`` says what the profile is for in this command (and its default)."""
    return click.option(
        "--profile",
        type=_FILE,
        default=None,
        envvar="RAGSPINE_PROFILE",
        show_envvar=True,
        help=help,
    )


def faq_option(help: str = "the FAQ cache [default: none]") -> Callable[[F], F]:
    """A FAQ cache the engine opens: its vetted items are the ``faq`` route, tried first."""
    return click.option(
        "--faq",
        type=_FILE,
        default=None,
        envvar="RAGSPINE_FAQ",
        show_envvar=True,
        help=help,
    )


def max_error_rate_option(help: str) -> Callable[[F], F]:
    """How many provider errors a run may hold (``eval run`` exits 1, ``eval gate`` fails)."""
    return click.option(
        "--max-error-rate",
        type=click.FloatRange(min=0, max=1),
        default=0.1,
        show_default=True,
        help=help,
    )


def clearance_option() -> Callable[[F], F]:
    return click.option(
        "--clearance",
        type=LEVEL,
        default=DEFAULT_CLEARANCE,
        show_default=True,
        envvar="RAGSPINE_CLEARANCE",
        show_envvar=True,
        help="the caller's clearance: documents above it are never retrieved",
    )


def provider_option() -> Callable[[F], F]:
    return click.option(
        "--provider",
        default="mock",
        show_default=True,
        envvar="RAGSPINE_PROVIDER",
        show_envvar=True,
        help="mock, anthropic, anthropic:MODEL or python:MODULE:ATTR",
    )


def live_options(command: F) -> F:
    """--base-url, --timeout, --max-retries, --cassette, --cassette-mode: for `ask` and `eval run`.

    The SDK's own environment variables (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY) still apply.
    """
    options = [
        click.option(
            "--base-url",
            default=None,
            envvar="RAGSPINE_BASE_URL",
            show_envvar=True,
            help="the Messages API's URL [default: the SDK's]",
        ),
        click.option(
            "--timeout",
            type=click.FloatRange(min=0, min_open=True),
            default=None,
            envvar="RAGSPINE_TIMEOUT",
            show_envvar=True,
            help="seconds per request [default: 60]",
        ),
        click.option(
            "--max-retries",
            type=click.IntRange(min=0),
            default=None,
            envvar="RAGSPINE_MAX_RETRIES",
            show_envvar=True,
            help="the SDK's retries of a failed request [default: 2]",
        ),
        click.option(
            "--cassette",
            type=click.Path(file_okay=False, path_type=Path),
            default=None,
            help="record the model's replies in this folder, or replay them",
        ),
        click.option(
            "--cassette-mode",
            type=click.Choice(["replay", "record", "strict"]),
            default="replay",
            show_default=True,
            help="replay: recorded, else call and record; record: call and overwrite; "
            "strict: recorded only, a miss is an error",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def file_limit_options(command: F) -> F:
    """--max-file-mb, --max-pages, --max-unzipped-mb, --max-ratio, --max-seconds: what one file
    may cost to read (``ingestion.limits``), for `ingest` and `worker` alike."""
    from ragspine.ingestion.limits import MB, FileLimits

    d = FileLimits()
    specs = [
        ("--max-file-mb", click.FloatRange(min=0, min_open=True), d.max_bytes / MB,
         "a file larger than this on disk is refused"),
        ("--max-pages", click.IntRange(min=1), d.max_pages,
         "a PDF with more pages, a deck with more slides, a workbook with more sheets is refused"),
        ("--max-unzipped-mb", click.FloatRange(min=0, min_open=True), d.max_unzipped / MB,
         "an XLSX/DOCX/PPTX whose zip entries declare more than this inflated is refused"),
        ("--max-ratio", click.FloatRange(min=1), d.max_ratio,
         "a zip entry over 1 MiB inflating more than this many times is refused (a bomb)"),
        ("--max-seconds", click.FloatRange(min=0, min_open=True), d.max_seconds,
         "a file not read in this many seconds is refused (read in a child process, killed)"),
    ]  # fmt: skip
    for flag, kind, default, help in reversed(specs):
        command = click.option(
            flag,
            type=kind,
            default=default,
            show_default=True,
            envvar="RAGSPINE_" + flag[2:].upper().replace("-", "_"),
            show_envvar=True,
            help=help,
        )(command)
    return command


def limits_from(kwargs: dict[str, Any]) -> Any:
    """The FileLimits the options of ``file_limit_options`` say (popped from ``kwargs``)."""
    from ragspine.ingestion.limits import MB, FileLimits

    return FileLimits(
        max_bytes=int(kwargs.pop("max_file_mb") * MB),
        max_pages=kwargs.pop("max_pages"),
        max_unzipped=int(kwargs.pop("max_unzipped_mb") * MB),
        max_ratio=kwargs.pop("max_ratio"),
        max_seconds=kwargs.pop("max_seconds"),
    )
