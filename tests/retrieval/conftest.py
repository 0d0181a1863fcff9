"""A small corpus on disk, with one document at each sensitivity."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.ingestion.pipeline import RunReport, ingest_paths_all
from ragspine.profile import default_profile
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.retriever import HybridRetriever
from tests.pg_stores import on_postgres

DOCS = {
    "results.md": """---
title: 年度业绩回顾
sensitivity: PUBLIC
---
# 收入

中国内地营业收入下降,主要由于门店关闭和人民币贬值。

# 线上

线上渠道保持增长,小程序订单翻倍。
""",
    "pricing.md": """---
title: Pricing memo
sensitivity: INTERNAL
---
# Price bands

Promotions may not go below the floor price without approval.
""",
    "board.md": """---
title: 董事会纪要
sensitivity: RESTRICTED
---
# 决议

董事会批准青松项目:出售台湾业务,中国内地营业收入下降的应对方案同步讨论。
""",
}


def write_docs(folder: Path, docs: dict[str, str] = DOCS) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in docs.items():
        path = folder / name
        path.write_text(text, "utf-8")
        paths.append(path)
    return paths


def ingest_docs(store: ChunkStore, paths: list[Path]) -> RunReport:
    """Documents into the chunk store (no fact store) as `ragspine ingest` stores them."""
    return ingest_paths_all(paths, chunks=store, facts=None, profile=default_profile())


@pytest.fixture
def mini_corpus(tmp_path: Path, request: pytest.FixtureRequest) -> Path | str:
    """A chunk store with its index, built by ingest; returns the store's path (on ``make
    test-postgres`` a new database's URL)."""
    corpus: Path | str = tmp_path / "chunks.db"
    if on_postgres():
        corpus = request.getfixturevalue("pg_url")
    with ChunkStore(corpus) as store:
        store.init_schema()
        ingest_docs(store, write_docs(tmp_path / "docs"))
    return corpus


@pytest.fixture
def retriever(mini_corpus: Path | str) -> HybridRetriever:
    return HybridRetriever.open(mini_corpus)
