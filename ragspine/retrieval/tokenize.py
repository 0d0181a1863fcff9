"""CJK-aware tokens for BM25.

Chinese has no spaces and people segment it differently (同店 / 同店销售增长), so a CJK run is
indexed as overlapping character bigrams plus jieba's longer search-mode words; Latin and digit
runs stay whole and lower-cased (fy2024, acme_cn), with a mixed run's digits added (2024) so
'FY2024' meets '2024年'. Folding makes traditional text simplified and full-width text plain.
Question words are dropped from queries only: they say what kind of answer, not about what.
"""

from __future__ import annotations

import re
from functools import cache

from ragspine.text import fold

TOKENIZER_VERSION = "bigram+jieba3+latin-v1"

_RUN = re.compile(r"[a-z0-9_]+|[\u3400-\u4dbf\u4e00-\u9fff]+")
_DIGITS = re.compile(r"\d+")
_QUESTION_WORDS = re.compile(
    r"为什么|为何|是什么|什么|多少|哪些|哪个|哪里|哪儿|如何|怎么样|怎么|怎样|是否|是不是|请问|"
    r"有没有|吗|呢|吧|请"
)
_EN_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "about",
        "as",
        "and",
        "or",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "do",
        "does",
        "did",
        "what",
        "why",
        "how",
        "which",
        "who",
        "whom",
        "when",
        "where",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "there",
        "their",
        "our",
        "we",
        "you",
        "i",
        "me",
        "my",
        "can",
        "could",
        "should",
        "would",
        "will",
        "please",
        "tell",
        "explain",
        "describe",
        "any",
        "some",
    ]
)
_CJK_STOP = frozenset({"的", "了", "和", "与", "及", "在", "是", "对", "将", "也", "并"})


@cache
def _jieba():  # type: ignore[no-untyped-def]
    # rjieba: jieba's dictionary and search-mode algorithm in Rust, the same words ~4x faster
    # (tests/retrieval/test_tokenize.py holds it to jieba's output on real reports).
    import rjieba

    return rjieba


def _latin(run: str) -> list[str]:
    if len(run) > 3 and run.endswith("s") and not run.endswith("ss") and run.isalpha():
        run = run[:-1]  # plural: stores → store
    out = [run]
    if not run.isdigit() and any(c.isdigit() for c in run):
        out.extend(_DIGITS.findall(run))
    return out


def _cjk(run: str) -> list[str]:
    if len(run) == 1:
        return [] if run in _CJK_STOP else [run]
    out = [run[i : i + 2] for i in range(len(run) - 1)]
    if len(run) > 2:
        out.extend(w for w in _jieba().cut_for_search(run) if len(w) > 2)
    return out


def tokenize(text: str, *, query: bool = False) -> list[str]:
    """Index tokens of ``text``; with ``query=True`` question words and stop words are dropped."""
    folded = fold(text)
    if query:
        folded = _QUESTION_WORDS.sub(" ", folded)
    tokens: list[str] = []
    for m in _RUN.finditer(folded):
        run = m.group()
        if run[0] < "\u3400":
            if query and run in _EN_STOP:
                continue
            tokens.extend(_latin(run))
        else:
            tokens.extend(_cjk(run))
    return tokens


def segment(run: str) -> list[str]:
    """The words the segmenter cuts a Chinese run into (实现碳中和: 实现, 碳中和)."""
    return [str(w) for w in _jieba().cut(run)]


def warm_up() -> None:
    """Load the segmenter's dictionary now rather than on the first query."""
    _jieba()
