"""The counted noun is the whole noun (agent/counted_nouns.py): a count's noun that only opens a
longer one (店 in 店长, 门店 in 门店经理, store in store managers) counts another kind of thing,
declined by the whole noun, never answered with the store count; the count's nouns alone, in
every held wording, still ask it."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.counted_nouns import whole_noun_cjk, whole_noun_en
from ragspine.agent.intent import parse_intent
from ragspine.engine import Engine
from tests.agent.asking import ask, found

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        ("ACME 2024年有多少位店长?", "店长"),  # the word holding 店 runs past it: a person
        ("ACME 2024年有多少个店长?", "店长"),  # 个 counts stores too: the noun still decides
        ("ACME 2024年有多少店面经理?", "店面经理"),  # a noun after the store noun: a post
        ("ACME有多少名店员?", "店员"),  # 名 counts people, 店员 is one
        ("ACME有多少个门店经理?", "门店经理"),  # 门店 only opens the noun
        ("ACME有多少门店员工?", "门店员工"),  # store staff: no store-staff metric is held
        ("ACME的店长有多少位?", "店长"),  # the noun before its count
        ("ACME 2024年有多少個店長?", "店長"),  # traditional: said in the question's own words
        ("ACME 2024年門店經理有多少位?", "門店經理"),  # traditional, the noun before the count
        ("ACME 2024年店員有幾位?", "店員"),  # traditional, 幾位 counts people
        ("How many store managers did ACME have in 2024?", "store managers"),  # singular: modifies
        ("How many store staff does ACME have?", "store staff"),  # staff of stores, not stores
        ("How many outlet managers did ACME have?", "outlet managers"),  # any store word
    ],
)  # fmt: skip
def test_a_longer_noun_is_declined_whole(question: str, declined: str) -> None:
    intent = parse_intent(question, REF)
    assert intent.metrics == [], intent
    assert intent.declined == declined


@pytest.mark.parametrize(
    "question",
    [
        "ACME 2024年有多少家门店?",  # the noun alone
        "ACME有几家店?",  # the one-character alias, a store measure word
        "ACME 2024年有多少店铺?",  # no measure word
        "ACME 2024年有多少家店面?",  # 店面 is a store, not 店 with more
        "ACME 2024年門店有多少家?",  # traditional, the noun before the count
        "ACME有多少个网点?",  # the trade's word for points of sale
        "ACME在台湾有多少家门店呢?",  # a particle ends the noun
        "ACME有多少家门店位于香港?",  # a verb ends the noun
        "ACME有多少家店铺2024年?",  # a period ends the noun
        "ACME有多少家门店数?",  # the count's own suffix is its name, no other kind
        "How many outlets did ACME have in 2024?",  # plural: the count's head
        "How many stores does ACME operate in Hong Kong?",  # a verb after the plural
        "How many store does ACME have in 2024?",  # singular, then the frame's verb
        "How many doors did ACME have in 2024?",  # the trade's word for stores
    ],
)  # fmt: skip
def test_the_counts_own_noun_still_asks_the_store_count(question: str) -> None:
    assert parse_intent(question, REF).metrics == ["STORE_COUNT"]


@pytest.mark.parametrize(
    ("text", "noun", "end"),
    [
        ("有多少位店长?", (4, 5), 6),  # 店 → 店长
        ("多少家门店经理", (3, 5), 7),  # 门店 + 经理
        ("多少家门店在香港", (3, 5), 5),  # a preposition ends it
        ("多少家门店总数", (3, 5), 5),  # the count's suffix
        ("多少家门店香港", (3, 5), 5),  # a word the profile reads (here given as read)
    ],
)  # fmt: skip
def test_whole_noun_cjk(text: str, noun: tuple[int, int], end: int) -> None:
    read = [(5, 7)] if text.endswith("香港") else []
    assert whole_noun_cjk(text, noun, read) == end


@pytest.mark.parametrize(
    ("text", "plural", "end"),
    [
        ("how many store managers did", False, len("how many store managers")),  # a compound
        ("how many store does acme", False, len("how many store")),  # the frame's verb
        ("how many stores operate", True, len("how many stores")),  # a plural is the head
    ],
)  # fmt: skip
def test_whole_noun_en(text: str, plural: bool, end: int) -> None:
    noun = (9, 14)
    at = noun[1] + (1 if plural else 0)
    assert whole_noun_en(text, (noun[0], at), plural, {"does", "did", "acme"}) == end


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("ACME 2024年有多少位店长?", "店长"),  # a person, never the 876 stores
        ("ACME有多少名店员?", "店员"),  # the staff, never the store count
    ],
)  # fmt: skip
def test_the_engine_declines_the_whole_noun(demo: Engine, question: str, name: str) -> None:
    result = ask(demo, question)
    assert found(result) == [], result.answer
    assert name in result.answer, result.answer
    assert "876" not in result.answer
