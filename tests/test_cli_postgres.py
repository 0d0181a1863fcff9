"""Driven as a user drives it: `ragspine ingest --db postgresql://…` then `ragspine ask` against
the same database, on a real server; the answers are the SQLite stores' answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.demo.corpus import demo_corpus_files
from ragspine.demo.files import write_demo_files
from ragspine.profile import default_profile
from tests.cli import invoke

QUESTIONS = [
    "中国内地FY2024的REVENUE是多少",  # a figure from a deck's table: the fact store
    "为什么中国内地FY2024收入下降?",  # a reason from the documents: the chunk store and index
    "What was Hong Kong online revenue in FY2024?",  # in English
]


@pytest.fixture(scope="module")
def demo_files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("demo_files")
    decks = write_demo_files(folder, default_profile())
    return [str(p) for p in [*decks, *demo_corpus_files()]]


def _ask(db: str, corpus: str | None, env: dict[str, str | None]) -> list[str]:
    answers = []
    for question in QUESTIONS:
        where = ["--corpus", corpus] if corpus is not None else []
        ran = invoke("ask", question, "--db", db, *where, env=env)
        assert ran.returncode == 0, ran.stderr
        answers.append(ran.stdout)
    return answers


def test_ingest_then_ask_on_postgresql_answers_as_sqlite_does(
    demo_files: list[str], pg_url: str, tmp_path: Path
) -> None:
    env: dict[str, str | None] = {"RAGSPINE_INDEX_DIR": str(tmp_path / "pg.index")}
    ran = invoke("ingest", *demo_files, "--db", pg_url, env=env)  # --corpus: the same database
    assert ran.returncode == 0, ran.stderr
    assert "postgresql://ragspine@127.0.0.1" in ran.stdout and "added" in ran.stdout
    db, corpus = str(tmp_path / "facts.db"), str(tmp_path / "chunks.db")
    lite = invoke("ingest", *demo_files, "--db", db, "--corpus", corpus)
    assert lite.returncode == 0, lite.stderr
    assert ran.stdout.split(";")[0] == lite.stdout.split(";")[0]  # as many added
    on_pg = _ask(pg_url, None, env)
    assert on_pg == _ask(db, corpus, {})
    assert "1320" in on_pg[0].replace(",", "")  # the figure itself, from PostgreSQL
    again = invoke("ingest", *demo_files, "--db", pg_url, "--corpus", pg_url, env=env)
    assert again.returncode == 0 and f"{len(demo_files)} unchanged" in again.stdout
