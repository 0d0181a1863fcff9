"""The `ragspine` command run in-process with click's CliRunner, so coverage sees it.

A crash (any exception other than the command's own exit) is re-raised: a traceback a user
would see fails the test instead of hiding in an exit code.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import chdir, nullcontext
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from ragspine.cli import main


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


def invoke(
    *args: str, cwd: str | Path | None = None, env: Mapping[str, str | None] | None = None
) -> Ran:
    """``env`` is laid over the real environment for the run; a None value unsets a variable."""
    with chdir(cwd) if cwd is not None else nullcontext():
        result = CliRunner().invoke(main, list(args), env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(result.exit_code, result.stdout, result.stderr)
