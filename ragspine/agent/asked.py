"""The quantity a figure question asks of a name the profile does not know.

首席执行官2024年的薪酬是多少 asks for the pay, not the role: a passage that names the chief
executive but says nothing of pay (he receives a compliance officer's reports) cannot give the
figure, and presenting it would answer another question. So, on the narrative route, when a
name is asked about (a person, a role, a project, a partner), the words left once the name, the
company's and the entities' names, the periods and the question's frame (a figure's: 是多少; a
document question's: 如何, 进展, 原因) are taken out (``subject_residue.unnamed_quantity``) name
what is asked of it (薪酬, 预算, 交易对价); the documents must name it too, as they must name the
subject (``narrative.py``: strictly for a figure; a passage in another language than the word
is not judged by it for a document question). A question asking nothing but the name is held
to its names only.
"""

from __future__ import annotations

import re

from ragspine.agent.intent_text import original_words
from ragspine.agent.subject_residue import unnamed_quantity
from ragspine.agent.subjects import QUANTITY, WORD, Subject
from ragspine.profile.glossary import AliasMatch
from ragspine.profile.model import compact


def asked_of(
    text: str,
    index: list[int],
    question: str,
    scan: list[tuple[str, AliasMatch]],
    explained: list[tuple[int, int]],
    subjects: list[Subject],
    *,
    figure: bool,
) -> Subject | None:
    """What the question asks of its named subjects, as a subject the documents must name too;
    None where no name is held to, or nothing but the name is asked. ``explained``: the spans
    the parser read, and the question's frame words. A ``figure`` question's leftover words are
    the quantity; a document question's are held to only where the name owns them (X的Y, Y of
    X, X's Y): elsewhere they are its verbs (how did ACME improve …, 推进得怎么样)."""
    names = [s for s in subjects if s.kind not in (WORD, QUANTITY)]
    if not names:
        return None
    channels = [(m.start, m.end) for k, m in scan if k == "channels"]
    spans = [*explained, *[(s.start, s.end) for s in subjects]]
    found = unnamed_quantity(text, spans, channels, generic=True)
    if found is None or any(s.start < found[1] and found[0] < s.end for s in subjects):
        return None
    stem = compact(text[found[0] : found[1]])
    if len(stem) < 2 or not (figure or _owned(text, found, names, spans)):
        return None
    return Subject(original_words(question, index, found), stem, *found, True, QUANTITY)


_OWNS = re.compile(r"\s*(?:的|之|['’]s|of(?:\s+(?:the|its))?)\s*")


def _owned(
    text: str, word: tuple[int, int], names: list[Subject], spans: list[tuple[int, int]]
) -> bool:
    """Whether a name owns the word: only 的 / 's / of (and what the parser read: 2024年) stand
    between them (首席执行官2024年的薪酬, the status of Project Evergreen)."""
    masked = "".join(" " if any(s <= i < e for s, e in spans) else c for i, c in enumerate(text))
    for n in names:
        if n.end <= word[0]:
            gap = masked[n.end : word[0]]
        elif word[1] <= n.start:
            gap = masked[word[1] : n.start]
        else:
            continue
        if gap.strip() and _OWNS.fullmatch(gap):
            return True
    return False
