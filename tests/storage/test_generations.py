"""Store generations: every write moves its store's counter in the writer's transaction, and what
a store holds in memory on PostgreSQL (fact lookups, FAQ variants, API keys) follows a write made
through another connection, another replica's, at its next read; a request's pin answers for
the generations it read, so the request reads them once."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.faq.faq_cache import FaqCache, FaqItem
from ragspine.profile import default_profile
from ragspine.service.keys_pg import PgKeys
from ragspine.storage.fact_store import FactStore
from ragspine.storage.generations import generation, pinned, read_all
from ragspine.storage.store import Store
from tests.pg import Locate
from tests.storage.test_fact_store import SEED

TODAY = date(2025, 6, 30)
ITEM = FaqItem(
    questions=["退货政策是什么?"],
    answer="购买后七天内可凭小票退货。",
    sources=[{"doc": "ACME_Policies.md", "locator": "section=1,para=1"}],  # type: ignore[list-item]
)


def _opened(kind: type[Store], where: str) -> Store:
    store = kind(where)
    store.init_schema()
    return store


def _gen(store: Store, table: str) -> int:
    (n,) = store.connection.execute(f"SELECT generation FROM {table} WHERE id = 1").fetchone()
    return int(n)


def test_every_write_moves_its_stores_generation(locate: Locate) -> None:
    with _opened(FactStore, locate("facts.db")) as facts:  # type: ignore[attr-defined]
        before = _gen(facts, "fact_state")
        facts.insert_facts([SEED])
        after_insert = _gen(facts, "fact_state")
        facts.remember_profile("acme", "name: acme\n")
        assert before < after_insert < _gen(facts, "fact_state")
    with _opened(FaqCache, locate("faq.db")) as faq:  # type: ignore[attr-defined]
        before = _gen(faq, "faq_state")
        (item,) = faq.add_many([ITEM], default_profile(), today=TODAY)
        added = _gen(faq, "faq_state")
        faq.set_enabled(item, False)
        assert before < added < _gen(faq, "faq_state")


def test_a_fact_written_through_another_connection_is_found_at_the_next_lookup(
    locate: Locate,
) -> None:
    key = dict(metric_code="REVENUE", entity="ACME_CN", period_type="FY", period="2024")
    with _opened(FactStore, locate("facts.db")) as replica, FactStore(locate("facts.db")) as other:
        assert replica.lookup(**key, channel="TOTAL") is None  # type: ignore[attr-defined]
        other.insert_facts([SEED])
        assert replica.lookup(**key, channel="TOTAL") == SEED  # type: ignore[attr-defined]


def test_a_faq_item_disabled_through_another_connection_is_refused_at_the_next_lookup(
    locate: Locate,
) -> None:
    profile = default_profile()
    with _opened(FaqCache, locate("faq.db")) as replica, FaqCache(locate("faq.db")) as other:
        (item,) = other.add_many([ITEM], profile, today=TODAY)
        ask = dict(profile=profile, clearance="INTERNAL", today=TODAY)
        assert replica.lookup("退货政策是什么?", **ask).reason == "hit"  # type: ignore[attr-defined, arg-type]
        other.set_enabled(item, False)
        assert replica.lookup("退货政策是什么?", **ask).reason == "disabled"  # type: ignore[attr-defined, arg-type]


def test_a_requests_pin_answers_for_the_generations_it_read(pg_url: str) -> None:
    with _opened(PgKeys, pg_url) as keys, _opened(FaqCache, pg_url) as faq:
        counters = [keys.counter, faq.counter]
        assert None not in counters
        pin = read_all(counters)  # type: ignore[arg-type]
        assert set(pin.values()) == {0}
        keys.new_key("reader", "INTERNAL")  # type: ignore[attr-defined]
        with pinned(pin):  # what the request read before the write: it keeps to it
            assert generation(keys.counter) == 0  # type: ignore[arg-type]
        assert generation(keys.counter) == 1  # type: ignore[arg-type]


@pytest.mark.sqlite_only
def test_a_sqlite_store_reads_its_file_and_holds_nothing(tmp_path: object) -> None:
    with _opened(FactStore, str(tmp_path) + "/facts.db") as facts:
        assert facts.counter is None  # a local file's index answers as fast as memory would
