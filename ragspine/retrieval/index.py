"""BM25 (Lucene) saved beside the chunk store: one index per clearance level.

A caller's index holds only the chunks their clearance allows, so a RESTRICTED chunk cannot
appear in, rank above, or even shift the term statistics of what an INTERNAL caller sees.
Built at ingest, saved to disk as plain arrays, memory-mapped on load; never rebuilt per query.

Scores equal bm25s's (method "lucene", k1 1.5, b 0.75) on the same tokens; the posting lists
are built and scored by the compiled loops in ``kernels`` (numba), because a numpy scatter-add
and a partition over every positive score were 2-3x slower than the fastest BM25 library.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ragspine.errors import StoreError
from ragspine.retrieval.chunking.chunk_store import Chunk
from ragspine.retrieval.tokenize import TOKENIZER_VERSION
from ragspine.sensitivity import LEVELS, check_level

INDEX_FORMAT = 2
MANIFEST = "manifest.json"
K1, B = 1.5, 0.75

Progress = Callable[[str], None]


def index_dir_for(corpus_path: str | Path) -> Path:
    """data/chunks.db → data/chunks.index/"""
    p = Path(corpus_path)
    return p.with_name(p.stem + ".index")


@dataclass
class _LevelIndex:
    indptr: np.ndarray  # int64, terms + 1
    docs: np.ndarray  # int32: the level's document numbers, term by term
    data: np.ndarray  # float32: each posting's BM25 weight
    rows: np.ndarray  # int32: level document number → corpus row (chunk id)
    n_docs: int


class CorpusIndex:
    def __init__(self, directory: Path, manifest: dict[str, Any]) -> None:
        self.directory = directory
        self.manifest = manifest
        self._levels: dict[str, _LevelIndex] = {}
        self._vocab: dict[str, int] | None = None
        self._chunk_ids: list[str] | None = None

    @property
    def generation(self) -> int:
        return int(self.manifest["generation"])

    def is_current(self, generation: int) -> bool:
        return (
            self.manifest.get("format") == INDEX_FORMAT
            and self.manifest.get("tokenizer") == TOKENIZER_VERSION
            and self.generation == generation
        )

    # -- building ----------------------------------------------------------------------------
    @classmethod
    def build(
        cls,
        chunks: Iterable[Chunk],
        directory: str | Path,
        *,
        generation: int,
        progress: Progress | None = None,
        workers: int | None = None,
        n_chunks: int | None = None,
    ) -> CorpusIndex:
        """Tokenise every chunk once, index each clearance level, swap the result in atomically.

        ``workers`` processes tokenise (None: one per core for a large corpus, else none).
        """
        from ragspine.retrieval import kernels
        from ragspine.retrieval.postings import collect

        target = Path(directory)
        target.parent.mkdir(parents=True, exist_ok=True)
        found = collect(chunks, workers=workers, n_chunks=n_chunks, progress=progress)
        if progress:
            how = f"{found.workers} worker processes" if found.workers else "this process"
            progress(f"tokenised {len(found.chunk_ids)} chunks in {how}")
        indptr, docs, counts = kernels.transpose(
            found.doc_ptr, found.terms, found.counts, len(found.vocabulary)
        )
        found.terms = found.counts = np.zeros(0, np.int32)  # freed before the levels are built
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
        try:
            (tmp / "vocabulary.json").write_text(json.dumps(found.vocabulary, ensure_ascii=False))
            (tmp / "chunk_ids.json").write_text(json.dumps(found.chunk_ids))
            counts_by_level: dict[str, int] = {}
            lengths: dict[str, float] = {}
            for rank, level in enumerate(LEVELS):
                keep = found.levels <= rank
                ptr, level_docs, data, n_docs, avg = kernels.level_weights(
                    indptr, docs, counts, keep, found.lengths, K1, B
                )
                counts_by_level[level] = int(n_docs)
                lengths[level] = round(float(avg), 3)
                level_dir = tmp / level
                level_dir.mkdir()
                np.save(level_dir / "indptr.npy", ptr)
                np.save(level_dir / "docs.npy", level_docs)
                np.save(level_dir / "data.npy", data)
                np.save(level_dir / "rows.npy", np.flatnonzero(keep).astype(np.int32))
                if progress:
                    progress(f"indexed {level}: {n_docs} chunks")
            manifest = {
                "format": INDEX_FORMAT,
                "tokenizer": TOKENIZER_VERSION,
                "generation": generation,
                "bm25": {"method": "lucene", "k1": K1, "b": B},
                "chunks": counts_by_level,
                "average_tokens": lengths,
            }
            (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2))
            _swap_in(tmp, target)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return cls(target, manifest)

    # -- loading -----------------------------------------------------------------------------
    @classmethod
    def load(cls, directory: str | Path) -> CorpusIndex:
        """Read the manifest; the vocabulary and each level are loaded on first use."""
        path = Path(directory)
        try:
            manifest = json.loads((path / MANIFEST).read_text())
        except FileNotFoundError:
            raise StoreError(f"search index not found: {path}") from None
        except (OSError, ValueError) as exc:
            raise StoreError(f"{path}: unreadable search index manifest: {exc}") from exc
        return cls(path, manifest)

    def _read(self, name: str) -> Any:
        try:
            return json.loads((self.directory / name).read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"{self.directory}: unreadable search index ({name}): {exc}") from exc

    def _level(self, clearance: str) -> _LevelIndex:
        level = check_level(clearance)
        if level not in self._levels:
            if self._vocab is None:
                words = self._read("vocabulary.json")
                self._vocab = dict(zip(words, range(len(words)), strict=True))
                self._chunk_ids = self._read("chunk_ids.json")
            d = self.directory / level
            try:
                # Memory-mapped: a process serving one clearance pages in only what it scores.
                arrays = [np.load(d / f"{n}.npy", mmap_mode="r") for n in _ARRAYS]
            except (OSError, ValueError) as exc:
                raise StoreError(f"{d}: unreadable search index level: {exc}") from exc
            indptr, docs, data, rows = (np.asarray(a) for a in arrays)
            self._levels[level] = _LevelIndex(indptr, docs, data, rows, int(rows.size))
        return self._levels[level]

    # -- searching ---------------------------------------------------------------------------
    def rank(
        self, queries: list[list[str]], clearance: str, depth: int
    ) -> list[list[tuple[str, float]]]:
        """For each tokenised query, the best ``depth`` chunks this clearance may see."""
        from ragspine.retrieval.kernels import score_top

        level = self._level(clearance)
        vocab, ids = self._vocab, self._chunk_ids
        assert vocab is not None and ids is not None
        rankings: list[list[tuple[str, float]]] = []
        for tokens in queries:
            # A term this level lacks has an empty posting list: it scores nothing.
            # Only figures (a translation whose words this corpus lacks, leaving its years) is no
            # topic: it would rank every page that prints the year. Likewise a chunk that matches
            # only the figures of a query (a translation's "2019" in every table of the year) does
            # not rank: figures add only to a chunk a word already matched.
            words: list[int] = []
            figures: list[int] = []
            for t in tokens:
                i = vocab.get(t)
                if i is not None:
                    (figures if t.isdigit() else words).append(i)
            if not words or depth <= 0:
                rankings.append([])
                continue
            top, scores = score_top(
                level.indptr,
                level.docs,
                level.data,
                np.array(words + figures, np.int64),
                len(words),
                level.n_docs,
                depth,
            )
            rows = level.rows[top].tolist()
            rankings.append([(ids[r], s) for r, s in zip(rows, scores.tolist(), strict=True)])
        return rankings


_ARRAYS = ("indptr", "docs", "data", "rows")


def _swap_in(new: Path, target: Path) -> None:
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        os.replace(target, old)
    os.replace(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
