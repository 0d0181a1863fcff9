"""A number's label: the words that say what it is (每日工作不超过, 改造项目的回收期, At the start
of), read between the figure before it in its sentence (or the sentence's start) and it; in a
分别 / respectively list, the i-th of the items listed before the figures.

A label swap keeps every value and moves them between labels: 每日8小时、每周40小时 told as
每日40、每周8. Each value is in the passage, so only its label tells. A claim whose label has
words of the label the passage gives ANOTHER number of the same sentence, and none of the words
that set the label of its own value apart, carries the wrong label. Entity names, periods, units
function words and direction words are no label words (their own checks read them)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ragspine.evals.audit import words as w
from ragspine.evals.audit.context import Statement
from ragspine.evals.audit.names import Lexicon
from ragspine.evals.audit.periods import find_periods
from ragspine.evals.audit.support import same_value

_NOISE = re.compile(
    r"高于|低于|好于|优于|差于|相比|相较|(?<![A-Za-z])(?:than|compared|versus|vs)(?![A-Za-z])"
    r"|不超过|不得|超过|不少于|不低于|至少|约为|大约|左右|分别|各自|其中|百万|千万|万亿|美元|港元|人民币"
    r"|个月|小时|增至|降至|增长|下降|[\d.,%‰]+"
    r"|[的了为是约达共和与及或在由至到从将已须为按即较比亿万千元家个天年月日周]"
)
_STOP = frozenset(
    re.findall(
        r"\w+",
        """
    a an the of at by to in on for and or with from into our we were was is are be been had has
    have them their its it this that which respectively each per about around approximately
    million billion thousand usd us hk percent stores store
""",
    )
)
_WORD = re.compile(r"[A-Za-z]+|[\u4e00-\u9fff]+")


def tokens(label: str, lex: Lexicon) -> frozenset[str]:
    """A label's words: English words, and two-character runs of Chinese (once per label and
    lexicon)."""
    return lex.labels.get(label, lambda: _tokens(label, lex))


def _tokens(label: str, lex: Lexicon) -> frozenset[str]:
    chars = list(label)
    spans = [(f.start, f.end) for f in lex.entities(label)]
    for start, end in [*spans, *((p.start, p.end) for p in find_periods(label))]:
        chars[start:end] = " " * (end - start)
    text = _NOISE.sub(" ", w.FALL.sub(" ", w.RISE.sub(" ", "".join(chars))))
    out: set[str] = set()
    for m in _WORD.finditer(text):
        word = m.group()
        if word.isascii():
            if word.lower() not in _STOP and len(word) > 1:
                out.add(word.lower())
        else:
            out.update(word[i : i + 2] for i in range(len(word) - 1))
    return frozenset(out)


def wrong_label(st: Statement, passages: Iterable[Sequence[Statement]], lex: Lexicon) -> bool:
    """Does the claim carry the label a passage gives another number of the same sentence, where
    that sentence gives the claim's value a label of its own?"""
    mine = tokens(st.label, lex)
    if not mine:
        return False
    passages = list(passages)
    mates = [tokens(s.label, lex) for p in passages for s in p if same_value(st.claim, s.claim)]
    for statements in passages:
        by_sentence: dict[int, list[Statement]] = {}
        for s in statements:
            by_sentence.setdefault(s.sentence, []).append(s)
        for group in by_sentence.values():
            for own in (b for b in group if same_value(st.claim, b.claim)):
                for other in group:
                    if _swapped(st, mine, own, other, lex) and not any(
                        mine & mate - tokens(other.label, lex) for mate in mates
                    ):
                        return True  # no passage labels its value with words of the claim's
    return False


def _swapped(
    st: Statement, mine: frozenset[str], own: Statement, other: Statement, lex: Lexicon
) -> bool:
    """The claim's label has words only ``other``'s label has, none only ``own``'s has."""
    if other.claim.kind != st.claim.kind or same_value(st.claim, other.claim):
        return False
    if {own.ctx.role, other.ctx.role} & {"from", "to"}:
        return False  # a from-to pair shares its label: 占比由22%提升至27%
    theirs, label = tokens(own.label, lex), tokens(other.label, lex)
    only_other, only_own = label - theirs, theirs - label
    return bool(only_other and only_own and mine & only_other and not mine & only_own)
