from __future__ import annotations

from ragspine.retrieval.rewrite import MAX_VARIANTS, rewrite_queries
from ragspine.retrieval.tokenize import tokenize


def _all_tokens(variants: list[str]) -> set[str]:
    return {t for v in variants for t in tokenize(v, query=True)}


def test_the_original_query_comes_first() -> None:
    assert rewrite_queries("为什么营收下降?")[0] == "为什么营收下降?"


def test_a_metric_alias_also_searches_its_siblings() -> None:
    """营收 and 营业收入 share no bigram: only a rewrite lets one find the other."""
    tokens = _all_tokens(rewrite_queries("为什么营收下降?"))
    assert "收入" in tokens


def test_english_terms_reach_chinese_documents() -> None:
    tokens = _all_tokens(rewrite_queries("Why did mainland China revenue fall?"))
    assert {"中国", "内地", "收入"} <= tokens


def test_profile_synonym_groups_are_rewritten_too() -> None:
    tokens = _all_tokens(
        rewrite_queries("What are the rules on cross-border transfer of personal data?")
    )
    assert {"出境", "个人"} <= tokens


def test_a_query_without_glossary_terms_is_searched_as_is() -> None:
    assert rewrite_queries("hello there") == ["hello there"]


def test_variants_are_bounded_and_distinct() -> None:
    variants = rewrite_queries("中国内地线上营收和毛利的原因")
    assert 1 < len(variants) <= MAX_VARIANTS + 1
    assert len(set(variants)) == len(variants)
