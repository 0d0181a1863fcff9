"""What a what-is or yes/no question asks of must stand in a passage.

"ACME集团的品牌口号是什么?" asks for a slogan, "台灣門市有提供免費停車嗎?" whether parking is
free, "Can I bring my dog into an ACME store?" whether a dog may come in, "办营业执照一般要多长
时间?" (how long does it take to get a licence) how long the licence takes. Passages sharing the
question's other words (the brand's live streams, Taiwan's margin, the stores' lighting) are
about something else. Where no passage the caller may read holds the thing asked of, nor a title
of its document, the answer is an honest not-found naming the user's phrase.

The thing asked of (its head word) is, in Chinese, the last content word before the frame
(是什么, 吗, 要多长时间 / 需要多久 ending the question; after 是否); in English, the last word
of the noun phrase the frame opens (what is the …, can I <verb> my …, is there a …, does ACME
offer / give …, how long does it take to <verb> …, how long does … take), each of whose words
must be held (a discount is, senior citizens are not). Glossary terms are masked first: a
metric or entity asked of is the structured channel's, or a definition's.

A condition the question sets ("如果競爭對手賣得更便宜,…吗?", "If a competitor sells it cheaper,
…?") is what the answer must be about too: each of its content words must stand in a passage.

A head word is judged against passages in its own script, and only where the question retrieved
some: it is no glossary term, so passages in the other script were retrieved for the question's
other words (Taiwan, ACME), never for it. Unless one of them holds a translation of a term of the
question that names no entity (会员积分的有效期: English passages on points may say when they
expire): then the other language may answer, and nothing is judged. Only a Chinese thing is
vouched for so: an English question's glossary words (stores) reach Chinese passages on
anything in stores, never on senior citizens.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ragspine.agent.follow_ups import yes_no_then_count
from ragspine.agent.subject_words import COMMON_EN
from ragspine.agent.unheld_words import content_spans, held, masked_question, stem
from ragspine.profile import DomainProfile
from ragspine.retrieval.rewrite import translated_terms
from ragspine.retrieval.tokenize import segment
from ragspine.text import fold

_CJK = re.compile(r"[\u4e00-\u9fff]")
_WHAT_IS_ZH = re.compile(r"(?:是|叫)(?:什么|甚么|啥)(?:样子)?[??]?\s*$")
_YES_NO_ZH = re.compile(r"(?:了)?[吗么][??]?\s*$")
# how long a thing takes, ending the question: 办营业执照一般要多长时间, 退款需要多久
_HOW_LONG_ZH = re.compile(
    r"(?:一般|通常|大概|大约|大致)?\s*(?:要|需要|得|需)?\s*(?:花)?\s*"
    r"(?:多长时间|多久|多少天|几天|多长的时间|多少时间)(?:才能(?:办好|完成|下来))?[??]?\s*$"
)
_WHETHER_ZH = re.compile(r"是否|有没有|能否|可否|能不能|可不可以")
_SPLIT_ZH = re.compile(r"[的和与及、或]")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# words framing a reason, a state or a difference: a why- or how-question, whatever it says
_FRAME_WORDS_ZH = _words(
    "什么 甚么 请问 目前 现在 现时 一般 通常 可以 能够 是否 原因 理由 情况 状况 作用 影响 "
    "区别 差异 不同 意思 含义 目的 意义 主要 问题 分别 各自 具体 到底 究竟 大概 大约 一下"
)
# words naming the kind of text asked for (the expiry policy, 退货的规定): the thing is the word
# before them
_KIND_WORDS_EN = _words(
    "policy policies rule rules process procedure procedures requirement requirements plan plans "
    "approach arrangement arrangements terms details criteria standard standards system "
    "mechanism measures conditions guidelines practice practices"
)
_KIND_WORDS_ZH = _words(
    "政策 规定 规则 流程 要求 标准 制度 机制 安排 办法 措施 条件 策略 计划 方案 细节 做法"
)
_FRAME_WORDS_EN = _words(
    "reason reasons cause causes driver drivers factor factors explanation purpose difference "
    "differences situation status trend trends impact effect effects meaning"
)
# verbs of having or offering: the phrase asked of starts after them (提供免费停车: 免费停车)
_OFFER_ZH = _words("有 提供 设 设有 设置 开设 支持 允许 带 携带 收 收取 接受 使用 用 做")

_EN_TOKEN = re.compile(r"[a-z][a-z'’-]*|\x00")
_DETERMINERS = _words("the a an my our your their its his her any some this that")
_STOPS = _words(
    "of for on in at to about from with under by into onto during after before between "
    "than and or as per if when while"
)
_OFFER = _words(
    "offer offers have has provide provides sell sells accept accepts allow allows give gives "
    "run runs operate operates charge charges"
)
_PEOPLE = _words("i we you customers customer members member shoppers visitors staff")


def asked_object(question: str, profile: DomainProfile) -> tuple[str, str] | None:
    """The head word of what a what-is or yes/no question asks of, with the user's phrase of
    it, or None. A yes/no question followed by a how-many one asks of the yes/no's thing
    (follow_ups.py)."""
    first = yes_no_then_count(fold(question))
    flat = masked_question(first if first is not None else question, profile)
    return _chinese(flat) if _CJK.search(flat) else _english(flat)


def _head_zh(run: str) -> tuple[str, str] | None:
    """The run's last content word, with the phrase of it the user wrote (its last two words
    after any verb of having: 免费停车, 品牌口号)."""
    pieces = [p for p in _SPLIT_ZH.split(run) if p]
    if not pieces:
        return None
    words = segment(pieces[-1])
    while words and (len(words[-1]) < 2 or words[-1] in _FRAME_WORDS_ZH | _KIND_WORDS_ZH):
        words.pop()
    if not words:
        return None
    phrase = [words[-1]]
    if len(words) >= 2 and len(words[-2]) >= 2 and words[-2] not in _OFFER_ZH | _FRAME_WORDS_ZH:
        phrase.insert(0, words[-2])
    return words[-1], "".join(phrase)


def _last_run(text: str) -> str | None:
    """The CJK run the text ends in (no mask, digit or Latin word between it and the end)."""
    m = re.search(r"([\u4e00-\u9fff]+)\s*$", text)
    return m.group(1) if m else None


def _chinese(flat: str) -> tuple[str, str] | None:
    for frame in (_WHAT_IS_ZH, _YES_NO_ZH, _HOW_LONG_ZH):
        m = frame.search(flat)
        if m is None:
            continue
        run = _last_run(flat[: m.start()])
        return _head_zh(run) if run else None
    m = _WHETHER_ZH.search(flat)
    if m is not None:
        run = _last_run(re.sub(r"[??。.\s]+$", "", flat[m.end() :]))
        return _head_zh(run) if run else None
    return None


def _english(flat: str) -> tuple[str, str] | None:
    tokens = _EN_TOKEN.findall(flat)
    if len(tokens) < 3:
        return None
    first, second = tokens[0], tokens[1]
    if first == "what" and second in {"is", "are", "was", "were", "'s"}:
        return _phrase_head(tokens, 2)
    if first == "what's":
        return _phrase_head(tokens, 1)
    if first in {"can", "could", "may"} and second in _PEOPLE and len(tokens) > 3:
        if tokens[3] in _DETERMINERS:  # can I bring my dog …: a verb, then a noun phrase
            return _phrase_head(tokens, 3)
        return None
    if first in {"is", "are"} and second == "there":
        return _phrase_head(tokens, 2)
    if (first, second) == ("how", "long"):
        return _how_long(tokens)
    if first in {"do", "does"}:
        for i, token in enumerate(tokens[1:4], start=1):
            if token in _OFFER:
                return _phrase_head(tokens, i + 1)
    return None


def _how_long(tokens: list[str]) -> tuple[str, str] | None:
    """How long does it take to <verb> X (X), how long does X take (X); a duration of a state
    (how long has ACME operated) asks of no thing."""
    if len(tokens) < 4 or tokens[2] not in {"does", "do", "did", "will", "would", "should"}:
        return None
    if tokens[3] == "it" and tokens[4] == "take":  # take (ACME, a store) to <verb> X
        to = next((i for i in range(5, min(8, len(tokens))) if tokens[i] == "to"), None)
        return _phrase_head(tokens, to + 2) if to is not None and len(tokens) > to + 2 else None
    if tokens[-1] in {"take", "takes"}:
        return _phrase_head(tokens[:-1], 3)
    return None


def _phrase_head(tokens: list[str], i: int) -> tuple[str, str] | None:
    """The last word of the noun phrase from ``tokens[i]``: after its determiners, masked
    names and possessives, up to a preposition or the end."""
    while i < len(tokens) and (tokens[i] in _DETERMINERS or tokens[i] in {"\x00", "'s", "’s"}):
        i += 1
    words: list[str] = []
    while i < len(tokens) and tokens[i] not in _STOPS and tokens[i] != "\x00":
        words.append(tokens[i].removesuffix("'s").removesuffix("’s"))
        i += 1
    content = [w for w in words if w not in COMMON_EN and len(w) >= 3]
    if content and content[-1] in _FRAME_WORDS_EN:
        return None
    while content and content[-1] in _KIND_WORDS_EN:  # the expiry policy: expiry
        content.pop()
    return (content[-1], " ".join(content)) if content else None


def unheld_object(
    question: str,
    profile: DomainProfile,
    passages: Callable[[str], Sequence[str]],
    retrieved: Sequence[str],
) -> str | None:
    """The phrase of what the question asks of where no passage in its script holds its head
    word, or None. ``passages`` gives the texts (with their documents' titles) a query retrieves;
    ``retrieved`` those the question itself retrieved."""
    asked = asked_object(question, profile)
    if asked is None:
        return None
    head, phrase = asked
    other = [t for t in retrieved if _CJK.search(t) is None]
    if _CJK.search(head) and other and _vouched(question, profile, other):
        return None  # 会员积分: English passages on points were retrieved for it, and may say it
    # an English phrase is judged word by word (senior citizens … discount: a discount is held,
    # senior citizens are not); a Chinese one by its head (免费 stands in many other passages)
    words = [(w, phrase) for w in phrase.split()] if _CJK.search(head) is None else [asked]
    for head, phrase in [*words, *_condition_words(question, profile)]:
        cjk = _CJK.search(head) is not None
        if not any((_CJK.search(t) is not None) == cjk for t in retrieved):
            continue  # nothing in its script was retrieved: its script's documents are silent
        root = head if cjk else _root(head)
        query = head if cjk else " ".join(dict.fromkeys([head, stem(head), stem(head) + "s", root]))
        texts = [t.lower() for t in [*passages(query), *retrieved]]
        if not held(head, texts) and (cjk or not any(_held_root(root, t) for t in texts)):
            return phrase
    return None


_CONDITION = re.compile(r"(?:如果|假如|要是|万一|倘若)([^,,。;;]+)[,,]|^\s*(?:if|when)\s+([^,;]+),")


def _condition_words(question: str, profile: DomainProfile) -> list[tuple[str, str]]:
    """The content words of the condition the question sets, each with its phrase."""
    flat = fold(question)
    m = _CONDITION.search(flat)
    if m is None:
        return []
    lo, hi = m.span(1) if m.group(1) is not None else m.span(2)
    clause = flat[lo:hi]
    return [
        (w, " ".join(clause.split()) if _CJK.search(w) else " ".join(flat[a:b].split()))
        for w, a, b in content_spans(question, profile)
        if a < hi and lo < b and w in clause
    ]


_DERIVED = re.compile(r"(?:ations?|ments?|ies|ied|ing|ers?|ed|es|s|y|e)$")


def _root(word: str) -> str:
    """An English word less its inflection or derivation, where four letters remain (expiry,
    expire: expir)."""
    cut = _DERIVED.sub("", word)
    return cut if len(cut) >= 4 else word


def _held_root(root: str, text: str) -> bool:
    return re.search(rf"(?<![a-z]){re.escape(root)}", text) is not None


def _vouched(question: str, profile: DomainProfile, other: Sequence[str]) -> bool:
    """Whether a passage in the other script holds a translation of one of the question's
    glossary terms (no entity: Taiwan in a report's scope line vouches for nothing)."""
    words = [w.lower() for w in translated_terms(question, profile)]
    return any(
        _held_root(_root(w), t.lower()) if w.isascii() else w in t for w in words for t in other
    )
