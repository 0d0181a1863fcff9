"""Initialisms as written: OP is operating profit where a question writes it in capitals and
alone, never inside OPEN, in 'op' or in a product code NP-200.

The glossary matches folded (lower-case) text, so it cannot tell 'OP' from 'op'. A shipped
initialism of two to four letters, or an entity's country code (``vocabulary.initialisms``),
spells ordinary words and codes when it is not written in capitals; and one hyphenated to
another token (NP-200, X-NP) is part of that token, a model or product code. Its plural is
written with a small s (NPs): NPS in capitals is another initialism. Such a match is dropped
from the question's reading; the profile's own aliases are kept as it declares them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ragspine.agent.subject_words import COMMON_EN, folded_span
from ragspine.profile import DomainProfile
from ragspine.profile.compared_years import is_year_shorthand
from ragspine.profile.glossary import AliasMatch
from ragspine.profile.model import compact
from ragspine.profile.regions import country_codes
from ragspine.profile.vocabulary import initialisms

NAME, PLACE = "name", "place"  # the kinds of subject ``subjects`` names
_PLURAL = re.compile(r"['’]?s$")


def as_written(
    scan: list[tuple[str, AliasMatch]],
    text: str,
    question: str,
    index: list[int],
    profile: DomainProfile,
) -> list[tuple[str, AliasMatch]]:
    """The glossary's reading of folded ``text`` less each initialism the question (``index``
    maps ``text`` to it) does not write in capitals, or writes hyphenated to a code."""
    words = initialisms(profile)
    if not words:
        return scan
    return [(k, m) for k, m in scan if not _not_the_initialism(m, text, question, index, words)]


def _not_the_initialism(
    m: AliasMatch, text: str, question: str, index: list[int], words: frozenset[str]
) -> bool:
    span = text[m.start : m.end]
    word = compact(span)
    plural = word not in words
    if plural:
        word = compact(_PLURAL.sub("", span))  # NPs: the initialism and its plural
        if word not in words:
            return False
    written = question[index[m.start] : index[m.end - 1] + 1]
    if plural and written.endswith("S"):
        return True  # NPS: another initialism (net promoter score), never NP's plural
    letters = [c for c in _PLURAL.sub("", written) if c.isalpha()]
    if not all(c.isupper() for c in letters):
        return True  # op, Np: a word, not the initialism
    before = text[max(m.start - 2, 0) : m.start]
    after = text[m.end : m.end + 2]
    return bool(re.fullmatch(r"[a-z0-9]-", before) or re.fullmatch(r"-[a-z0-9]", after))


# A token in capitals, two to four letters, standing alone (not in MD&A, R&D, NP-200, FY2024).
_CAPITALS = re.compile(r"(?<![A-Za-z0-9_&'’.-])[A-Z]{2,4}(?![A-Za-z0-9_&-])")
_OWNS = re.compile(r"(?:['’]s)?\s*(?:的)?\s*")

Add = Callable[[int, int, str, bool, str], None]


def code_subjects(
    question: str,
    text: str,
    index: list[int],
    scan: list[tuple[str, AliasMatch]],
    known: frozenset[str],
    add: Add,
) -> None:
    """Codes in capitals the profile does not know, as subjects (``add`` as in ``subjects``): a
    country's ISO code (SG, USA) is a place the fact table cannot give, and any such code written
    right before a metric, as its owner (XY net profit, SG的净利润), names a part of the business
    the profile has not. Either is declined by name, never answered with the group's figure.
    LY / PY after a comparison word is the last / prior year (``is_year_shorthand``).
    A common English word (IT, NO, YTD, CEO) is a word, in capitals or not."""
    heads = {m.start for k, m in scan if k in ("metrics", "quantity")}
    for m in _CAPITALS.finditer(question):
        word = m.group()
        if compact(word) in known or word.lower() in COMMON_EN:
            continue
        start, end = folded_span(index, *m.span())
        if is_year_shorthand(text, start, end):
            continue  # FY21 vs LY: the last year, no country's code
        owner = _OWNS.match(text, end)
        before_metric = owner is not None and owner.end() in heads
        if word in country_codes():
            add(start, end, word, before_metric, PLACE)
        elif before_metric:
            add(start, end, word, True, NAME)
