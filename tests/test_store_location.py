"""A store's location, read from what a user wrote: a path, sqlite:PATH or a PostgreSQL URL;
a password is never printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.errors import ConfigError
from ragspine.store_location import PgLocation, parse_location, redact


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("data/facts.db", Path("data/facts.db")),  # a bare path: SQLite, as before
        ("sqlite:data/facts.db", Path("data/facts.db")),  # the kind said
        ("sqlite:///tmp/facts.db", Path("/tmp/facts.db")),  # SQLAlchemy's spelling
        ("postgresql://u@h/rag", PgLocation("postgresql://u@h/rag")),  # PostgreSQL
        ("postgres://u:pw@h:5433/rag", PgLocation("postgres://u:pw@h:5433/rag")),  # its alias
    ],
)
def test_a_location_is_a_file_or_a_database(written: str, read: object) -> None:
    assert parse_location(written) == read


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("mysql://u:secret@h/rag", "unknown store kind 'mysql'"),  # another kind of server
        ("postgresql://u:secret@h", "name the database"),  # no database named
        ("postgresql://u:secret@h:notaport/rag", "not a valid URL"),  # a port that is none
        ("sqlite:", "needs a file path"),  # nothing after the kind
    ],
)
def test_a_bad_location_names_the_flag_never_the_password(written: str, said: str) -> None:
    with pytest.raises(ConfigError, match=said) as err:
        parse_location(written, flag="--corpus")
    assert str(err.value).startswith("--corpus: ") and "secret" not in str(err.value)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://u:pw@h/db", "postgresql://u:***@h/db"),  # in the user part
        ("postgresql://u@h/db?password=pw&x=1", "postgresql://u@h/db?password=***&x=1"),  # query
        ("postgresql://h/db", "postgresql://h/db"),  # none to hide
    ],
)
def test_a_url_prints_without_its_password(url: str, shown: str) -> None:
    assert redact(url) == shown
    assert str(PgLocation(url)) == shown and "pw" not in repr(PgLocation(url))


def test_a_databases_index_folder_is_local_and_keyed_without_the_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RAGSPINE_INDEX_DIR", raising=False)
    monkeypatch.setenv("RAGSPINE_HOME", str(tmp_path))
    one = PgLocation("postgresql://u:one@h/rag").index_dir()
    assert one == PgLocation("postgresql://u:two@h/rag").index_dir()  # the password is no key
    assert one.parent == tmp_path / "indexes" and one.name.startswith("rag-")
    assert one != PgLocation("postgresql://u@other/rag").index_dir()  # another server's
    monkeypatch.setenv("RAGSPINE_INDEX_DIR", str(tmp_path / "here"))
    assert PgLocation("postgresql://u@h/rag").index_dir() == tmp_path / "here"


def test_ragspine_toml_may_name_a_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ragspine.store_config import configured

    (tmp_path / "ragspine.toml").write_text(
        'db = "postgresql://u:pw@h/rag"\ncorpus = "stores/chunks.db"\n', "utf-8"
    )
    monkeypatch.chdir(tmp_path)
    assert configured("db") == PgLocation("postgresql://u:pw@h/rag")  # kept as written
    assert configured("corpus") == Path("stores/chunks.db")  # a path: from the file's folder
    (tmp_path / "ragspine.toml").write_text('db = "mysql://u:pw@h/rag"\n', "utf-8")
    with pytest.raises(ConfigError, match=r"ragspine\.toml: db: .*unknown store kind") as err:
        configured("db")
    assert "pw" not in str(err.value)
