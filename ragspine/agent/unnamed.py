"""The name of a figure asked of no metric the profile knows (门店租金是多少, How many online
customers, What was Hong Kong's GMROI in 2024?): declined by that name, never "which metric?".

The question asks a figure (``question_cues.asks_figure``: 多少 / how much, or an English "what
was …" of a named entity or period), and the words nothing else explains name the quantity
(``subject_residue.unnamed_quantity``, less the frame written inside it: ``name_pieces``). Where
no word is left (What was Hong Kong's figure in FY2024?) nothing is named: the clarifying
question asks which metric.
"""

from __future__ import annotations

import re

from ragspine.agent.intent_text import original_words
from ragspine.agent.noun_phrases import with_region
from ragspine.agent.question_cues import asks_figure
from ragspine.agent.subject_residue import name_pieces, unnamed_quantity
from ragspine.agent.subject_words import COMMON_EN, folded_span
from ragspine.agent.whole_names import organisation_before, without_verb_after
from ragspine.profile.glossary import AliasMatch

Span = tuple[int, int]


def unnamed_name(
    text: str,
    index: list[int],
    question: str,
    scan: list[tuple[str, AliasMatch]],
    explained: list[Span],
    other: str | None,
    when: bool,
    home: str,
) -> tuple[str | None, Span | None]:
    """The name (the question's words) and its span in the folded ``text``, or (None, None).
    ``other``: a line or partner already named (no quantity to name); ``when``: a period is
    named. A region glued before the name is part of it (卖出了多少台灣啤酒: not 啤酒 alone;
    ``noun_phrases.with_region``)."""
    whose = any(k == "entities" for k, _ in scan)
    if other or not asks_figure(text, whose_or_when=whose or when):
        return None, None
    channels = [(m.start, m.end) for k, m in scan if k == "channels"]
    found = unnamed_quantity(text, explained, channels) or _acronym(question, index, explained)
    if found is None:
        return None, None
    org = organisation_before(text, found, explained)  # 門店網絡委員會由多少名成員組成
    if org is not None:
        counted = without_verb_after(text, found)
        name = original_words(question, index, org) + original_words(question, index, counted)
        return name, (org[0], counted[1])
    found = with_region(text, found, scan, home)
    return "".join(original_words(question, index, p) for p in name_pieces(text, found)), found


# An initialism in capitals standing alone (GMROI, NPS, ROIC), not a period (FY2024, Q3).
_ACRONYM = re.compile(r"(?<![A-Za-z0-9_&'’.-])[A-Z]{2,6}(?![A-Za-z0-9_&-])")


def _acronym(question: str, index: list[int], explained: list[Span]) -> Span | None:
    """In a Chinese question, an initialism nothing explains where the metric stands (香港2024年
    GMROI是多少): the quantity's name. The Chinese residue reads CJK runs only, so a Latin code
    alone is read here, only in capitals (a word in lower case names no metric by its letters)."""
    if not re.search(r"[\u4e00-\u9fff]", question):
        return None
    for m in _ACRONYM.finditer(question):
        start, end = folded_span(index, *m.span())
        common = m.group().lower() in COMMON_EN  # CEO, YTD: a word, no metric's name
        if not common and not any(s < end and start < e for s, e in explained):
            return start, end
    return None
