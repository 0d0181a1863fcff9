"""An unknown subject that qualifies the metric (``subject_residue``) as the parser uses it, said
by its whole noun phrase, a region glued before it included (台湾啤酒的收入: not 啤酒 alone;
``noun_phrases.with_region``), and a place word of the shipped list glued to it too (粤港澳大湾区:
the run and 大湾区 are one region's name, never 粤港澳 alone). The name of a figure asked of no
metric is ``unnamed``."""

from __future__ import annotations

from ragspine.agent.intent_text import original_words
from ragspine.agent.noun_phrases import with_region
from ragspine.agent.subject_residue import unknown_qualifier
from ragspine.agent.subjects import Subject
from ragspine.profile.glossary import AliasMatch
from ragspine.profile.model import compact


def qualifier_subject(
    text: str,
    index: list[int],
    question: str,
    scan: list[tuple[str, AliasMatch]],
    explained: list[tuple[int, int]],
    spans: list[tuple[str, int, int]],
    home: str,
) -> Subject | None:
    """An unknown subject qualifying the metric (``subject_residue``), as a strong subject."""
    named = [(m.start, m.end) for k, m in scan if k == "entities"]
    # a channel or a listed place glued to the run is part of its name (电商事业部, 粤港澳大湾区)
    channels = [(m.start, m.end) for k, m in scan if k in ("channels", "place")]
    found = unknown_qualifier(text, [(s, e) for _, s, e in spans], explained, named, channels)
    if found is None:
        return None
    found = with_region(text, found, scan, home)
    name = original_words(question, index, found)
    return Subject(name, compact(text[found[0] : found[1]]), found[0], found[1], True)
