"""The audit's memo of readings: bounded, and a reading is the same as a fresh one for the same
text and lexicon, another for another lexicon."""

from __future__ import annotations

from ragspine.evals.audit.context import read
from ragspine.evals.audit.memo import Memo
from ragspine.evals.audit.names import Lexicon
from ragspine.evals.audit.sources import fact_sources
from ragspine.evals.run.runner import slot_names
from ragspine.profile import default_profile

TEXT = "香港FY2024收入为455百万美元,同比增长11%。"


def _demo() -> Lexicon:
    return Lexicon(slot_names(default_profile()))


def test_the_memo_keeps_at_most_its_size_and_drops_the_least_recently_used() -> None:
    memo: Memo[int] = Memo(2)
    memo.get("a", lambda: 1)
    memo.get("b", lambda: 2)
    memo.get("a", lambda: 0)  # a hit: a is now the most recently used
    memo.get("c", lambda: 3)  # full: b goes
    assert len(memo) == 2
    assert memo.get("a", lambda: -1) == 1
    assert memo.get("b", lambda: -2) == -2  # read again


def test_a_text_is_read_once_per_lexicon_and_the_same_as_a_fresh_reading() -> None:
    lex = _demo()
    first = read(TEXT, lex)
    assert len(lex.readings) == 1
    assert read(TEXT, lex) == first == read(TEXT, _demo())
    assert len(lex.readings) == 1  # the second reading came from the memo
    first.clear()  # a caller's list is its own
    assert read(TEXT, lex) == read(TEXT, _demo())


def test_another_lexicon_reads_the_same_text_another_way() -> None:
    named = read(TEXT, _demo())
    bare = read(TEXT, Lexicon(None))
    assert [st.claim.text for st in named] == [st.claim.text for st in bare]
    assert named[0].ctx.entity == "ACME_HK"
    assert bare[0].ctx.entity is None  # no names: nothing says whose it is


def test_another_text_or_backdrop_is_another_reading() -> None:
    lex = _demo()
    assert read(TEXT, lex) != read(TEXT.replace("香港", "台湾"), lex)
    assert len(lex.readings) == 2


def test_a_facts_sources_are_read_once_and_another_value_is_another_source() -> None:
    lex = _demo()
    fact = {"value": 455.0, "unit": "USD_M", "metric_code": "REVENUE", "entity": "ACME_HK"}
    fact |= {"period_type": "FY", "period": "2024", "channel": "TOTAL"}
    first = fact_sources(fact, lex)
    assert fact_sources(dict(fact), lex) == first
    assert fact_sources(dict(fact), Lexicon(slot_names(default_profile()))) == first
    other = fact_sources(fact | {"value": 410.0}, lex)
    assert [s.claim.value for s in other] != [s.claim.value for s in first]
