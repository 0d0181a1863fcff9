"""API keys in PostgreSQL: `ragspine keys … --db postgresql://…` keeps them in the database every
replica reads; only hashes, the same clearances, a disabled key refused at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.errors import KeysError
from ragspine.service.keys import digest, new_key
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


@pytest.mark.parametrize(
    ("how", "says"),
    [
        # keys in the environment: not the database's, so never checked
        ("env", "warning: RAGSPINE_API_KEYS is not used"),
        # the keys file RAGSPINE_HOME lays out, holding a key
        ("home", "keys.yaml is not used"),
    ],
)
def test_serve_on_postgresql_says_keys_outside_the_database_are_not_used(
    pg_url: str, tmp_path: Path, how: str, says: str
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    new_key(home / "keys.yaml", "analyst", "INTERNAL")
    env: dict[str, str | None] = {"RAGSPINE_HOME": str(home) if how == "home" else None}
    if how == "env":
        env["RAGSPINE_API_KEYS"] = f"analyst:INTERNAL:{'0' * 64}"
    ran = invoke("serve", "--db", pg_url, "--port", "1", env=env)
    assert ran.returncode == 1
    warning, error = ran.stderr.splitlines()  # said before the database's keys are counted
    assert warning.startswith(says) or says in warning, warning
    assert "--db" in warning and "store migrate" in warning
    assert error.startswith("error: no API keys in")


def test_serve_on_postgresql_refuses_a_keys_file_it_is_given(pg_url: str, tmp_path: Path) -> None:
    """A file named on the command line would be ignored: one error line, nothing served
    (said before the database's keys are counted)."""
    new_key(tmp_path / "keys.yaml", "analyst", "INTERNAL")
    ran = invoke("serve", "--db", pg_url, "--keys", str(tmp_path / "keys.yaml"), "--port", "1")
    assert ran.returncode == 1 and ran.stderr.count("\n") == 1, ran.stderr
    assert ran.stderr.startswith("error: --keys") and "store migrate" in ran.stderr
