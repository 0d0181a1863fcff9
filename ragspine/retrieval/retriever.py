"""The hybrid retriever: rewritten queries × (BM25 [+ vector]) → RRF, within a clearance."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Collection
from pathlib import Path
from typing import Protocol

from ragspine.errors import DatabaseError, IndexBusyError
from ragspine.profile import DomainProfile, default_profile
from ragspine.retrieval.base import NarrativeHit
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.fusion import rrf_fuse
from ragspine.retrieval.index import CorpusIndex, Progress, refresh_index
from ragspine.retrieval.rewrite import rewrite_queries
from ragspine.retrieval.tokenize import tokenize
from ragspine.sensitivity import DEFAULT_CLEARANCE, allowed_levels
from ragspine.store_location import PgLocation

RRF_K = 60
WEAK_VARIANT = 0.1  # of the best variant's top BM25 score
RETRY_REFRESH = 5.0  # seconds before a refresh that failed is tried again

logger = logging.getLogger("ragspine.retrieval")


class VectorChannel(Protocol):
    """Dense retrieval, if any: chunk ids best first, only among the allowed sensitivities."""

    def search(self, query: str, *, k: int, allowed: Collection[str]) -> list[str]: ...


class HybridRetriever:
    """A NarrativeRetriever over a chunk store and its saved index, as the store is now.

    Long-lived and shared by threads: each search first compares the store's id and generation
    with its index's (one single-row query) and, when the store has moved on, one thread reloads the
    index through ``refresh_index`` (or rebuilds it, if no process has) and swaps it in whole;
    the other threads keep searching the index they had meanwhile.
    """

    def __init__(
        self,
        store: ChunkStore,
        index: CorpusIndex,
        *,
        profile: DomainProfile | None = None,
        vector: VectorChannel | None = None,
        rewrite: bool = True,
        depth: int = 12,
    ) -> None:
        self.store = store
        self.index = index
        self.profile = profile or default_profile()
        self.vector = vector
        self.rewrite = rewrite
        self.depth = depth
        self._refreshing = threading.Lock()
        self._retry_at = 0.0

    @classmethod
    def open(
        cls,
        corpus_path: str | Path | PgLocation,
        *,
        profile: DomainProfile | None = None,
        vector: VectorChannel | None = None,
        progress: Progress | None = None,
    ) -> HybridRetriever:
        """Open a corpus; its index is loaded, or rebuilt once if missing or stale."""
        store = ChunkStore(corpus_path, create=False)
        try:
            store.init_schema()
            index, _ = refresh_index(store, progress=progress)
        except BaseException:
            store.close()
            raise
        return cls(store, index, profile=profile, vector=vector)

    def current_index(self) -> CorpusIndex:
        """The index of the store's present generation, or, while another thread or process is
        bringing it there, the one searched so far (never one half loaded)."""
        index = self.index
        try:
            stale = self.store.state != index.state
        except DatabaseError:  # the store is busy past its timeout: ask again next time
            return index
        if not stale or time.monotonic() < self._retry_at:
            return index
        if not self._refreshing.acquire(blocking=False):
            return index  # another thread is refreshing it
        try:
            index = self.index  # swapped in since this search began?
            if self.store.state != index.state:
                fresh, _ = refresh_index(self.store, wait=False)
                self.index = index = fresh.ready()  # read whole before any search sees it
        except IndexBusyError:
            pass  # another process is rebuilding it: the next search looks again
        except Exception:
            self._retry_at = time.monotonic() + RETRY_REFRESH
            logger.warning("search index %s not refreshed", self.store.path, exc_info=True)
        finally:
            self._refreshing.release()
        return index

    def retrieve(
        self, query: str, *, top_k: int = 5, clearance: str = DEFAULT_CLEARANCE
    ) -> list[NarrativeHit]:
        allowed = allowed_levels(clearance)
        variants = rewrite_queries(query, self.profile) if self.rewrite else [query]
        depth = max(self.depth, top_k)
        index = self.current_index()
        bm25 = index.rank([tokenize(v, query=True) for v in variants], clearance, depth)
        # A variant whose best match scores a tenth of the best variant's matched only stray
        # words (an English rewrite on a Chinese report); fused rank for rank, it would weigh as
        # much as the real match.
        best = max((r[0][1] for r in bm25 if r), default=0.0)
        rankings = [[cid for cid, _ in r] for r in bm25 if r and r[0][1] >= best * WEAK_VARIANT]
        if self.vector is not None:
            dense = self.vector.search(query, k=depth, allowed=allowed)
            # Trust but verify: what a vector store returns is filtered before it can rank.
            known = self.store.get_chunks(dense)
            rankings.append([c for c in dense if c in known and known[c].sensitivity in allowed])
        fused = rrf_fuse(rankings, k=RRF_K)[:top_k]
        chunks = self.store.get_chunks([cid for cid, _ in fused])
        hits: list[NarrativeHit] = []
        for cid, score in fused:
            chunk = chunks.get(cid)
            if chunk is None or chunk.sensitivity not in allowed:
                continue  # a stale index can never widen what a caller sees
            hits.append(
                NarrativeHit(
                    chunk_id=cid,
                    doc_id=chunk.doc_id,
                    locator=chunk.source_locator,
                    text=chunk.text,
                    title=chunk.title,
                    score=round(score, 6),
                    period=chunk.period,
                )
            )
        return hits
