"""Text folding shared by the security gate, the glossary and the intent parser.

Users write the same word many ways: full-width letters, traditional characters (HK and TW),
combining accents, zero-width or bidi characters, Cyrillic or Greek look-alikes, any case.
Folding maps each character to one canonical form so every matcher compares like with like.
Folding is per character, so a folded string can be mapped back to the original positions.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache, lru_cache
from importlib import resources

_DROP_CATEGORIES = frozenset({"Mn", "Me", "Cf", "Cc", "Cs", "Co", "Cn"})
# Hangul fillers are letters (Lo) that render as nothing: the only default-ignorable code points
# the categories above miss. U+3164 and U+FFA0 decompose to U+1160.
_INVISIBLE_LETTERS = frozenset({"\u115f", "\u1160"})


@cache
def _t2s():  # type: ignore[no-untyped-def]
    import opencc

    return opencc.OpenCC("t2s")


@cache
def _confusables() -> dict[str, str]:
    """Cyrillic and Greek letters that look like a Latin letter, from Unicode's confusables data."""
    from confusable_homoglyphs import categories

    raw = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    data: dict[str, list[dict[str, str]]] = json.loads(raw)
    table: dict[str, str] = {}
    for char, glyphs in data.items():
        if len(char) != 1 or categories.alias(char) not in ("CYRILLIC", "GREEK"):
            continue
        latin = [g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii()]
        latin = [c for c in latin if c.isalpha()]
        if not latin:
            continue
        # Unicode pairs capital I with l; a capital look-alike (Greek iota) means 'I'.
        same_case = [c for c in latin if c.isupper() == char.isupper()]
        target = (same_case or latin)[0]
        table[char] = "I" if target == "l" and char.isupper() else target
    return table


# Bounded: a text's alphabet is a few thousand characters, and a sweep of every code point (an
# attacker's input) must not grow a long-running process by the size of Unicode.
CHAR_CACHE_SIZE = 1 << 15


@lru_cache(maxsize=CHAR_CACHE_SIZE)
def fold_char(char: str) -> str:
    """The canonical form of one character; may be empty (dropped) or longer than one."""
    if char.isascii():
        return char.lower()
    decomposed = unicodedata.normalize("NFKD", char)
    kept = "".join(
        c
        for c in decomposed
        if unicodedata.category(c) not in _DROP_CATEGORIES and c not in _INVISIBLE_LETTERS
    )
    if not kept:
        return ""
    kept = unicodedata.normalize("NFC", kept)
    if any("\u3400" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" for c in kept):
        kept = _t2s().convert(kept)
    confusables = _confusables()
    return "".join(confusables.get(c, c) for c in kept).casefold()


def fold(text: str) -> str:
    """Fold a whole string: NFKC-like, marks and format characters dropped, simplified, lower."""
    if text.isascii():
        return text.lower()
    return "".join(map(fold_char, text))


def fold_with_index(text: str) -> tuple[str, list[int]]:
    """Fold and keep, for each folded character, the index of the original it came from.

    Most texts fold one character to one (ASCII always does): their index is the identity,
    built at once; only a text with a dropped or widened character is walked."""
    if text.isascii():
        return text.lower(), list(range(len(text)))
    parts = list(map(fold_char, text))
    folded = "".join(parts)
    if len(folded) == len(text) and "" not in parts:  # no part empty, none longer: one each
        return folded, list(range(len(text)))
    index: list[int] = []
    for i, part in enumerate(parts):
        index.extend([i] * len(part))
    return folded, index
