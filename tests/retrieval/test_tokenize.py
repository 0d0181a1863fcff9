from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.tokenize import tokenize
from ragspine.text import fold
from tests.conftest import JinyuExample


def test_traditional_and_simplified_give_the_same_tokens() -> None:
    assert tokenize("為什麼中國內地營業收入下降") == tokenize("为什么中国内地营业收入下降")


def test_cjk_is_indexed_as_bigrams_so_segmentations_meet() -> None:
    """同店 and 同店销售增长 share the bigram 同店 however either is segmented."""
    assert "同店" in tokenize("同店") and "同店" in tokenize("同店销售增长")


def test_longer_words_from_segmentation_are_added() -> None:
    tokens = tokenize("个人信息保护合规指引")
    assert "个人信息" in tokens  # a jieba search-mode word, beyond the bigrams


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FY2024", ["fy2024", "2024"]),  # whole, lower-cased, plus its digits
        ("ACME_CN", ["acme_cn"]),  # a code stays one token
        ("ＦＹ２０２４", ["fy2024", "2024"]),  # full-width folds first
        ("stores", ["store"]),  # plural
        ("2024年", ["2024", "年"]),  # digits meet the FY2024 digits
    ],
)
def test_latin_and_digit_runs(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


def test_question_words_are_dropped_from_queries_only() -> None:
    assert "什么" in tokenize("什么是同店")  # a document may say it
    query = tokenize("同店销售增长是什么?有哪些原因?为什么?", query=True)
    assert not {"什么", "哪些", "为什"} & set(query)
    assert "同店" in query and "原因" in query


def test_english_stop_words_are_dropped_from_queries() -> None:
    assert tokenize("Why did the revenue fall?", query=True) == ["revenue", "fall"]


def _cjk_runs_of_real_text(corpus: Path) -> list[str]:
    """CJK runs from text we did not write: the real annual report's passages as the session's
    example ingested them (every third; read here, the PDF took longer than the comparison)
    and the demo corpus."""
    root = Path(__file__).resolve().parents[2]
    texts = [p.read_text("utf-8") for p in sorted((root / "ragspine/demo/corpus").glob("*.*"))]
    with ChunkStore(corpus) as store:
        texts += [chunk.text for chunk in list(store.iter_chunks())[::3]]
    return [r for t in texts for r in re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff]{3,}", fold(t))]


def test_rjieba_segments_real_reports_exactly_as_jieba(jinyu_example: JinyuExample) -> None:
    """The index tokens must not change with the faster segmenter: rjieba's search-mode words
    equal jieba's on every CJK run of a real report."""
    import logging

    import jieba
    import rjieba

    jieba.setLogLevel(logging.WARNING)
    runs = _cjk_runs_of_real_text(jinyu_example.corpus)
    assert sum(map(len, runs)) > 20_000  # a real sample, not a handful of words
    differ = [r for r in runs if rjieba.cut_for_search(r) != list(jieba.cut_for_search(r))]
    assert differ == []
