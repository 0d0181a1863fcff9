"""What a document question asks OF its subject, and the one passage that must hold both.

"How many times did the Audit Committee meet", 飞行检查发现了几项缺陷, "what is the name of the
sorting robot at the hub" ask an ATTRIBUTE (a count of events or of items, a name, a date) of a
SUBJECT the question writes in its content words (``unheld_words``: what is left once the
profile's names, periods, digits and the frame are taken out). A passage answers only where it
holds the subject's every content word and the attribute's kind (a count: a number that is not
a year; a date: a number or a month; a name: the words alone). Words spread over several
passages are another subject: the Audit Committee named in one passage and another committee's
"four times a year" in the next would answer another question. Otherwise the answer is an
honest not-found naming the subject in the user's words.

Not judged here: an amount or a ratio (多少, how much, what share: ``narrative._together`` holds
a name's figure), why and how (no attribute is asked), and a word in another script than the
passages (a question in English, a report in Chinese: the passage may say it in its words).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ragspine.agent.unheld_words import content_spans, held
from ragspine.profile import DomainProfile
from ragspine.text import fold

TIMES, COUNT, NAME, DATE = "times", "count", "name", "date"

_CLASSIFIER = "项个家名位条起宗件种类款座所处轮回"
# The cue of each attribute, in the folded question; the cue's words are never the subject's.
_CUES = (
    (TIMES, re.compile(r"how\s+many\s+times|how\s+often|(?:多少|几)(?:次|回|轮)")),
    (COUNT, re.compile(rf"how\s+many(?![a-z])|(?:多少|几)[{_CLASSIFIER}]")),
    (
        NAME,
        re.compile(
            r"(?:what|which)(?:\s+(?:is|was|are|were)|['’]s)\s+the\s+names?(?:\s+of)?(?![a-z])|"
            r"what\s+names?(?![a-z])|叫什么(?:名字)?|叫做什么|什么名字|(?:名字|名称)(?:是|叫)什么"
        ),
    ),
    (
        DATE,
        re.compile(
            r"(?<![a-z])(?:when|(?:what|which)\s+(?:year|month|date|day))(?![a-z])|"
            r"哪一年|哪年|何年|何时|什么时候|哪一天|哪天|几月"
        ),
    ),
)
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_NUMBER_WORD = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|dozen|once|twice"
)
# A count: a number that is not a year (2024 dates a passage, it counts nothing).
_COUNT = re.compile(
    rf"(?<![\d.])(?!(?:19|20)\d\d(?!\d))\d+(?:\.\d+)?|(?<![a-z])(?:{_NUMBER_WORD})(?![a-z])|"
    rf"[一二两三四五六七八九十百]+[{_CLASSIFIER}次]"
)
_DATE = re.compile(rf"\d|(?<![a-z])(?:{_MONTHS}|{_NUMBER_WORD})(?![a-z])|[一二三四五六七八九十]+月")
_KIND_OK = {TIMES: _COUNT, COUNT: _COUNT, DATE: _DATE}


class Unanswered(NamedTuple):
    """The attribute asked (``TIMES``, ``COUNT``, ``NAME``, ``DATE``) and the subject, in the
    user's words, that no one passage holds together with it."""

    kind: str
    name: str


def asked_attribute(question: str) -> tuple[str, tuple[int, int]] | None:
    """The attribute the question asks and its cue's span in the folded question, or None."""
    text = fold(question)
    for kind, cue in _CUES:
        m = cue.search(text)
        if m is not None:
            return kind, m.span()
    return None


def unanswered(question: str, profile: DomainProfile, passages: Sequence[str]) -> Unanswered | None:
    """The subject no one of ``passages`` holds with the attribute asked, or None where one
    does, the question asks no attribute, or no subject word is in the passages' script."""
    asked = asked_attribute(question)
    if asked is None or not passages:
        return None
    kind, (start, end) = asked
    text = fold(question)
    masked = text[:start] + " " * (end - start) + text[end:]
    scripts = {_cjk(p) for p in passages}
    spans = content_spans(masked, profile)
    verbs = _verbs(masked, spans)
    words = [w for w in spans if scripts == {_cjk(w[0])} and w not in verbs]
    if not words:
        return None
    texts = [fold(p) for p in passages]
    kind_ok = _KIND_OK.get(kind)
    for t in texts:
        if (kind_ok is None or kind_ok.search(t)) and all(held(w, [t]) for w, _, _ in words):
            return None
    # the rarest word names the subject: 飞行 (no passage) before 检查 (many)
    rarest = min(words, key=lambda w: sum(held(w[0], [t]) for t in texts))
    return Unanswered(kind, _shown(question, text, rarest))


# An English auxiliary: the question's main verb ends the content phrase after it.
_AUXILIARY = re.compile(r"(?<![a-z])(?:did|does|do|has|have|had|will)(?![a-z])")


def _verbs(text: str, spans: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """The main verb of an English question (meet of "did the Audit Committee meet"): the last
    word of the first content phrase after an auxiliary. Not held to: a passage writes it in
    another form (met, convened), while the subject's nouns it must hold."""
    out = []
    for aux in _AUXILIARY.finditer(text):
        after = [w for w in spans if w[1] >= aux.end() and w[0].isascii()]
        if after:
            first = min(after, key=lambda w: w[1])
            same = [w for w in after if w[1:] == first[1:]]
            out.append(same[-1])
    return out


def _shown(question: str, text: str, word: tuple[str, int, int]) -> str:
    """The subject as the user wrote it: the phrase its word stands in, or the capitalised run
    inside that phrase (Audit Committee of "Audit Committee meet": the name, not its verb)."""
    _, lo, hi = word
    if len(text) != len(question):  # folding changed the length: the folded phrase
        return " ".join(text[lo:hi].split())
    phrase = question[lo:hi]
    run = next((m.group() for m in _CAPITALISED.finditer(phrase) if m.start() or lo), None)
    return run or " ".join(phrase.split())


_CAPITALISED = re.compile(r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]")


def _cjk(text: str) -> bool:
    return _CJK_RUN.search(text) is not None
