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

A document question may name no one and still presume something: an event (ACME在香港的商标侵权
诉讼目前进展如何, how was the 2020 product recall handled). An event word (诉讼, 召回, 事件,
lawsuit, recall, incident …) and the words written with it that nothing explains name the event
(``event_of``); a passage is about it only where it holds every one of those words (less a mere
classifier such as 事件 where others remain), as a passage in the event's own script judges it.
Passages about the company's other affairs are never presented as the event's account.
A short-seller attack (做空, 沽空, short seller) is such an event; so is a publication a named
party put out (浑水发布的报告): the party, the words written right before a verb of publishing
(发布, 发表, 出具), must be named by the passage too (an English name, Muddy Waters, is a name
subject already). The company's own report (公司发布的年度报告) names no publisher.
"""

from __future__ import annotations

import re

from ragspine.agent.intent_text import original_words
from ragspine.agent.span_masks import blanked, covered
from ragspine.agent.subject_residue import frame_words, unnamed_quantity
from ragspine.agent.subject_words import COMMON_EN, GENERIC_CJK
from ragspine.agent.subjects import EVENT, QUANTITY, WORD, Subject
from ragspine.profile.glossary import AliasMatch
from ragspine.profile.model import compact
from ragspine.text import fold


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
    found = _after_names(text, found, spans, channels, names)
    if found is None or any(s.start < found[1] and found[0] < s.end for s in subjects):
        return None
    stem = compact(text[found[0] : found[1]])
    if len(stem) < 2 or not (figure or _owned(text, found, names, spans)):
        return None
    return Subject(original_words(question, index, found), stem, *found, True, QUANTITY)


_CJK = re.compile(r"[\u4e00-\u9fff]")


def _after_names(
    text: str,
    found: tuple[int, int] | None,
    spans: list[tuple[int, int]],
    channels: list[tuple[int, int]],
    names: list[Subject],
) -> tuple[int, int] | None:
    """In Chinese what is asked of a name is written after it (X的Y, 荣获「X」获得了多少奖金):
    a word before every name is the verb that brings the name in (荣获, 参与), so where words
    are left after the names, the first of them is what is asked."""
    if found is None or not _CJK.search(text) or found[1] > min(n.start for n in names):
        return found
    last = max(n.end for n in names)
    later = unnamed_quantity(text, [*spans, (0, last)], channels, generic=True)
    return later or found


_OWNS = re.compile(r"\s*(?:的|之|['’]s|of(?:\s+(?:the|its))?)\s*")


def _owned(
    text: str, word: tuple[int, int], names: list[Subject], spans: list[tuple[int, int]]
) -> bool:
    """Whether a name owns the word: only 的 / 's / of (and what the parser read: 2024年) stand
    between them (首席执行官2024年的薪酬, the status of Project Evergreen)."""
    masked = blanked(text, spans)
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


# The words that name an event a question presumes: a lawsuit, a recall, an incident, a fine.
_EVENT = re.compile(
    r"事件|诉讼|官司|纠纷|案件|事故|丑闻|处罚|罚款|召回|调查|仲裁|风波|危机|罢工|泄露|泄漏|"
    r"lawsuits?|litigations?|recalls?|incidents?|scandals?|accidents?|investigations?|fines?|"
    r"penalt(?:y|ies)|disputes?|strikes?|breach(?:es)?|probes?|outages?"
)
# A short-seller attack: jieba splits 做空, so it is read in the text, not in the tokens.
_ATTACK = re.compile(r"做空|沽空|(?<![a-z])short[\s-]?sell(?:er|ers|ing)?(?![a-z])")
# A verb of publishing: its party is written right before it (浑水发布).
_PUBLISHED_ZH = re.compile(r"发布|发表|出具|撰写")
# A classifier of events: held to only where nothing else names the event (产品召回事件: 召回).
_CLASSIFIERS = frozenset({"事件", "事项", "案件", "incident", "incidents", "case", "matter"})


def event_of(
    text: str,
    index: list[int],
    question: str,
    explained: list[tuple[int, int]],
    subjects: list[Subject],
) -> Subject | None:
    """The event a document question presumes, as a subject the passages must name: the run of
    words nothing explains up to an event word, its head (商标侵权诉讼, 召回事件, trademark
    lawsuit);
    None where it names none. ``explained``: the spans the parser read and the question's
    frame."""
    spans = [*explained, *[(s.start, s.end) for s in subjects]]
    taken = covered(len(text), spans)
    for m in frame_words().finditer(text):
        if m.end() - m.start() >= 2:  # 是否, 如何: the frame's words, never the event's
            taken[m.start() : m.end()] = [True] * (m.end() - m.start())
    verbs = [m.span() for m in _PUBLISHED_ZH.finditer(text)]
    for start, end in verbs:
        taken[start:end] = [True] * (end - start)
    runs: list[list[tuple[str, int, int]]] = []
    for word, start, end in _tokens(text):
        if any(taken[start:end]) or not _content(word):
            continue
        joined = runs and text[runs[-1][-1][2] : start] in ("", " ")
        if joined:
            runs[-1].append((word, start, end))
        else:
            runs.append([(word, start, end)])
    for run in runs:
        heads = [i for i, (w, _, _) in enumerate(run) if _EVENT.fullmatch(w)]
        if heads:  # the event's words end at its head: 安全事件 | 后要多久上报
            start, end = run[0][1], run[heads[-1]][2]
            name = original_words(question, index, (start, end))
            return Subject(name, compact(text[start:end]), start, end, True, EVENT)
    attack = next((m for m in _ATTACK.finditer(text) if not any(taken[m.start() : m.end()])), None)
    if attack is not None:
        name = original_words(question, index, attack.span())
        return Subject(name, compact(attack.group()), *attack.span(), True, EVENT)
    return _publisher(text, index, question, runs, verbs)


def _publisher(
    text: str,
    index: list[int],
    question: str,
    runs: list[list[tuple[str, int, int]]],
    verbs: list[tuple[int, int]],
) -> Subject | None:
    """The party a publication is said to be put out by (浑水 of 浑水发布的): the run of words
    nothing explains right before the verb."""
    for run in runs:
        start, end = run[0][1], run[-1][2]
        if any(v == end for v, _ in verbs):
            name = original_words(question, index, (start, end))
            return Subject(name, compact(text[start:end]), start, end, True, EVENT)
    return None


def event_words(subject: Subject) -> list[str]:
    """The words a passage must hold to be about an event (商标, 侵权, 诉讼; 召回 of 召回事件)."""
    words = [w for w, _, _ in _tokens(fold(subject.name)) if _content(w)]
    kept = [w for w in words if w not in _CLASSIFIERS]
    return kept or words


def _content(word: str) -> bool:
    word = word.strip()
    if re.fullmatch(r"[a-z][a-z-]*", word):
        return len(word) > 2 and word not in COMMON_EN
    return len(word) >= 2 and word not in GENERIC_CJK and not word.isdigit()


def _tokens(text: str) -> list[tuple[str, int, int]]:
    import rjieba

    return [(w, s, e) for w, s, e in rjieba.tokenize(text, "default", True) if w.strip()]
