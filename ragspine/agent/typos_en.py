"""A slip of the keyboard in an English word of a metric's name: revnue is revenue, proift
profit, grwoth growth. One edit (a letter dropped, added, changed, or two swapped: Damerau's
distance one), and only where nothing else can be meant:
- the word has five letters or more (at four, one edit reaches too many words);
- it is no word of its own: not one the profile or the shipped vocabulary knows, nor one of the
  English dictionary (revenge and reserve are words, never revenue or reserves misspelt);
- exactly one known word is one edit away (two are ambiguous, and nothing is read), and that word
  is written in the name of a quantity (a metric, a shipped quantity, a term declared
  unsupported), never only in an entity's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ragspine.profile import DomainProfile
from ragspine.profile.glossary import glossary_for
from ragspine.text import fold

_SHORTEST = 5
_WORD = re.compile(r"(?<![a-z0-9_])[a-z]+(?![a-z0-9_])")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_QUANTITY_KINDS = ("metrics", "quantity", "unsupported")


@dataclass(frozen=True)
class _Words:
    known: frozenset[str]  # every Latin word a glossary term is written with
    quantities: frozenset[str]  # the ones written in a quantity's name


def english_slips(text: str, profile: DomainProfile) -> list[tuple[int, int, str]]:
    """(start, end, word read) for each slip in folded ``text``, in order."""
    words: _Words = profile.memo("english_near_miss", lambda: _build(profile))
    out = []
    for m in _WORD.finditer(text):
        written = m.group()
        if len(written) < _SHORTEST or written in words.known or _dictionary_word(written):
            continue
        near = [w for w in _one_edit(written) if w in words.known]
        if len(near) == 1 and near[0] in words.quantities:
            out.append((m.start(), m.end(), near[0]))
    return out


def _build(profile: DomainProfile) -> _Words:
    known: set[str] = set()
    quantities: set[str] = set()
    for kind, term in glossary_for(profile).kinds:
        latin = set(_WORD.findall(fold(term)))
        known |= latin
        if kind in _QUANTITY_KINDS:
            quantities |= latin
    return _Words(frozenset(known), frozenset(quantities))


def _one_edit(word: str) -> set[str]:
    """Every string one Damerau edit from ``word``."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {a + b[1:] for a, b in splits if b}
    swaps = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1 and b[0] != b[1]}
    changes = {a + c + b[1:] for a, b in splits if b for c in _LETTERS if c != b[0]}
    inserts = {a + c + b for a, b in splits for c in _LETTERS}
    return deletes | swaps | changes | inserts


@cache
def _dictionary() -> frozenset[str]:
    """The English dictionary's words (pyspellchecker's list)."""
    from spellchecker import SpellChecker

    return frozenset(SpellChecker(language="en").word_frequency.keys())


def _dictionary_word(word: str) -> bool:
    return word in _dictionary()
