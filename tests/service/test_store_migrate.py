"""`ragspine store migrate`: a deployment's stores moved between SQLite and PostgreSQL, verified
table by table; the 金宇生物 example answers its golden suite the same from either."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.service.keys import load_keys, new_key, set_disabled
from ragspine.service.keys_pg import PgKeys
from ragspine.storage.fact_store import FactStore
from tests.cli import Ran, invoke
from tests.pg import database_beside

EXAMPLE = Path(__file__).parents[2] / "examples" / "jinyu"


def _home(jinyu: Path, tmp_path: Path) -> Path:
    """The example's SQLite stores (``jinyu_files``) in a folder of their own (a
    RAGSPINE_HOME): migrate may write."""
    home = tmp_path / "home"
    home.mkdir()
    for name in ("facts.db", "chunks.db"):
        shutil.copy(jinyu / name, home / name)
    return home


def _migrate(*args: str, env: dict[str, str | None] | None = None) -> Ran:
    return invoke("store", "migrate", *args, env=env)


def _answers(run: Path) -> dict[tuple[str, int], tuple[str, Any]]:
    rows = (json.loads(line) for line in (run / "results.jsonl").read_text("utf-8").splitlines())
    return {(r["case_id"], r["repeat"]): (r["answer"], r["sources"]) for r in rows}


def _eval(out: Path, *stores: str, env: dict[str, str | None]) -> Ran:
    ran = invoke(
        "eval", "run", "--golden", str(EXAMPLE / "golden"), "--profile",
        str(EXAMPLE / "profile.yaml"), "--out", str(out), *stores, env=env,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    return ran


@pytest.mark.slow
def test_the_jinyu_example_answers_its_golden_suite_the_same_from_postgresql(
    jinyu_files: Path, pg_url: str, tmp_path: Path
) -> None:
    home = _home(jinyu_files, tmp_path)
    env: dict[str, str | None] = {"RAGSPINE_INDEX_DIR": str(tmp_path / "pg-index")}
    moved = _migrate("--from", f"sqlite:{home}", "--to", pg_url)
    assert moved.returncode == 0, moved.stderr
    for table in ("fact_metric", "fact_history", "source_file", "stored_profile", "chunk"):
        line = next(x for x in moved.stdout.splitlines() if f"| {table} " in x)
        assert line.rstrip().endswith("| ok |"), line
    assert "every count and checksum matches" in moved.stdout
    assert "chunk: 1000/" in moved.stderr  # progress on a table longer than one batch
    lite = _eval(tmp_path / "sqlite", "--db", str(home / "facts.db"), "--corpus",
                 str(home / "chunks.db"), env=env)  # fmt: skip
    pg = _eval(tmp_path / "pg", "--db", pg_url, env=env)
    assert lite.stdout.count("passed") == pg.stdout.count("passed")
    want, got = _answers(tmp_path / "sqlite"), _answers(tmp_path / "pg")
    assert len(want) >= 150 and want.keys() == got.keys()
    assert [k for k in want if want[k] != got[k]] == []  # case by case: answer and sources
    back = _migrate("--from", pg_url, "--to", f"sqlite:{tmp_path / 'back'}")
    assert back.returncode == 0, back.stderr
    with FactStore(home / "facts.db") as a, FactStore(tmp_path / "back" / "facts.db") as b:
        assert list(a.iter_facts()) == list(b.iter_facts())


def test_keys_travel_with_their_state_and_only_their_hashes(tmp_path: Path, pg_url: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    key = new_key(home / "keys.yaml", "analyst", "RESTRICTED")
    new_key(home / "keys.yaml", "old", "PUBLIC")
    set_disabled(home / "keys.yaml", "old", True)
    moved = _migrate("--from", str(home), "--to", pg_url)
    assert moved.returncode == 0, moved.stderr
    assert (
        "| keys    | api_key " in moved.stdout and "not copied: facts, corpus, faq" in moved.stdout
    )
    with PgKeys(pg_url) as keys:
        assert keys.caller(key) is not None and keys.caller(key).clearance == "RESTRICTED"  # type: ignore[union-attr]
        assert [(e.name, e.disabled) for e in keys.ring().entries] == [
            ("analyst", False),
            ("old", True),
        ]
    back = _migrate("--from", pg_url, "--to", str(tmp_path / "back"))
    assert back.returncode == 0, back.stderr
    ring = load_keys(tmp_path / "back" / "keys.yaml", environ={})
    assert ring.caller(key) is not None and len(ring) == 2


def test_a_target_that_holds_rows_is_refused_whole_unless_replaced(
    jinyu_files: Path, tmp_path: Path
) -> None:
    home = _home(jinyu_files, tmp_path)
    first = _migrate("--from", str(home), "--to", str(tmp_path / "copy"))
    assert first.returncode == 0, first.stderr
    again = _migrate("--from", str(home), "--to", str(tmp_path / "copy"))
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr.count("\n") == 1 and again.stderr.startswith("error: ")
    assert "not empty: facts.fact_metric (198 rows)" in again.stderr and "--replace" in again.stderr
    replaced = _migrate("--from", str(home), "--to", str(tmp_path / "copy"), "--replace")
    assert replaced.returncode == 0, replaced.stderr


def test_the_copied_corpus_is_of_a_generation_neither_side_had(
    jinyu_files: Path, tmp_path: Path
) -> None:
    """An index saved for the target's old corpus (or the source's) is never taken as current."""
    home = _home(jinyu_files, tmp_path)
    with ChunkStore(home / "chunks.db") as src:
        source_generation = src.generation
    target = tmp_path / "target"
    target.mkdir()
    with ChunkStore(target / "chunks.db") as old, old.connection as conn:
        old.init_schema()
        for _ in range(source_generation + 3):  # the target's corpus had moved on further
            conn.execute("UPDATE corpus_state SET generation = generation + 1")
    moved = _migrate("--from", str(home), "--to", str(target), "--replace")
    assert moved.returncode == 0, moved.stderr
    with ChunkStore(target / "chunks.db") as new:
        assert new.generation == source_generation + 4
    assert f"corpus generation {source_generation + 4}" in moved.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        # a fact store file is not a deployment: its folder is
        (["--from", "{home}/facts.db", "--to", "{tmp}/x"], "is a file; name the folder"),
        # copying a folder onto itself
        (["--from", "{home}", "--to", "sqlite:{home}"], "are the same"),
        # a URL of no store kind
        (["--from", "{home}", "--to", "mysql://h/db"], "unknown store kind"),
    ],
)
def test_a_bad_side_is_one_error_line(
    jinyu_files: Path, tmp_path: Path, args: list[str], says: str
) -> None:
    home = _home(jinyu_files, tmp_path)
    ran = _migrate(*(a.format(home=home, tmp=tmp_path) for a in args))
    assert ran.returncode != 0 and says in ran.stderr, ran.stderr
    assert ran.stderr.count("\n") == 1 and "Traceback" not in ran.stderr


def _created(url: str) -> dict[str, str]:
    with PgKeys(url) as keys:
        rows = keys.connection.execute("SELECT name, created_at FROM api_key").fetchall()
    return {str(n): str(at) for n, at in rows}


def test_a_keys_creation_time_travels_both_ways(tmp_path: Path, pg_url: str) -> None:
    """PostgreSQL to PostgreSQL, and through a keys file and back: a key is as old as it was."""
    with PgKeys(pg_url) as keys:
        keys.new_key("analyst", "INTERNAL")
        keys.connection.execute("UPDATE api_key SET created_at = '2001-02-03 04:05:06'")
    other = database_beside(pg_url)
    moved = _migrate("--from", pg_url, "--to", other)
    assert moved.returncode == 0, moved.stderr
    assert _created(other) == {"analyst": "2001-02-03 04:05:06"}
    out = _migrate("--from", other, "--to", str(tmp_path / "home"))
    assert out.returncode == 0, out.stderr
    (entry,) = load_keys(tmp_path / "home" / "keys.yaml", environ={}).entries
    assert entry.created_at == "2001-02-03 04:05:06"
    third = database_beside(pg_url)
    back = _migrate("--from", str(tmp_path / "home"), "--to", third)
    assert back.returncode == 0, back.stderr
    assert _created(third) == {"analyst": "2001-02-03 04:05:06"}


def test_a_key_a_file_gives_no_time_is_as_old_as_its_copy(tmp_path: Path, pg_url: str) -> None:
    """A keys file written before keys carried their time: the copy's time, on both sides of
    the check (the check still matches)."""
    home = tmp_path / "home"
    home.mkdir()
    new_key(home / "keys.yaml", "analyst", "PUBLIC")
    text = (home / "keys.yaml").read_text("utf-8")
    (home / "keys.yaml").write_text(
        "\n".join(x for x in text.splitlines() if "created_at" not in x) + "\n", "utf-8"
    )
    moved = _migrate("--from", str(home), "--to", pg_url)
    assert moved.returncode == 0, moved.stderr
    assert "every count and checksum matches" in moved.stdout
    assert len(_created(pg_url)["analyst"]) == len("2001-02-03 04:05:06")


def test_a_key_made_in_a_file_says_when(tmp_path: Path) -> None:
    new_key(tmp_path / "keys.yaml", "analyst", "PUBLIC")
    (entry,) = load_keys(tmp_path / "keys.yaml", environ={}).entries
    assert entry.created_at is not None and len(entry.created_at) == 19
