"""A distinctive term of a document question that no passage holds: the question is about it.

A proper noun, an acronym or a capitalised name the user writes (Bitcoin, USDA, Project Falcon)
picks out one thing; passages that do not name it are about something else, whatever else of
the question they share (ACME's stores in Hong Kong, a vaccine's sales). So where no passage
the caller may read holds the term (the retriever, asked for the term alone, returns none that
holds it, nor any such passage's document title or name) the answer is an honest not-found
naming it, for any question: a figure, a yes/no question (Can I pay with Bitcoin …?), why or
how. A proper name is mostly written as it is in any script, so a Chinese corpus is judged too
(USDA named in no passage); a document named for it (ACME_PIPL_Compliance_Guideline, written
in Chinese) is about it.

Distinctive, in the question as written: a word of two capitals or more (USDA, POS), or a
capitalised word that does not open its sentence (Bitcoin); never a word the profile's glossary
reads (the company, its entities, metrics, channels), a month or a weekday. A question written
in capitals throughout (Title Case, all caps) marks nothing: its capitals say nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ragspine.agent.unheld_words import held, stem
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import glossary_for
from ragspine.text import fold, fold_with_index

_WORD = re.compile(r"[A-Za-z][A-Za-z&'’-]*[A-Za-z]")
_ACRONYM = re.compile(r"[A-Z][A-Z&]*[A-Z]s?")
_CAPITAL = re.compile(r"[A-Z][a-z]+")
_SENTENCE_START = re.compile(r"(?:^|[.?!:;。?!:;])\s*[\"'“‘(]?\s*$")
_CALENDAR = frozenset(
    (  # noqa: SIM905
        "january february march april may june july august september october november december "
        "monday tuesday wednesday thursday friday saturday sunday"
    ).split()
)
_JOIN = re.compile(r"\s+(?:of\s+)?$")  # Project Falcon, Bank of China: one name


def distinct_terms(question: str, profile: DomainProfile) -> list[str]:
    """The question's distinctive names (runs of distinctive words), as the user wrote them."""
    folded, index = fold_with_index(question)
    masked = [False] * len(question)
    for _, m in glossary_for(profile).scan(folded):
        for i in index[m.start : m.end]:
            masked[i] = True
    words = [w for w in _WORD.finditer(question) if not any(masked[w.start() : w.end()])]
    capitals = [w for w in words if w.group()[0].isupper()]
    if len(words) >= 3 and len(capitals) * 2 > len(words):
        return []  # Title Case or all caps: no word is marked by its capital
    runs: list[tuple[int, int]] = []
    for w in words:
        word = w.group().removesuffix("'s").removesuffix("’s")
        if word.lower() in _CALENDAR:
            continue
        acronym = _ACRONYM.fullmatch(word) is not None
        opening = _SENTENCE_START.search(question, 0, w.start()) is not None
        if not acronym and (_CAPITAL.fullmatch(word) is None or opening):
            continue
        end = w.start() + len(word)
        if runs and _JOIN.fullmatch(question, runs[-1][1], w.start()):
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((w.start(), end))
    return [question[a:b] for a, b in runs]


def _inflected(word: str) -> str:
    base = stem(word)
    return " ".join(dict.fromkeys([word, *(base + e for e in ("", "s", "es", "ed", "ing"))]))


def unheld_term(
    question: str, profile: DomainProfile, passages: Callable[[str], Sequence[str]]
) -> str | None:
    """The first distinctive name of the question a word of which no passage the caller may read
    holds (``passages`` gives the texts a query retrieves), or None."""
    for name in distinct_terms(question, profile):
        for word in re.findall(r"[a-z][a-z&]*[a-z]", fold(name)):
            if word == "of":
                continue
            if not held(word, [fold(t) for t in passages(_inflected(word))]):
                return name
    return None
