"""The lexicon's trie finds exactly what the alternation of every name, longest first, finds."""

from __future__ import annotations

import random

import pytest

from ragspine.evals.audit import names
from ragspine.evals.audit.names import Lexicon, flat_pattern
from ragspine.evals.run.runner import slot_names
from ragspine.profile import default_profile

WORDS = {
    "HK": "HK",  # an acronym: only in capitals
    "Hong Kong": "HK",  # a Latin name: not inside a longer word
    "香港": "HK",
    "公司": "GROUP",  # not inside 子公司 or 分公司
    "公司收入": "REV",  # a longer name sharing the prefix
    "收入": "REV",
    "收入增长": "GROWTH",  # longer than 收入: wins where both match
    "GM": "GM",
    "gross margin": "GM",
    "SEA": "SEA",
    "sea": "SEA_LOWER",  # the same letters as an acronym, in any case
    "3Q": "Q3",  # a name opening with a digit
    "revenue$": "REV",  # a name ending in a symbol: no boundary after it
}


def _found(pattern: object, words: dict[str, str], text: str) -> list[tuple[int, int, str]]:
    return [(f.start, f.end, f.code) for f in names._find(pattern, words, text)]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "HK收入增长11%,hk不是缩写",  # acronym in capitals only; the longer name first
        "子公司收入和公司收入",  # 公司 inside 子公司 is no name; 公司收入 is
        "Hong Kongers and Hong Kong",  # a Latin name inside a longer word is none
        "GMV and GM; gross margins, gross margin.",  # boundaries after Latin names
        "SEAsia SEA sea Sea",  # an acronym and its lower-case twin
        "13Q 3Q 3Qx",  # a digit before or a letter after breaks a name
        "revenue$5 revenue$",  # a symbol ending a name
        "",  # nothing
    ],
)
def test_the_trie_finds_what_the_alternation_finds(text: str) -> None:
    assert _found(names._pattern(WORDS), WORDS, text) == _found(flat_pattern(WORDS), WORDS, text)


def test_the_trie_and_the_alternation_agree_on_random_texts_of_the_demo_names() -> None:
    lex = Lexicon(slot_names(default_profile()))
    rng = random.Random(7)
    for words in (lex._entities, lex._metrics, lex._channels):
        trie, flat = names._pattern(words), flat_pattern(words)
        pieces = [*words, *(w.upper() for w in words), *(w.lower() for w in words)]
        pieces += ["子", "分", " ", "x", "9", "$", "_", "\n", "。"]
        for _ in range(300):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
            assert _found(trie, words, text) == _found(flat, words, text), text


def test_names_one_character_of_two_branches_could_match_keep_the_alternation() -> None:
    words = {"ſea": "A", "sea": "B"}  # ſ (long s) matches s under IGNORECASE
    assert names._pattern(words).pattern == flat_pattern(words).pattern  # type: ignore[union-attr]
