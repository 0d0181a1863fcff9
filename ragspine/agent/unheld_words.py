"""A fact asked in a word no visible passage holds cannot be answered from the documents.

A narrative question asking a fact (a figure: how many, 多少; a date: what year, 哪一年, when;
a what-noun: what target price) names what it asks in its content words: tonnes of food,
founded, 碳中和, target price. Where one of them stands in no passage the caller may read (the
retriever, asked for that word alone, returns no passage holding it), no retrieved passage can
be about it: what the question's other words retrieve (the programme, the company, a pledge of
dividends) is about something else. The answer is an honest not-found naming the phrase the word
stands in (the user's own words), never those passages.

Not a content word: what the parser reads (the company, entities, metrics, channels, periods),
digits, the question's frame and function words. An English word is judged by its stem
(founded, founding, founder: found-), a Chinese one whole as the segmenter cuts it (实现碳中和:
实现, 碳中和). A question asking no fact (why, how did …) is never judged here: its verbs are
the user's, a passage may say the same in others.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date

from ragspine.agent.subject_words import COMMON_EN
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import glossary_for
from ragspine.profile.periods import find_periods
from ragspine.retrieval.tokenize import segment
from ragspine.text import fold

# A fact asked: a figure, a year or date, or an English "what <noun>" (what target price).
_FACT = re.compile(
    r"多少|几多|几家|几个|几年|哪一年|哪年|何年|何时|什么时候|哪一天|"
    r"(?<![a-z])(?:how\s+(?:many|much)|(?:what|which)\s+year|when|"
    r"what\s+(?!(?:is|was|were|are|did|does|do|has|have|had|can|could|should|would|will|"
    r"about|if|caused|drove|led|made|happened|factors?|reasons?)(?![a-z]))[a-z]+)(?![a-z])"
)
# Words that frame a question or a period, never what it asks about.
_FRAME_EN = frozenset(
    (  # noqa: SIM905
        "many much year years end start beginning begin close time date day days month months "
        "quarter quarters half fiscal calendar ever first last latest current recent recently "
        "set sets into with under over through within around like such much more most less "
        "least number amount figure figures value level exactly roughly approximately "
        "according documents document shares share"
    ).split()
)
_FRAME_ZH = tuple(
    # longest first: 哪一年 before 一年
    (  # noqa: SIM905
        "什么时候 哪一年 是怎样 为什么 什么样 多少 几多 哪年 何年 何时 什么 是否 一年 "
        "年初 年末 年底 年度 期间 目前 请问 公司 集团 怎样 怎么 如何 哪些 哪个 为何 情况 "
        "多久 多长 分别 大约"
    ).split()
)
_PARTICLES = "在的了是把被将"
_EN_WORD = re.compile(r"[a-z][a-z'’&-]*")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_SUFFIX = re.compile(r"(?:ing|ed|er|es|s|e)$")


def asks_fact(question: str) -> bool:
    """Whether the question asks a fact (a figure, a year or date, what-noun), not why or how."""
    return _FACT.search(fold(question)) is not None


def stem(word: str) -> str:
    """An English word less its inflection, where four letters or more remain."""
    cut = _SUFFIX.sub("", word)
    return cut if len(cut) >= 4 else word


def content_words(question: str, profile: DomainProfile) -> list[tuple[str, str]]:
    """The question's content words, each with the phrase it stands in (the user's words):
    what is left once the glossary's names, digits, periods and the frame are taken out."""
    flat = fold(question)
    return [(w, " ".join(flat[lo:hi].split())) for w, lo, hi in content_spans(question, profile)]


def content_spans(question: str, profile: DomainProfile) -> list[tuple[str, int, int]]:
    """``content_words`` with the span of each word's phrase in the folded question."""
    flat = _masked(fold(question), profile, " ")
    for word in _FRAME_ZH:
        flat = flat.replace(word, " " * len(word))
    return [*_english(flat), *_chinese(flat)]


def masked_question(question: str, profile: DomainProfile) -> str:
    """The folded question with each glossary name, period and number one NUL: what is left is
    the user's own words, and where a name stood."""
    return re.sub("\x00+", "\x00", _masked(fold(question), profile, "\x00"))


def _masked(text: str, profile: DomainProfile, mark: str) -> str:
    masked = list(text)
    for _, m in glossary_for(profile).scan(text):
        masked[m.start : m.end] = mark * (m.end - m.start)
    for found in find_periods(text, date.today()):
        masked[found.start : found.end] = mark * (found.end - found.start)
    flat = "".join(masked)
    return re.sub(r"[0-9a-z]*\d[0-9a-z]*", lambda m: mark * len(m.group()), flat)  # fy2024


def _english(flat: str) -> list[tuple[str, int, int]]:
    words = [
        (m.group().strip("'’-"), m.start(), m.end()) for m in _EN_WORD.finditer(flat) if m.group()
    ]
    keep = [
        w[0] not in COMMON_EN and w[0] not in _FRAME_EN and len(w[0]) >= 4 and "'" not in w[0]
        for w in words
    ]
    out: list[tuple[str, int, int]] = []
    for i, (word, _, _) in enumerate(words):
        if not keep[i]:
            continue
        lo = hi = i  # the run of content words it stands in, 'of' joining two (tonnes of food)
        while lo > 0 and (keep[lo - 1] or (words[lo - 1][0] == "of" and lo > 1 and keep[lo - 2])):
            lo -= 1
        last = len(words) - 1
        while hi < last and (
            keep[hi + 1] or (words[hi + 1][0] == "of" and hi + 1 < last and keep[hi + 2])
        ):
            hi += 1
        out.append((word, words[lo][1], words[hi][2]))
    return out


def _chinese(flat: str) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for m in _CJK_RUN.finditer(flat):
        run = m.group()
        phrase = run.strip(_PARTICLES)  # 承诺在: 承诺, the user's word without its particle
        lo = m.start() + run.index(phrase) if phrase else m.start()
        out.extend((w, lo, lo + len(phrase)) for w in segment(run) if len(w) >= 2)
    return out


def _inflections(word: str) -> str:
    """The word and its stem's inflections, one query: the index holds each as written."""
    base = stem(word)
    ends = ("", "e", "s", "es", "ed", "ing", "er", "ers")
    return " ".join(dict.fromkeys([word, *(base + e for e in ends)]))


def _cjk(text: str) -> bool:
    return _CJK_RUN.search(text) is not None


def held(word: str, texts: Sequence[str]) -> bool:
    if _CJK_RUN.fullmatch(word):
        return any(word in t for t in texts)
    pattern = re.compile(rf"(?<![a-z]){re.escape(stem(word))}")
    return any(pattern.search(t) for t in texts)


def unheld_phrase(
    question: str,
    profile: DomainProfile,
    passages: Callable[[str], Sequence[str]],
    retrieved: Sequence[str],
) -> str | None:
    """The phrase of the first content word of a fact question that no passage holds, or None.
    ``passages`` gives the texts of the passages the caller may read that a query retrieves;
    ``retrieved`` those the question itself retrieved. A word is judged only where all of these
    are in its script (a Chinese word says nothing of documents that may say it in English:
    过期, passages on points that expire);
    where the question retrieves nothing, its first content phrase is what is not found."""
    if not asks_fact(question):
        return None
    words = content_words(question, profile)
    if not retrieved:
        return words[0][1].strip() if words else None
    scripts = {_cjk(t) for t in retrieved}
    for word, phrase in words:
        if scripts != {_cjk(word)}:
            continue
        query = _inflections(word) if word.isascii() else word  # founded: founding too
        if not held(word, [fold(t) for t in passages(query)]):
            return phrase.strip()
    return None
