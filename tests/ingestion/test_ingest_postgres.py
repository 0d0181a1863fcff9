"""A file's facts and passages in one PostgreSQL transaction, as in two attached SQLite files:
a chunk store that fails after the facts were written leaves neither; stores that cannot share
one transaction are refused before either is made."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from benchmarks.pg_server import PgServer
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.storage.fact_store import FactStore
from tests.cli import invoke
from tests.pg_stores import EMPTY, store_absent
from tests.readers.test_readers import _deck
from tests.retrieval.conftest import write_docs


def test_facts_and_passages_commit_together_in_one_database(pg_url: str, tmp_path: Path) -> None:
    deck = _deck(tmp_path / "ACME_FY2024_Review.pptx")
    env: dict[str, str | None] = {"RAGSPINE_INDEX_DIR": str(tmp_path / "index")}
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            "CREATE FUNCTION ragspine_chunks.disk_full() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN RAISE EXCEPTION 'disk full' USING ERRCODE = '53100'; END $$"
        )
        conn.execute(
            "CREATE TRIGGER disk_full BEFORE UPDATE ON ragspine_chunks.corpus_state"
            " FOR EACH ROW EXECUTE FUNCTION ragspine_chunks.disk_full()"
        )
    out = invoke("ingest", str(deck), "--db", pg_url, env=env)
    # one error line, last; above it only progress lines (a read served from the session's shared
    # cache says so), never a traceback
    lines = out.stderr.splitlines()
    assert out.returncode == 1 and lines[-1].startswith("error: "), out.stderr
    assert all(line.startswith("  ") for line in lines[:-1]), out.stderr
    assert "disk full" in out.stderr and "postgresql://ragspine@" in out.stderr
    # both stores are this one database: it is named once, not once per store
    assert lines[-1].count(pg_url) == 1, lines[-1]
    with FactStore(pg_url) as facts:
        assert facts.count() == 0 and facts.source_hash(deck.name) is None
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP TRIGGER disk_full ON ragspine_chunks.corpus_state")
    out = invoke("ingest", str(deck), "--db", pg_url, env=env)
    assert "added  ACME_FY2024_Review.pptx (2 chunks, 2 facts" in out.stdout, out.stderr


@pytest.mark.stores
@pytest.mark.parametrize("command", ["ingest", "worker"])  # both write a file's two stores
@pytest.mark.parametrize(
    "pairing",
    [
        "corpus-only",  # --corpus a database, --db left to its default file (data/)
        "file-db",  # --corpus a database, --db a file named by the user
        "two-databases",  # --db one database, --corpus another
    ],
)
def test_stores_that_cannot_share_a_transaction_are_refused_before_either_is_made(
    pg_server: PgServer, tmp_path: Path, command: str, pairing: str
) -> None:
    corpus = pg_server.database(EMPTY)  # holds no store yet
    db = {"corpus-only": None, "file-db": str(tmp_path / "facts.db")}.get(
        pairing, pg_server.database(EMPTY)
    )
    (doc,) = write_docs(tmp_path / "inbox", {"notes.md": "# 甲\n第一份。\n"})
    args = [str(doc)] if command == "ingest" else ["--inbox", str(tmp_path / "inbox"), "--once"]
    stores = ["--corpus", corpus, *(["--db", db] if db is not None else [])]
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    out = invoke(command, *stores, *args, cwd=cwd)
    assert out.returncode == 1 and out.stdout == "", out.stdout
    (line,) = out.stderr.splitlines()
    assert line.startswith("error: ") and "one transaction" in line, line
    assert "--db" in line  # the flag that puts them together
    assert list(cwd.iterdir()) == []  # no data/fact_metric.db made by default
    assert not (tmp_path / "facts.db").exists()
    assert store_absent(ChunkStore, corpus)
    if db is not None and db.startswith("postgresql"):
        assert store_absent(FactStore, db)
    assert doc.exists()  # the worker moved nothing to failed/
