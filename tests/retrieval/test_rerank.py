from __future__ import annotations

import pytest

from ragspine.agent.llm_provider import MockProvider
from ragspine.errors import ProviderError
from ragspine.retrieval.base import NarrativeHit
from ragspine.retrieval.rerank import listwise_rerank, rerank_prompt
from tests.fakes.providers import ScriptedProvider, text_reply

HITS = [
    NarrativeHit("c_a", "a.md", "para=1", "线上渠道保持增长", "A"),
    NarrativeHit("c_b", "b.md", "para=1", "中国内地收入下降的原因是门店关闭", "B"),
    NarrativeHit("c_c", "c.md", "para=1", "ESG 报告", "C"),
]


def test_the_model_order_is_applied() -> None:
    provider = ScriptedProvider([text_reply('Sure: ["c2", "c1", "c3"]')])
    hits, status = listwise_rerank("收入为什么下降", HITS, provider)
    assert status == "reranked"
    assert [h.chunk_id for h in hits] == ["c_b", "c_a", "c_c"]


def test_the_prompt_uses_short_ids_not_chunk_ids() -> None:
    prompt = rerank_prompt("q", HITS)
    assert "[c1]" in prompt and "c_a" not in prompt


@pytest.mark.parametrize(
    ("reply", "status"),
    [
        ("no json here", "fallback_unparseable"),  # prose only
        ('["c1", 2, "c3"]', "fallback_unparseable"),  # a non-string id
        ("[c1, c2]", "fallback_unparseable"),  # not JSON
        ('["c1", "c9", "c2"]', "fallback_unknown_id"),  # an id that was never offered
        ('["c1", "c1", "c2"]', "fallback_duplicate_id"),  # repeated
        ('["c2", "c1"]', "fallback_partial"),  # one missing
    ],
)
def test_any_doubt_keeps_the_fused_order(reply: str, status: str) -> None:
    hits, got = listwise_rerank("q", HITS, ScriptedProvider([text_reply(reply)]))
    assert got == status
    assert hits == HITS


def test_a_provider_error_keeps_the_fused_order() -> None:
    hits, status = listwise_rerank("q", HITS, ScriptedProvider([ProviderError("down")]))
    assert (hits, status) == (HITS, "fallback_provider_error")


def test_one_candidate_needs_no_model() -> None:
    assert listwise_rerank("q", HITS[:1], ScriptedProvider([])) == (HITS[:1], "skipped_too_few")


def test_mock_provider_reranks_deterministically_by_overlap() -> None:
    hits, status = listwise_rerank("中国内地收入为什么下降", HITS, MockProvider())
    assert status == "reranked"
    assert hits[0].chunk_id == "c_b"
    assert listwise_rerank("中国内地收入为什么下降", HITS, MockProvider())[0] == hits
