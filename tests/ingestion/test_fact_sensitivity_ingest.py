"""Facts ingested from a file take that file's sensitivity: `ingest --sensitivity`, the
worker's, or the file's own (INTERNAL for a deck or workbook, which has no front matter)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.storage.fact_store import FactStore
from tests.cli import invoke
from tests.ingestion.test_ingest_command import _book
from tests.pg_stores import Place


def _levels(db: Path | str) -> set[str]:
    with FactStore(db) as store:
        return {f.sensitivity for f in store.iter_facts()}


@pytest.mark.parametrize(
    "flag, level",
    [
        (["--sensitivity", "RESTRICTED"], "RESTRICTED"),  # the deck is board material
        (["--sensitivity", "PUBLIC"], "PUBLIC"),  # a published report
        ([], "INTERNAL"),  # no flag, no front matter: the default level
    ],
)
def test_ingest_gives_the_facts_the_file_level(
    tmp_path: Path, flag: list[str], level: str, place: Place
) -> None:
    book = _book(tmp_path / "ACME_HK_2024.xlsx", 455)
    ran = invoke(
        "ingest", str(book), *flag, "--db", str(place("facts.db")),
        "--corpus", str(place("chunks.db")),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert _levels(place("facts.db")) == {level}


def test_the_worker_gives_the_facts_its_level(tmp_path: Path, place: Place) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    _book(inbox / "ACME_HK_2024.xlsx", 455)
    ran = invoke(
        "worker", "--inbox", str(inbox), "--once", "--settle", "0", "--sensitivity", "RESTRICTED",
        "--db", str(place("facts.db")), "--corpus", str(place("chunks.db")),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert _levels(place("facts.db")) == {"RESTRICTED"}


def test_a_level_raised_on_reingest_follows_the_facts(tmp_path: Path, place: Place) -> None:
    book = _book(tmp_path / "ACME_HK_2024.xlsx", 455)
    for level in ("PUBLIC", "RESTRICTED"):
        ran = invoke(
            "ingest", str(book), "--sensitivity", level, "--db", str(place("facts.db")),
            "--corpus", str(place("chunks.db")),
        )  # fmt: skip
        assert ran.returncode == 0, ran.stderr
    assert _levels(place("facts.db")) == {"RESTRICTED"}
