"""The real reports ingested once per session with their hand-written profiles, shared by the
tests that read them (a 156-page report costs 20-40 s to read)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli import invoke
from tests.pg_stores import on_postgres

REALWORLD = Path(__file__).parents[3] / "shared" / "realworld"
EXAMPLES = Path(__file__).parents[2] / "examples"
REPORTS = {
    "jinyu": "600201_金宇生物_2020_年度报告.pdf",
    "sifang": "603339_四方科技_2019_年度报告.pdf",
}


@pytest.fixture(scope="session")
def real_report(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Callable[[str], dict[str, Any]]:
    """name → the report ingested with examples/NAME/profile.yaml: its stores, what the
    command printed and its --report file, made on first use and kept for the session. On
    ``make test-postgres`` both stores are one new database (the ingest writes it)."""
    made: dict[str, dict[str, Any]] = {}
    server = request.getfixturevalue("pg_server") if on_postgres() else None

    def stores(name: str) -> dict[str, Any]:
        if name not in made:
            folder = tmp_path_factory.mktemp(name)
            db: Path | str = folder / "facts.db"
            corpus: Path | str = folder / "chunks.db"
            if server is not None:
                db = corpus = server.database()
            profile = EXAMPLES / name / "profile.yaml"
            report = folder / "ingest.json"
            out = invoke(
                "ingest", str(REALWORLD / REPORTS[name]), "--db", str(db), "--corpus",
                str(corpus), "--profile", str(profile), "--report", str(report),
            )  # fmt: skip
            made[name] = {"name": name, "out": out, "db": db, "corpus": corpus,
                          "profile": profile, "report": report}  # fmt: skip
        return made[name]

    return stores
