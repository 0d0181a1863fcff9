"""The narrative channel: chunk store, CJK-aware BM25, fusion, rewriting, rerank, retriever."""
