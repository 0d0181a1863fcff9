"""Where a corpus's search index lives, whichever way its location is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.retrieval.index import index_dir_for
from ragspine.store_location import PgLocation


@pytest.mark.parametrize(
    "given, expected",
    [
        ("data/chunks.db", Path("data/chunks.index")),  # a file: its index beside it
        (Path("data/chunks.db"), Path("data/chunks.index")),  # the same, as a Path
        ("sqlite:data/chunks.db", Path("data/chunks.index")),  # the file, by its scheme
        # a database named by its URL as text: the host's folder for it, never a "file" named
        # postgresql:/… (the URL read as a path)
        ("postgresql://app@db.internal/acme", PgLocation("postgresql://app@db.internal/acme")),
    ],
)
def test_a_location_given_as_text_is_read_as_a_location(
    given: str | Path, expected: Path | PgLocation, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RAGSPINE_INDEX_DIR", raising=False)
    want = expected.index_dir() if isinstance(expected, PgLocation) else expected
    assert index_dir_for(given) == want
