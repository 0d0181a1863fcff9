"""The narrative channel: chunk store, CJK-aware BM25, fusion, rewriting, rerank, retriever."""

from ragspine.retrieval.base import NarrativeHit, NarrativeRetriever
from ragspine.retrieval.fusion import rrf_fuse
from ragspine.retrieval.rerank import listwise_rerank

__all__ = ["NarrativeHit", "NarrativeRetriever", "listwise_rerank", "rrf_fuse"]
