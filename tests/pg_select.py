"""Which tests ``make test-postgres`` runs: those that open a store, chosen at collection.

A test opens a store when its fixtures (with what they depend on) include one of
``STORE_FIXTURES``, or when it is marked ``stores`` (a test that builds its stores through
``locate`` or ``pg_url`` is caught by those). The rest never open one: re-running a parser's or
a scorer's test on PostgreSQL proves nothing about PostgreSQL, so they are deselected. A test
run on both backends (``backend``) runs its SQLite half on ``make test`` only. At the end the
run says how many tests ran on PostgreSQL and how many were left out as storeless (under
pytest-xdist each worker collects the whole suite; the first worker's count is said).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.pg import suite_backend

# The shared fixtures that are, or build on, a store: under RAGSPINE_TEST_BACKEND=postgresql
# each yields a PostgreSQL location (tests/conftest.py and the folders' conftests).
STORE_FIXTURES = frozenset(
    {
        "demo_db",  # the demo's facts
        "demo_corpus",  # the demo's documents
        "store",  # the demo's facts, a copy per test
        "demo_copy",  # the demo's facts and corpus, a copy per test
        "demo_facts_copy",  # the demo's facts alone, a copy per test
        "jinyu_example",  # 金宇生物: facts.csv and the annual report
        "real_report",  # a real annual report ingested
        "service",  # `ragspine serve` on the demo stores
        "outage",  # the same with a model that is down
        "mini_corpus",  # a small corpus, one document per level
        "pg_url",  # a fresh database
        "place",  # the test's own stores, on the suite's backend
        "bare_place",  # the same, where no store was made yet
        "new_place",  # a new place at each call
        "places",  # stores a module builds once, or a test's second deployment
        "locate",  # a store on each backend
    }
)
COUNTS = "ragspine_pg_counts"  # a worker's counts, sent to the controller


def opens_store(item: pytest.Item) -> bool:
    names = set(getattr(item, "fixturenames", ()))
    return bool(names & STORE_FIXTURES) or item.get_closest_marker("stores") is not None


def _sqlite_half(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    return callspec is not None and callspec.params.get("backend") == "sqlite"


def runs_on_postgres(item: pytest.Item) -> bool:
    """Whether ``make test-postgres`` runs ``item``: it opens a store, and it is not the SQLite
    half of a test run on both backends."""
    return opens_store(item) and not _sqlite_half(item)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if suite_backend() != "postgresql":
        return
    keep = [item for item in items if runs_on_postgres(item)]
    dropped = [item for item in items if not runs_on_postgres(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = keep
    counts = {"selected": len(keep), "storeless": len(dropped)}
    config.stash[_KEY] = counts
    output = getattr(config, "workeroutput", None)  # a pytest-xdist worker
    if output is not None:
        output[COUNTS] = counts


_KEY = pytest.StashKey[dict[str, int]]()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """The controller keeps the first worker's counts (every worker collects the same)."""
    counts = getattr(node, "workeroutput", {}).get(COUNTS)
    if counts is not None and _KEY not in node.config.stash:
        node.config.stash[_KEY] = counts


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    counts = config.stash.get(_KEY, None)
    if counts is None:
        return
    stats = terminalreporter.stats
    skipped = {r.nodeid for r in stats.get("skipped", ()) if hasattr(r, "nodeid")}
    terminalreporter.write_sep("-", "PostgreSQL")
    terminalreporter.write_line(
        f"{counts['selected']} tests open a store and ran on PostgreSQL ({len(skipped)} of them "
        f"skipped); {counts['storeless']} storeless tests deselected"
    )
