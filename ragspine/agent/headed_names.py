"""A plan a figure is asked of: the words written before a plan's noun name it.

plan, programme, scheme, initiative (计划) are a document question's frame where they stand
alone ("what is ACME's plan for Taiwan", 公司的计划是什么), so the narrative route takes them
out of what the passages must hold. Written as the head of a noun phrase, after content words
that nothing else explains (employee share ownership plan, customer loyalty programme, 员工持股
计划), they name one thing the company may or may not run. A figure asked of it (how much did it
pay out, 支付了多少) is that thing's figure: passages about some other plan (a supplier
improvement plan, a bag-charge scheme) never answer it. So, in a figure question on the narrative
route, the whole phrase is a subject, named by it in a not-found; the passages must hold its own
words (a document writes "our programme is food redistribution" as often as "the food
redistribution programme"), or the answer is not found, naming it. A metric, an entity, a
period or a name the parser read stops the phrase: revenue plan is a metric's, not a plan's
name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.agent.intent_text import original_words
from ragspine.agent.span_masks import covered
from ragspine.agent.subject_residue import frame_words
from ragspine.agent.subject_words import COMMON_EN, STOPS
from ragspine.agent.subjects import NAME, Subject
from ragspine.profile.model import compact

Span = tuple[int, int]

_HEAD_EN = re.compile(
    r"(?<![a-z-])(?:plans?|programmes?|programs?|schemes?|initiatives?)(?![a-z-])"
)
_HEAD_CJK = re.compile(r"计划")
_WORD_BEFORE = re.compile(r"(?<![a-z0-9'’-])([a-z][a-z0-9-]*)\s+$")
# Words that ask, count or tie a clause: never a plan's name (how much did the plan cost).
_NOT_NAME_EN = frozenset(
    (  # noqa: SIM905
        "much many spend spent cost costs paid pay pays invest invested under into via its new "
        "current next last this"
    ).split()
)


def headed_names(
    text: str, index: list[int], question: str, explained: Sequence[Span]
) -> list[Subject]:
    """Each plan a figure question names by words before its head, as a subject (``text`` the
    folded question, ``explained`` the spans the parser read). None where the head stands alone
    or after words the parser read (ACME's plan, 2025年计划)."""
    taken = covered(len(text), explained)
    found: list[Subject] = []
    for m in [*_HEAD_EN.finditer(text), *_HEAD_CJK.finditer(text)]:
        if any(taken[m.start() : m.end()]):
            continue
        start = _start_cjk(text, m.start(), taken) if _cjk(m.group()) else _start_en(text, m, taken)
        if start is None:
            continue
        span = (start, m.end())
        name = original_words(question, index, span)
        key = compact(text[start : m.start()]).strip()  # its own words: 'the programme is X'
        found.append(Subject(name, key, *span, True, NAME))
    return found


def _start_en(text: str, head: re.Match[str], taken: list[bool]) -> int | None:
    """Where the content words right before an English head start; None without one."""
    start = head.start()
    words = 0
    while True:
        before = _WORD_BEFORE.search(text, 0, start)
        if before is None or any(taken[before.start(1) : before.end(1)]):
            break
        word = before.group(1)
        if len(word) < 3 or word in COMMON_EN or word in _NOT_NAME_EN:
            break
        start, words = before.start(1), words + 1
    return start if words else None


def _start_cjk(text: str, head: int, taken: list[bool]) -> int | None:
    """Where the run of two or more CJK characters right before a Chinese head starts, less
    the question's frame (的, 是多少, 2024年); None without one."""
    frame = [False] * len(text)
    for m in frame_words().finditer(text):
        if m.end() - m.start() >= 2 or m.group() in STOPS:
            frame[m.start() : m.end()] = [True] * (m.end() - m.start())
    start = head
    while start > 0 and _cjk(text[start - 1]) and not (taken[start - 1] or frame[start - 1]):
        start -= 1
    return start if head - start >= 2 else None


def _cjk(s: str) -> bool:
    return all("\u4e00" <= c <= "\u9fff" for c in s)
