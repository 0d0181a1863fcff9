"""Other BM25 engines on the same chunks and the same tokens, each in its own process.

Every peer reads the chunks an INTERNAL caller may see back from the benchmark's chunk store,
is fed RAGSpine's own tokens (tokenising is not timed), and answers the first rewrite variant of
each benchmark question for its top 5: exactly what the ``BM25 rank (1 variant, top 5)`` row
times for RAGSpine. A peer that is not installed says so instead of a figure.
"""

from __future__ import annotations

import importlib
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from benchmarks import time_calls

TOP_K = 5


def _index_texts(workdir: Path) -> tuple[list[str], list[str]]:
    conn = sqlite3.connect(workdir / "chunks.db")
    try:
        rows = conn.execute(
            "SELECT chunk_id, title || char(10) || text FROM chunk"
            " WHERE sensitivity IN ('PUBLIC', 'INTERNAL') ORDER BY doc_id, ord"
        ).fetchall()
    finally:
        conn.close()
    return [r[0] for r in rows], [r[1] for r in rows]


def _tokenise_all(texts: list[str]) -> list[list[str]]:
    """Tokens per text, each distinct token one shared string: a million chunks' worth of
    separate strings would not fit in memory."""
    from ragspine.retrieval.tokenize import tokenize

    if len(texts) < 20_000:
        return [tokenize(t) for t in texts]
    with get_context("fork").Pool(2) as pool:
        return [
            [sys.intern(t) for t in tokens]
            for tokens in pool.imap(tokenize, texts, chunksize=2_000)
        ]


def _queries(n_queries: int) -> list[list[str]]:
    from benchmarks.retrieval_bench import QUERIES
    from ragspine.retrieval.rewrite import rewrite_queries
    from ragspine.retrieval.tokenize import tokenize

    return [tokenize(rewrite_queries(q)[0], query=True) for q in QUERIES[:n_queries]]


def _bm25s(backend: str) -> Callable[[list[list[str]]], tuple[Callable[[list[str]], Any], dict]]:  # type: ignore[type-arg]
    def build(corpus: list[list[str]]) -> tuple[Callable[[list[str]], Any], dict]:  # type: ignore[type-arg]
        import bm25s

        engine = bm25s.BM25(method="lucene", k1=1.5, b=0.75, backend=backend)
        engine.index(corpus, show_progress=False)

        def search(tokens: list[str]) -> Any:
            known = [t for t in tokens if t in engine.vocab_dict]
            if not known:
                return []
            docs, _ = engine.retrieve(
                [known], k=TOP_K, show_progress=False, n_threads=1, backend_selection=backend
            )
            return docs[0].tolist()

        return search, {}

    return build


def _rank_bm25(corpus: list[list[str]]) -> tuple[Callable[[list[str]], Any], dict]:  # type: ignore[type-arg]
    import numpy as np
    from rank_bm25 import BM25Okapi

    okapi = BM25Okapi(corpus)

    def search(tokens: list[str]) -> Any:
        scores = np.asarray(okapi.get_scores(tokens))
        best = np.argpartition(-scores, TOP_K - 1)[:TOP_K]
        return best[np.argsort(-scores[best], kind="stable")].tolist()

    return search, {}


def _tantivy(corpus: list[list[str]]) -> tuple[Callable[[list[str]], Any], dict]:  # type: ignore[type-arg]
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("body", stored=False, tokenizer_name="whitespace")
    schema = builder.build()
    directory = tempfile.mkdtemp(prefix="ragspine-tantivy-")
    index = tantivy.Index(schema, path=directory)
    writer = index.writer(heap_size=200_000_000, num_threads=1)
    for tokens in corpus:
        writer.add_document(tantivy.Document(body=" ".join(tokens)))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    searcher = index.searcher()

    def search(tokens: list[str]) -> Any:
        if not tokens:
            return []
        should = tantivy.Occur.Should
        query = tantivy.Query.boolean_query(
            [(should, tantivy.Query.term_query(schema, "body", t)) for t in tokens]
        )
        return searcher.search(query, TOP_K).hits

    return search, {"note": "its own BM25 (quantised lengths); top 5 by block-max WAND"}


PEERS: dict[str, tuple[str, Callable[..., Any]]] = {
    "bm25s-numba": ("bm25s", _bm25s("numba")),
    "bm25s-numpy": ("bm25s", _bm25s("numpy")),
    "rank-bm25": ("rank_bm25", _rank_bm25),
    "tantivy": ("tantivy", _tantivy),
}


def worker_peer(name: str, workdir: Path, n_queries: int, rounds: int, budget_s: float) -> Any:
    """Build ``name`` on the INTERNAL-visible chunks, then time its top 5 per query."""
    module, build = PEERS[name]
    try:
        importlib.import_module(module)
    except ImportError:
        return {"missing": f"not installed (pip install {module.replace('_', '-')})"}
    ids, texts = _index_texts(workdir)
    corpus = _tokenise_all(texts)
    del texts
    t0 = time.perf_counter()
    search, extra = build(corpus)
    build_s = time.perf_counter() - t0
    del corpus
    queries = _queries(n_queries)
    for q in queries:  # warm: numba compiles, caches fill
        search(q)
    nq = len(queries)
    samples = time_calls(lambda i: search(queries[i % nq]), nq * rounds, budget_s)
    return {"build_s": build_s, "samples": samples, "docs": len(ids), **extra}
