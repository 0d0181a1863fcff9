"""Chunks to postings: tokenised in batches, in worker processes when the corpus is large.

Tokenising is most of an index build (jieba's search mode on every CJK run), and it is
independent per chunk, so batches go to a process pool and come back small: each batch's own
vocabulary and its term counts as arrays. The parent only merges vocabularies and concatenates.
The tokens are exactly ``tokenize``'s, whichever process made them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ragspine.errors import StoreError
from ragspine.parallel import ordered_map, pool_size
from ragspine.retrieval.chunking.chunk_store import Chunk
from ragspine.retrieval.tokenize import tokenize
from ragspine.sensitivity import LEVELS

WORKERS_ENV = "RAGSPINE_INDEX_WORKERS"
BATCH = 2_000
POOL_FROM = 20_000  # chunks: below this, starting workers costs more than it saves

Progress = Callable[[str], None]


@dataclass
class Postings:
    """Per chunk (in corpus order): its id, level, token count and term counts."""

    chunk_ids: list[str]
    levels: np.ndarray  # uint8: index into LEVELS
    lengths: np.ndarray  # float32: tokens per chunk, title included
    doc_ptr: np.ndarray  # int64, chunks + 1: where each chunk's terms start
    terms: np.ndarray  # int32: term ids, unique within a chunk
    counts: np.ndarray  # int32: how often each term occurs in its chunk
    vocabulary: list[str]
    workers: int  # processes that tokenised (0: this one)


_Batch = tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@lru_cache(maxsize=4096)
def _title_tokens(title: str) -> tuple[str, ...]:
    # A document's title heads every one of its chunks: tokenise each title once.
    return tuple(tokenize(title))


def count_batch(texts: list[tuple[str, str]]) -> _Batch:
    """(title, text) pairs → local vocabulary, term ids, counts, terms per chunk, lengths."""
    local: dict[str, int] = {}
    terms: list[int] = []
    counts: list[int] = []
    per_chunk: list[int] = []
    lengths: list[int] = []
    for title, text in texts:
        seen: dict[int, int] = {}
        n = 0
        for tokens in (_title_tokens(title), tokenize(text)):
            n += len(tokens)
            for token in tokens:
                i = local.setdefault(token, len(local))
                seen[i] = seen.get(i, 0) + 1
        terms.extend(seen)
        counts.extend(seen.values())
        per_chunk.append(len(seen))
        lengths.append(n)
    return (
        list(local),
        np.array(terms, np.int32),
        np.array(counts, np.int32),
        np.array(per_chunk, np.int64),
        np.array(lengths, np.float32),
    )


def default_workers(n_chunks: int) -> int:
    """One process per usable core for a large corpus in a single-threaded process on Linux;
    none (in-process) otherwise. ``RAGSPINE_INDEX_WORKERS`` overrides it (0: in-process)."""
    chosen = os.environ.get(WORKERS_ENV, "").strip()
    if chosen:
        try:
            return max(0, int(chosen))
        except ValueError:
            raise StoreError(f"{WORKERS_ENV}={chosen!r}: not a number of processes") from None
    return pool_size() if n_chunks >= POOL_FROM else 0


def _batches(chunks: Iterable[Chunk], ids: list[str], levels: list[int]) -> Iterator[list]:  # type: ignore[type-arg]
    rank = {level: i for i, level in enumerate(LEVELS)}
    batch: list[tuple[str, str]] = []
    for c in chunks:
        ids.append(c.chunk_id)
        levels.append(rank[c.sensitivity])
        batch.append((c.title, c.text))
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _counted(batches: Iterator[list[tuple[str, str]]], workers: int) -> Iterator[_Batch]:
    try:
        yield from ordered_map(count_batch, batches, workers)
    except BrokenProcessPool as exc:
        raise StoreError(
            f"a tokenising worker process died ({exc}); the index is unchanged. Out of memory? "
            f"{WORKERS_ENV}=0 tokenises in this process"
        ) from exc


def collect(
    chunks: Iterable[Chunk],
    *,
    workers: int | None = None,
    n_chunks: int | None = None,
    progress: Progress | None = None,
) -> Postings:
    """Tokenise and count every chunk; ``workers=None`` picks by corpus size."""
    if workers is None:
        if n_chunks is None and isinstance(chunks, list | tuple):
            n_chunks = len(chunks)
        workers = default_workers(n_chunks or 0)
    ids: list[str] = []
    levels: list[int] = []
    vocab: dict[str, int] = {}
    terms: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    per_chunk: list[np.ndarray] = [np.zeros(1, np.int64)]
    lengths: list[np.ndarray] = []
    step, done = 100_000, 0
    for local, t, c, n, ln in _counted(_batches(chunks, ids, levels), workers):
        mapping = np.fromiter(
            (vocab.setdefault(w, len(vocab)) for w in local), np.int32, count=len(local)
        )
        terms.append(mapping[t])
        counts.append(c)
        per_chunk.append(n)
        lengths.append(ln)
        done += len(n)
        if progress and done // step != (done - len(n)) // step:
            progress(f"tokenising: {done - done % step:,} chunks")
    return Postings(
        chunk_ids=ids,
        levels=np.array(levels, np.uint8),
        lengths=np.concatenate(lengths) if lengths else np.zeros(0, np.float32),
        doc_ptr=np.cumsum(np.concatenate(per_chunk)),
        terms=np.concatenate(terms) if terms else np.zeros(0, np.int32),
        counts=np.concatenate(counts) if counts else np.zeros(0, np.int32),
        vocabulary=list(vocab),
        workers=workers,
    )
