"""BM25 (bm25s, Lucene IDF) saved beside the chunk store: one index per clearance level.

A caller's index holds only the chunks their clearance allows, so a RESTRICTED chunk cannot
appear in, rank above, or even shift the term statistics of what an INTERNAL caller sees.
Built at ingest, saved to disk, loaded once per process; never rebuilt per query.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ragspine.errors import StoreError
from ragspine.retrieval.chunking.chunk_store import Chunk
from ragspine.retrieval.tokenize import TOKENIZER_VERSION, tokenize
from ragspine.sensitivity import LEVELS, allowed_levels, check_level

INDEX_FORMAT = 1
MANIFEST = "manifest.json"

Progress = Callable[[str], None]


def index_dir_for(corpus_path: str | Path) -> Path:
    """data/chunks.db → data/chunks.index/"""
    p = Path(corpus_path)
    return p.with_name(p.stem + ".index")


@dataclass
class _LevelIndex:
    bm25: Any  # bm25s.BM25, or None for a level with no chunks
    chunk_ids: list[str]


class CorpusIndex:
    def __init__(self, directory: Path, manifest: dict[str, Any]) -> None:
        self.directory = directory
        self.manifest = manifest
        self._levels: dict[str, _LevelIndex] = {}

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
    ) -> CorpusIndex:
        """Tokenise every chunk once, index each clearance level, swap the result in atomically."""
        import bm25s

        target = Path(directory)
        target.parent.mkdir(parents=True, exist_ok=True)
        # A document's title heads every one of its chunks: tokenise each title once.
        title_tokens = lru_cache(maxsize=4096)(lambda title: tuple(tokenize(title)))
        items = [
            (c.chunk_id, c.sensitivity, [*title_tokens(c.title), *tokenize(c.text)]) for c in chunks
        ]
        if progress:
            progress(f"tokenised {len(items)} chunks")
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
        try:
            counts: dict[str, int] = {}
            for level in LEVELS:
                allowed = set(allowed_levels(level))
                subset = [(cid, toks) for cid, sens, toks in items if sens in allowed]
                counts[level] = len(subset)
                level_dir = tmp / level
                level_dir.mkdir()
                (level_dir / "chunk_ids.json").write_text(json.dumps([c for c, _ in subset]))
                if subset:
                    bm25 = bm25s.BM25(method="lucene")
                    bm25.index([toks for _, toks in subset], show_progress=False)
                    bm25.save(str(level_dir), show_progress=False)
                if progress:
                    progress(f"indexed {level}: {len(subset)} chunks")
            manifest = {
                "format": INDEX_FORMAT,
                "tokenizer": TOKENIZER_VERSION,
                "generation": generation,
                "chunks": counts,
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
        """Read the manifest; each level's index is loaded on first use."""
        path = Path(directory)
        try:
            manifest = json.loads((path / MANIFEST).read_text())
        except FileNotFoundError:
            raise StoreError(f"search index not found: {path}") from None
        except (OSError, ValueError) as exc:
            raise StoreError(f"{path}: unreadable search index manifest: {exc}") from exc
        return cls(path, manifest)

    def _level(self, clearance: str) -> _LevelIndex:
        level = check_level(clearance)
        if level not in self._levels:
            import bm25s

            level_dir = self.directory / level
            ids = json.loads((level_dir / "chunk_ids.json").read_text())
            bm25 = bm25s.BM25.load(str(level_dir), show_progress=False) if ids else None
            self._levels[level] = _LevelIndex(bm25, ids)
        return self._levels[level]

    # -- searching ---------------------------------------------------------------------------
    def rank(
        self, queries: list[list[str]], clearance: str, depth: int
    ) -> list[list[tuple[str, float]]]:
        """For each tokenised query, the best ``depth`` chunks this clearance may see."""
        level = self._level(clearance)
        if level.bm25 is None:
            return [[] for _ in queries]
        rankings: list[list[tuple[str, float]]] = []
        vocab = level.bm25.vocab_dict
        for tokens in queries:
            # Only figures (a translation whose words this corpus lacks, leaving its years) is no
            # topic: it would rank every page that prints the year.
            # Likewise a chunk that matches only the figures of a query (a translation's "2019"
            # in every table of the year) does not rank.
            words = [t for t in tokens if t in vocab and not t.isdigit()]
            if not words:
                rankings.append([])
                continue
            scores = level.bm25.get_scores(words)
            figures = [t for t in tokens if t in vocab and t.isdigit()]
            if figures:
                scores = np.where(scores > 0, scores + level.bm25.get_scores(figures), 0.0)
            rankings.append(_top(scores, depth, level.chunk_ids))
        return rankings


def _top(scores: np.ndarray, depth: int, ids: list[str]) -> list[tuple[str, float]]:
    positive = np.flatnonzero(scores > 0)
    if positive.size > depth:
        part = np.argpartition(-scores[positive], depth - 1)[:depth]
        positive = positive[part]
    # Highest score first; equal scores keep corpus order, so results are deterministic.
    order = positive[np.lexsort((positive, -scores[positive]))]
    return [(ids[i], float(scores[i])) for i in order]


def _swap_in(new: Path, target: Path) -> None:
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        os.replace(target, old)
    os.replace(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
