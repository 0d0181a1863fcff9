"""API keys in PostgreSQL: `ragspine keys … --db postgresql://…` keeps them in the database every
replica reads; only hashes, the same clearances, a disabled key refused at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.errors import KeysError
from ragspine.service.keys import digest
from ragspine.service.keys_pg import PgKeys
from tests.cli import invoke


def test_keys_made_listed_and_disabled_in_the_database(pg_url: str, tmp_path: Path) -> None:
    keys_file = tmp_path / "keys.yaml"
    made = invoke("keys", "new", "analyst", "--clearance", "RESTRICTED", "--db", pg_url,
                  "--file", str(keys_file))  # fmt: skip
    assert made.returncode == 0, made.stderr
    key = made.stdout.strip()
    assert "postgresql://ragspine@" in made.stderr and not keys_file.exists()
    with PgKeys(pg_url) as keys:
        assert keys.caller(key) is not None and keys.caller(key).clearance == "RESTRICTED"  # type: ignore[union-attr]
        assert keys.caller("rsk_guess") is None and keys.caller(None) is None
        assert [e.sha256 for e in keys.ring().entries] == [digest(key)]  # the hash, never the key
        off = invoke("keys", "disable", "analyst", "--db", pg_url)
        assert off.returncode == 0, off.stderr
        assert keys.caller(key) is None  # refused at the next request, no reload needed
    listed = invoke("keys", "list", env={"RAGSPINE_DB": pg_url})
    assert "analyst" in listed.stdout and "disabled" in listed.stdout and key not in listed.stdout


def test_a_name_twice_or_a_missing_one_is_one_error(pg_url: str) -> None:
    with PgKeys(pg_url) as keys:
        keys.new_key("a", "PUBLIC")
        with pytest.raises(KeysError, match="exists already"):
            keys.new_key("a", "INTERNAL")
        with pytest.raises(KeysError, match="no key named 'b'"):
            keys.set_disabled("b", True)
    again = invoke("keys", "enable", "b", "--db", pg_url)
    assert again.returncode == 1 and again.stderr.startswith("error: ")


def test_keys_in_a_sqlite_file_are_the_keys_files_job(tmp_path: Path) -> None:
    with pytest.raises(KeysError, match="keys file"):
        PgKeys(tmp_path / "keys.db")
