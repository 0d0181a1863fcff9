"""A file's facts and passages in one PostgreSQL transaction, as in two attached SQLite files:
a chunk store that fails after the facts were written leaves neither."""

from __future__ import annotations

from pathlib import Path

import psycopg

from ragspine.storage.fact_store import FactStore
from tests.cli import invoke
from tests.readers.test_readers import _deck


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
