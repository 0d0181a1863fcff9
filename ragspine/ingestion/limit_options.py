"""The per-file limits as command options, declared once for `ingest` and `worker` the way
``cli_options`` declares the shared ones: each with its environment variable and its default
(``FileLimits``'s, so the documented figure and the enforced one cannot drift apart)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ragspine.ingestion.limits import MB, FileLimits

F = TypeVar("F", bound=Callable[..., Any])


def file_limit_options(command: F) -> F:
    """--max-file-mb, --max-pages, --max-unzipped-mb, --max-ratio, --max-seconds: what one file
    may cost to read (``ingestion.limits``), for `ingest` and `worker` alike."""
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


def limits_from(kwargs: dict[str, Any]) -> FileLimits:
    """The FileLimits the options of ``file_limit_options`` say (popped from ``kwargs``)."""
    return FileLimits(
        max_bytes=int(kwargs.pop("max_file_mb") * MB),
        max_pages=kwargs.pop("max_pages"),
        max_unzipped=int(kwargs.pop("max_unzipped_mb") * MB),
        max_ratio=kwargs.pop("max_ratio"),
        max_seconds=kwargs.pop("max_seconds"),
    )
