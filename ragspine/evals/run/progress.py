"""Progress of a run as people watch it: on a terminal a bar with pass, fail and error counts
and an ETA; in a CI log (no terminal) one line every so many cases or seconds, the same counts."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

import click

from ragspine.evals.run.records import CaseResult


class RunProgress:
    def __init__(
        self,
        total: int,
        *,
        stream: TextIO | None = None,
        tty: bool | None = None,
        every_cases: int = 25,
        every_seconds: float = 10.0,
    ) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.total, self.done = total, 0
        self.passed = self.failed = self.errors = 0
        self.every_cases, self.every_seconds = every_cases, every_seconds
        self.started = self._last = time.monotonic()
        self._bar: Any = None
        if self.tty and total:
            self._bar = click.progressbar(
                length=total, label=self._counts(), file=self.stream, show_pos=True
            )
            self._bar.__enter__()

    def _counts(self) -> str:
        return f"pass {self.passed} · fail {self.failed} · error {self.errors}"

    def update(self, result: CaseResult) -> None:
        self.done += 1
        if result.error is not None:
            self.errors += 1
        elif result.passed:
            self.passed += 1
        else:
            self.failed += 1
        if self._bar is not None:
            self._bar.label = self._counts()
            self._bar.update(1)
            return
        now = time.monotonic()
        due = self.done % self.every_cases == 0 or now - self._last >= self.every_seconds
        if due or self.done == self.total:
            self._last = now
            click.echo(self.line(now), file=self.stream)

    def line(self, now: float | None = None) -> str:
        elapsed = (now or time.monotonic()) - self.started
        left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        eta = f", about {left:.0f} s left" if self.done < self.total else ""
        return f"progress: {self.done}/{self.total} · {self._counts()} · {elapsed:.0f} s{eta}"

    def close(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None
