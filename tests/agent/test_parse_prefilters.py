"""The parser's cheap prefilters answer as the full reading would: a reader skipped because its
trigger is absent would have found nothing, and a lookup that replaces a scan finds what the
scan found. Each is checked against the rule it stands for, so a new pattern or word that
breaks the prefilter's premise fails here, not silently in a question."""

from __future__ import annotations

import re._parser as re_parser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.agent import described
from ragspine.agent.claimed import _CLAIMED_RATE, claimed_rate
from ragspine.agent.glosses import _GLOSS, without_glossed
from ragspine.agent.subject_words import GENERIC_CJK, holds_word


def test_every_description_shape_holds_a_noun_of_its_script() -> None:
    """The description shapes are searched only where their script's nouns stand: each shape
    must hold one (the Chinese shapes first, then the English)."""
    chinese = described._PATTERNS[: described._CHINESE]
    english = described._PATTERNS[described._CHINESE :]
    assert chinese and english
    for _, _, pattern, _ in chinese:
        assert described._PARTS_ZH in pattern.pattern or described._OTHERS_ZH in pattern.pattern
    for _, _, pattern, _ in english:
        assert described._PARTS_EN in pattern.pattern or described._OTHERS_EN in pattern.pattern
    relative = described._RELATIVE_EN.pattern
    assert described._PARTS_EN in relative and described._OTHERS_EN in relative


def _always_holds(items: re_parser.SubPattern | list[object], chars: str) -> bool:
    """Whether every match of the parsed pattern ``items`` holds one of ``chars``."""
    for op, arg in items:  # type: ignore[misc]
        if op == re_parser.LITERAL and chr(arg) in chars:
            return True
        if op == re_parser.SUBPATTERN and _always_holds(arg[-1], chars):
            return True
        if op == re_parser.BRANCH and all(_always_holds(b, chars) for b in arg[1]):
            return True
        repeated = op in (re_parser.MAX_REPEAT, re_parser.MIN_REPEAT) and arg[0] >= 1
        if repeated and _always_holds(arg[2], chars):
            return True
    return False


def test_every_chinese_criterion_holds_a_ranking_character() -> None:
    """The Chinese shapes are searched only where 最 or 第 stands: each criterion holds one."""
    for _, _, words in described._CRITERIA_ZH:
        assert _always_holds(re_parser.parse(words), described._RANKED_ZH), words
    assert not _always_holds(re_parser.parse("最大|大"), "最第")  # the check sees a branch


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("最赚钱的地区2024年收入多少", True),  # a Chinese description: its noun 地区
        ("revenue of the region with the most stores", True),  # English: region
        ("the market where acme opened stores in 2024", True),  # a relative clause: market
        ("最赚钱的是哪一年", False),  # a superlative naming no part: no noun, no search
        ("门店数是多少", False),  # a part noun, no 最 or 第: no criterion, no search
        ("第二大市场的收入", True),  # an ordinal of size
        ("what was the largest cost in 2024", False),  # English, no part named
        ("中国内地fy2024的revenue是多少", False),  # no description at all
    ],
)
def test_a_description_is_found_exactly_where_every_shape_finds_one(text: str, found: bool) -> None:
    every = [m.span() for _, _, p, _ in described._PATTERNS for m in p.finditer(text)]
    every += [m.span() for m in described._RELATIVE_EN.finditer(text)]
    assert described.description_spans(text) == every
    assert bool(every) is found


@pytest.mark.parametrize(
    "text",
    [
        "店效(即单店收入)是多少",  # a gloss in ASCII brackets
        "店效（即单店收入）是多少",  # in full-width ones
        "store productivity (i.e. revenue per store) in 2024",  # English
        "门店数是多少",  # no bracket: as written
    ],
)
def test_a_gloss_needs_an_opening_bracket(text: str) -> None:
    blanked = [m.span(n) for m in _GLOSS.finditer(text) for n in ("word", "open", "close")]
    expected = "".join(" " if any(s <= i < e for s, e in blanked) else c
                       for i, c in enumerate(text))  # fmt: skip
    assert without_glossed(text) == expected


def test_every_claimed_rate_ends_on_its_percent_sign() -> None:
    """claimed_rate searches only a text holding a %: each branch of the claim ends on one."""
    [(kind, (_, branches))] = re_parser.parse(_CLAIMED_RATE.pattern)
    assert kind == re_parser.BRANCH
    assert all(b[-1] == (re_parser.LITERAL, ord("%")) for b in branches)


@pytest.mark.parametrize(
    ("text", "claimed"),
    [
        ("有人说香港的收入增长了15%,这个说法对吗", True),  # a claim and a check
        ("did revenue grow 15% in 2024?", True),  # English
        ("有人说香港的收入增长了15,这个说法对吗", False),  # no % sign: no claim
        ("收入增长了15%,利润是多少", False),  # a premise, no check asked
    ],
)
def test_a_claim_is_read_with_its_percent_sign(text: str, claimed: bool) -> None:
    assert (claimed_rate(text) is not None) is claimed


WORDS = frozenset({"香港", "收入", "营业收入", "ab", "abc", "x"})  # x: one letter, never a word


def _any_word_in(text: str, words: frozenset[str]) -> bool:
    """The definition: some word of two characters or more stands in the text."""
    return any(len(w) >= 2 and w in text for w in words)


@pytest.mark.parametrize(
    ("text", "holds"),
    [
        ("香港分部", True),  # a word at the start
        ("台湾营业收入", True),  # a longer word at the end
        ("zabz", True),  # a Latin word inside
        ("xx", False),  # a one-letter word is no word
        ("", False),  # nothing
    ],
)
def test_holds_word_is_any_word_of_two_or_more_inside(text: str, holds: bool) -> None:
    assert holds_word(text, WORDS) is holds is _any_word_in(text, WORDS)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="香港收入营业abcx投资研发 ", max_size=16))
def test_holds_word_agrees_with_trying_every_word(text: str) -> None:
    assert holds_word(text, WORDS) is _any_word_in(text, WORDS)
    assert holds_word(text, GENERIC_CJK) is _any_word_in(text, GENERIC_CJK)
