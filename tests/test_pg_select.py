"""What `make test-postgres` runs: a test that opens a store, by its fixtures or its marker."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.pg_select import opens_store, runs_on_postgres


def _item(fixtures: tuple[str, ...], marked: bool = False, backend: str | None = None) -> Any:
    callspec = SimpleNamespace(params={"backend": backend}) if backend else None
    return SimpleNamespace(
        fixturenames=fixtures,
        callspec=callspec,
        get_closest_marker=lambda name: object() if marked and name == "stores" else None,
    )


@pytest.mark.parametrize(
    "item, runs",
    [
        (_item(("tmp_path", "demo_db")), True),  # the demo's facts
        (_item(("demo", "demo_db", "demo_corpus")), True),  # an engine built on them
        (_item(("place", "tmp_path")), True),  # its own stores, on the suite's backend
        (_item(("places", "tmp_path")), True),  # stores of its own, built once a module
        (_item(("tmp_path",), marked=True), True),  # marked: it opens one by itself
        (_item(("tmp_path", "jy")), False),  # a parser test: a profile, no store
        (_item(("locate", "backend"), backend="postgresql"), True),  # its PostgreSQL half
        (_item(("locate", "backend"), backend="sqlite"), False),  # `make test` runs this half
    ],
)
def test_a_test_runs_on_postgresql_when_it_opens_a_store(item: Any, runs: bool) -> None:
    assert runs_on_postgres(item) is runs
    assert opens_store(item) is (runs or item.callspec is not None)
