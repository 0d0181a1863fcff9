"""The service bench's PostgreSQL side: a throwaway server holding the demo's facts and corpus
(copied by ``ragspine store migrate``), gone when the block ends, also when it ends in an
error."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from benchmarks import pg_server
from benchmarks.pg_server import pg_bin, running
from benchmarks.service_pg import demo_on_postgres

needs_pg = pytest.mark.skipif(pg_bin("initdb") is None, reason=pg_server.SKIP_REASON)


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@needs_pg
@pytest.mark.slow
def test_the_demo_is_migrated_in_and_the_server_removed_after(
    demo_db_file: Path, demo_corpus_file: Path, tmp_path: Path
) -> None:
    import psycopg

    demo = tmp_path / "demo"
    demo.mkdir()
    (demo / "facts.db").symlink_to(demo_db_file)
    (demo / "chunks.db").symlink_to(demo_corpus_file)
    with demo_on_postgres(demo, tmp_path) as url, psycopg.connect(url) as conn:
        port = int(url.split(":")[2].split("/")[0])
        where = dict(conn.execute("SELECT table_name, table_schema FROM information_schema.tables"))
        assert {"fact_metric", "chunk"} <= where.keys()
        for table in ("fact_metric", "chunk"):
            count = conn.execute(f"SELECT count(*) FROM {where[table]}.{table}").fetchone()
            assert count is not None and count[0] > 0, table
    assert not _listening(port)
    assert not list(tmp_path.glob("ragspine-pg-*"))


@needs_pg
def test_an_error_in_the_block_stops_the_server() -> None:
    with pytest.raises(RuntimeError, match="boom"), running() as server:
        folder, port = server.folder, server.port
        assert _listening(port)
        raise RuntimeError("boom")
    assert not _listening(port)
    assert not folder.exists()
