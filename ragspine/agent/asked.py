"""The quantity a figure question asks of a name the profile does not know.

首席执行官2024年的薪酬是多少 asks for the pay, not the role: a passage that names the chief
executive but says nothing of pay (he receives a compliance officer's reports) cannot give the
figure, and presenting it would answer another question. So, on the narrative route, when a
figure is asked of a name (a person, a role, a project, a partner), the words left once the
name, the company's and the entities' names, the periods and the question's frame are taken out
(``subject_residue.unnamed_quantity``) name the quantity asked; the documents must name it too,
as they must name the subject. A question that names no figure (its progress, its terms) is held
to its names only.
"""

from __future__ import annotations

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
) -> Subject | None:
    """The quantity a figure question asks of its named subjects, as a subject the documents
    must name too; None where no name is held to, or nothing but the name is asked."""
    names = [s for s in subjects if s.kind not in (WORD, QUANTITY)]
    if not names:
        return None
    channels = [(m.start, m.end) for k, m in scan if k == "channels"]
    spans = [*explained, *[(s.start, s.end) for s in subjects]]
    found = unnamed_quantity(text, spans, channels, generic=True)
    if found is None or any(s.start < found[1] and found[0] < s.end for s in subjects):
        return None
    stem = compact(text[found[0] : found[1]])
    if len(stem) < 2:
        return None
    return Subject(original_words(question, index, found), stem, *found, True, QUANTITY)
