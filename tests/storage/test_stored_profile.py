"""A fact store remembers the profile its facts were mapped with: each different one a new
version, the same one stored again no new version, the history kept."""

from __future__ import annotations

from ragspine.storage.fact_store import FactStore
from tests.pg import Locate

A = "name: a\n# the first profile\n"
B = "name: b\n"


def _store(where: str) -> FactStore:
    store = FactStore(where)
    store.init_schema()
    return store


def test_a_new_store_has_no_profile(locate: Locate) -> None:
    with _store(locate("facts.db")) as store:
        assert store.stored_profile() is None


def test_the_profile_stored_is_read_back_as_given_with_its_hash(
    locate: Locate,
) -> None:
    with _store(locate("facts.db")) as store:
        stored, previous = store.remember_profile("a", A)
    assert previous is None and stored.version == 1 and stored.name == "a"
    with FactStore(locate("facts.db"), create=False) as reopened:
        got = reopened.stored_profile()
    assert got == stored and got.text == A  # the text as written, its comment too
    assert len(got.sha256) == 64


def test_only_a_different_profile_is_a_new_version(locate: Locate) -> None:
    with _store(locate("facts.db")) as store:
        first, _ = store.remember_profile("a", A)
        again, before = store.remember_profile("a", A)
        assert again == first and before == first  # the same text: nothing new
        second, before = store.remember_profile("b", B)
        assert (second.version, before) == (2, first)
        back, _ = store.remember_profile("a", A)  # different from the current one: v3
        assert (back.version, back.sha256, store.stored_profile()) == (3, first.sha256, back)
        rows = store.connection.execute("SELECT version, name FROM stored_profile ORDER BY version")
        assert rows.fetchall() == [(1, "a"), (2, "b"), (3, "a")]  # add-only: the history kept
