from __future__ import annotations

from ragspine.retrieval.rewrite import glossary_terms, rewrite_queries
from ragspine.retrieval.tokenize import tokenize


def _tokens(query: str) -> set[str]:
    return set(tokenize(query, query=True))


def test_the_question_itself_leads_the_first_query() -> None:
    assert rewrite_queries("为什么营收下降?")[0].startswith("为什么营收下降?")


def test_a_metric_alias_also_searches_its_siblings() -> None:
    """营收 and 营业收入 share no bigram: only the rewrite lets one find the other."""
    assert {"收入", "营业"} <= _tokens(rewrite_queries("为什么营收下降?")[0])


def test_an_english_question_is_translated_into_a_chinese_query() -> None:
    expanded, translated = rewrite_queries("Why did mainland China revenue fall?")
    assert {"中国", "内地", "收入", "下降"} <= _tokens(translated)
    assert "revenue" in _tokens(expanded)


def test_a_chinese_question_is_translated_into_an_english_query() -> None:
    _, translated = rewrite_queries("会员积分什么时候过期?")
    assert {"loyalty", "point", "expire"} <= _tokens(translated)  # 会员积分 is one term


def test_profile_synonym_groups_match_english_inflections() -> None:
    """'returned' is the synonym 'return': search words inflect, slot aliases do not."""
    codes = [t.code for t in glossary_terms("Can an item bought online be returned?")]
    assert len(codes) == 2 and codes[0] == "ONLINE"


def test_at_most_two_queries_so_near_duplicates_cannot_outvote_the_translation() -> None:
    assert len(rewrite_queries("中国内地线上营收和毛利下降的原因与战略")) == 2


def test_a_query_without_glossary_terms_is_searched_as_is() -> None:
    assert rewrite_queries("hello there") == ["hello there"]


def test_the_home_companys_own_names_are_taken_out_of_the_query() -> None:
    """Every document is about the home company: its names would only pull its
    company-information pages to the top. Another entity's name stays."""
    queries = rewrite_queries("ACME集团2024年的战略是什么?")
    assert all("acme集团" not in q.lower() and "集团" not in q for q in queries)
    assert "香港" in rewrite_queries("香港2024年的战略是什么?")[0]


def test_a_question_that_is_only_the_company_name_is_kept() -> None:
    """Nothing else to search for: the company pages are then the right answer."""
    assert rewrite_queries("ACME集团")[0].startswith("ACME集团")
