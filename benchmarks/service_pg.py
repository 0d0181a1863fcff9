"""The demo's stores on a throwaway PostgreSQL, for the service bench's PostgreSQL rows: a server
started as the tests start theirs (``benchmarks.pg_server``), the stores copied in by the user's
own command (``ragspine store migrate --from sqlite:HOME --to URL``), the server stopped and
removed when the block ends, whatever ends it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from benchmarks.pg_server import running

BIN = Path(sys.executable).parent
DATABASE = "ragspine_bench"
STORES = ("facts.db", "chunks.db")  # what is migrated: the FAQ and keys are the bench's own


def ragspine(args: Sequence[str], env: dict[str, str] | None = None) -> str:
    """A ``ragspine`` command's output; a RuntimeError carrying what it said if it fails."""
    done = subprocess.run(
        [str(BIN / "ragspine"), *args], capture_output=True, text=True, check=False,
        env={**os.environ, **(env or {})},
    )  # fmt: skip
    if done.returncode != 0:
        said = (done.stdout + done.stderr)[-2000:]
        raise RuntimeError(f"ragspine {' '.join(args[:2])} failed ({done.returncode}): {said}")
    return done.stdout


@contextmanager
def demo_on_postgres(demo: Path, tmp: Path) -> Iterator[str]:
    """The URL of a database holding the demo's facts and corpus (``demo`` laid out as a
    RAGSPINE_HOME). Only the facts and the corpus are migrated, through a home in ``tmp`` that
    links to them: an FAQ or keys a user left beside them stay out, so both backends answer from
    the same stores. FileNotFoundError where PostgreSQL is not installed."""
    home = tmp / "sqlite-home"
    home.mkdir()
    for name in STORES:
        (home / name).symlink_to((demo / name).resolve())
    with running() as server:
        url = server.database(name=DATABASE)
        ragspine(["store", "migrate", "--from", f"sqlite:{home}", "--to", url])
        yield url
