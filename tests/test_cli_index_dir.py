"""`--index-dir`: where a PostgreSQL corpus's search index is kept on this host, on every
command that opens one; the same meaning as RAGSPINE_INDEX_DIR, which it overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.demo.corpus import demo_corpus_files
from tests.cli import invoke


@pytest.mark.parametrize(
    "command",
    [
        ["ask"],  # answers from the corpus
        ["ingest"],  # builds the index after writing
        ["serve"],  # every replica keeps its own
        ["eval", "run"],  # answers a suite
        ["worker"],  # ingests a folder as files arrive
    ],
)
def test_every_command_opening_a_corpus_takes_it(command: list[str]) -> None:
    ran = invoke(*command, "--help")
    assert "--index-dir" in ran.stdout and "RAGSPINE_INDEX_DIR" in ran.stdout


def test_ingest_and_ask_keep_the_index_where_it_says(pg_url: str, tmp_path: Path) -> None:
    env: dict[str, str | None] = {
        "RAGSPINE_INDEX_DIR": str(tmp_path / "from-env"),  # the flag wins over it
        "RAGSPINE_HOME": None,
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    doc = str(demo_corpus_files()[0])
    here = tmp_path / "ingest-index"
    ran = invoke("ingest", doc, "--db", pg_url, "--index-dir", str(here), env=env)
    assert ran.returncode == 0, ran.stderr
    assert (here / "CURRENT").is_file()
    there = tmp_path / "ask-index"
    asked = invoke("ask", "为什么中国内地FY2024收入下降?", "--db", pg_url, "--index-dir",
                   str(there), env=env)  # fmt: skip
    assert asked.returncode == 0, asked.stderr
    assert (there / "CURRENT").is_file()
    assert not (tmp_path / "from-env").exists() and not (tmp_path / "cache").exists()
