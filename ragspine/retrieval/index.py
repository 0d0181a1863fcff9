"""BM25 (Lucene) saved beside the chunk store: one index per clearance level.

A caller's index holds only the chunks their clearance allows, so a RESTRICTED chunk cannot
appear in, rank above, or even shift the term statistics of what an INTERNAL caller sees.
Built at ingest, saved to disk as plain arrays, memory-mapped on load. A long-running reader
(``HybridRetriever``) reloads it when the store's generation moves on; one builder at a time, in
any process, rebuilds it (``refresh_index``).

Scores equal bm25s's (method "lucene", k1 1.5, b 0.75) on the same tokens; the posting lists
are built and scored by the compiled loops in ``kernels`` (numba), because a numpy scatter-add
and a partition over every positive score were 2-3x slower than the fastest BM25 library.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import numpy as np

from ragspine.errors import IndexBusyError, StoreError
from ragspine.retrieval.chunking.chunk_store import Chunk, ChunkStore
from ragspine.retrieval.index_files import (
    CHUNK_IDS,
    CURRENT,
    MANIFEST,
    VOCABULARY,
    Loaded,
    exists,
    fsync_dir,
    load_index,
    read_manifest,
    save_level,
    write_durably,
)
from ragspine.retrieval.tokenize import TOKENIZER_VERSION
from ragspine.sensitivity import LEVELS, check_level
from ragspine.store_location import PgLocation, parse_location

if sys.platform != "win32":
    import fcntl

INDEX_FORMAT = 2
K1, B = 1.5, 0.75

Progress = Callable[[str], None]
# A test seam: the build kills its own process (SIGKILL) at this step of the swap, so a test can
# check that a reader still finds an index: written (the new build on disk, not moved in),
# placed (moved into the index folder, not current), pointed (current, old builds not removed).
CRASH_AT = "RAGSPINE_INDEX_CRASH_AT"


def index_dir_for(corpus_path: str | Path | PgLocation) -> Path:
    """data/chunks.db → data/chunks.index/; a PostgreSQL corpus's is a local folder of each
    host's (``PgLocation.index_dir``: RAGSPINE_INDEX_DIR, else under RAGSPINE_HOME or the
    user's cache folder). Text is read as a location (``parse_location``), so a URL given as
    text names its database's folder, never a file called ``postgresql:/…``."""
    location = parse_location(corpus_path, flag="--corpus")
    if isinstance(location, PgLocation):
        return location.index_dir()
    return location.with_name(location.stem + ".index")


def refresh_index(
    store: ChunkStore, *, progress: Progress | None = None, wait: bool = True, held: bool = False
) -> tuple[CorpusIndex, bool]:
    """The store's index, and whether it had to be rebuilt (missing, unreadable, or older than
    the store): the one place that decides, for ingest, the worker and the retriever alike.

    A rebuild holds a lock file beside the index (``chunks.index.lock``), so no two builders, in
    any process, build or swap at once: one that finds the index stale waits for a rebuild under
    way and takes its result if it is current. With ``wait=False`` (a long-running reader, which
    keeps the index it has meanwhile) it raises ``IndexBusyError`` instead of waiting. ``held``:
    the caller already holds the lock (``writing``).
    """
    directory = index_dir_for(store.path)
    index = _current(directory, store.state)
    if index is not None:
        return index, False
    with nullcontext() if held else _building(directory, wait=wait):
        state = store.state  # read again: the rebuild waited for may be of this one
        index = _current(directory, state)
        if index is not None:
            return index, False
        built = CorpusIndex.build(
            store.iter_chunks(),
            directory,
            generation=state[1],
            store_id=state[0],
            progress=progress,
            n_chunks=store.count(),
        )
    return built, True


def _current(directory: Path, state: tuple[str, int]) -> CorpusIndex | None:
    """The saved index if it is of this store and generation; None if missing, unreadable,
    stale or another store's."""
    try:
        index = CorpusIndex.load(directory)
        return index if index.is_current(state[1], state[0]) else None
    except Exception:
        return None


@contextmanager
def writing(store: ChunkStore) -> Iterator[None]:
    """Hold the build lock while a batch of files is written and then indexed: a running
    service keeps its index until the whole batch is in, instead of rebuilding for half of it
    (call ``refresh_index(store, held=True)`` inside)."""
    with _building(index_dir_for(store.path), wait=True):
        yield


@contextmanager
def _building(directory: Path, *, wait: bool) -> Iterator[None]:
    """One builder at a time: an exclusive flock on ``<index>.lock``, released when the file is
    closed or the process ends (a builder killed mid-way holds nothing)."""
    if sys.platform == "win32":  # no flock: builders are not kept apart
        yield
        return
    lock = directory.with_name(directory.name + ".lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        fh = lock.open("a")
    except OSError as exc:
        raise StoreError(f"{lock}: search index lock not taken: {exc}") from exc
    with fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise IndexBusyError(f"{directory}: another process is rebuilding it") from None
        yield


class CorpusIndex:
    """A saved index: the manifest at once, the rest (memory-mapped) on the first search."""

    def __init__(self, directory: Path, manifest: dict[str, Any]) -> None:
        self.directory = directory
        self.manifest = manifest
        self._loaded: Loaded | None = None
        self._lock = threading.Lock()  # the service's threads may all search first at once

    @property
    def generation(self) -> int:
        return int(self.manifest["generation"])

    @property
    def state(self) -> tuple[str, int]:
        """The store id and generation it was built from (``ChunkStore.state``)."""
        return str(self.manifest.get("store", "")), self.generation

    def is_current(self, generation: int, store_id: str = "") -> bool:
        """Built by this version's format and tokenizer, from this store at this generation."""
        return (
            self.manifest.get("format") == INDEX_FORMAT
            and self.manifest.get("tokenizer") == TOKENIZER_VERSION
            and self.state == (store_id, generation)
        )

    # -- building ----------------------------------------------------------------------------
    @classmethod
    def build(
        cls,
        chunks: Iterable[Chunk],
        directory: str | Path,
        *,
        generation: int,
        store_id: str = "",
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
        try:
            tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
        except OSError as exc:
            raise StoreError(f"{target}: search index not written: {exc}") from exc
        build = uuid.uuid4().hex  # tells a reader it read all of one build
        stage = tmp / f"build-{build}"
        try:
            stage.mkdir()
            write_durably(stage / VOCABULARY, json.dumps(found.vocabulary, ensure_ascii=False))
            write_durably(stage / CHUNK_IDS, json.dumps(found.chunk_ids))
            counts_by_level: dict[str, int] = {}
            lengths: dict[str, float] = {}
            for rank, level in enumerate(LEVELS):
                keep = found.levels <= rank
                ptr, level_docs, data, n_docs, avg = kernels.level_weights(
                    indptr, docs, counts, keep, found.lengths, K1, B
                )
                counts_by_level[level] = int(n_docs)
                lengths[level] = round(float(avg), 3)
                save_level(stage / level, ptr, level_docs, data, np.flatnonzero(keep))
                if progress:
                    progress(f"indexed {level}: {n_docs} chunks")
            manifest = {
                "format": INDEX_FORMAT,
                "tokenizer": TOKENIZER_VERSION,
                "generation": generation,
                "store": store_id,
                "build": build,
                "bm25": {"method": "lucene", "k1": K1, "b": B},
                "chunks": counts_by_level,
                "average_tokens": lengths,
            }
            write_durably(stage / MANIFEST, json.dumps(manifest, indent=2))
            fsync_dir(stage)
            _crash_point("written")
            _swap_in(tmp, stage, target)
        except OSError as exc:  # disk full, permission denied: the index in use is untouched
            shutil.rmtree(tmp, ignore_errors=True)
            raise StoreError(f"{target}: search index not written: {exc}") from exc
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return cls(target, manifest)

    # -- loading -----------------------------------------------------------------------------
    @classmethod
    def load(cls, directory: str | Path) -> CorpusIndex:
        """Read the manifest; the rest is read, all of one build, on the first search."""
        path = Path(directory)
        return cls(path, read_manifest(path))

    def ready(self) -> CorpusIndex:
        """Read every file now (all of one build), so that no search waits for it."""
        self._data()
        return self

    def _data(self) -> Loaded:
        loaded = self._loaded
        if loaded is None:
            with self._lock:
                if self._loaded is None:
                    self._loaded = load_index(self.directory)
                    self.manifest = self._loaded.manifest  # a rebuild may have landed since
                loaded = self._loaded
        return loaded

    # -- searching ---------------------------------------------------------------------------
    def rank(
        self, queries: list[list[str]], clearance: str, depth: int
    ) -> list[list[tuple[str, float]]]:
        """For each tokenised query, the best ``depth`` chunks this clearance may see."""
        from ragspine.retrieval.kernels import score_top

        data = self._data()
        level, vocab, ids = data.levels[check_level(clearance)], data.vocab, data.chunk_ids
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


def _swap_in(tmp: Path, stage: Path, target: Path) -> None:
    """Make the build in ``stage`` (inside ``tmp``, beside ``target``) the index in use, by ONE
    atomic rename at each step, then remove what is no longer in use and what killed builds left
    (see ``index_files`` for the layout). The caller holds the build lock."""
    if not exists(target):  # the first build: the whole folder, pointer included, moves in
        write_durably(tmp / CURRENT, stage.name)
        fsync_dir(tmp)
        if target.is_dir():
            shutil.rmtree(target)  # a folder with no index in it (a build killed long ago)
        os.replace(tmp, target)
        fsync_dir(target.parent)
    else:
        os.replace(stage, target / stage.name)
        fsync_dir(target)
        _crash_point("placed")
        pointer = target / f".{CURRENT}.tmp"
        write_durably(pointer, stage.name)
        os.replace(pointer, target / CURRENT)  # the one step that changes what readers see
        fsync_dir(target)
        _crash_point("pointed")
    _remove_unused(target, stage.name)


def _remove_unused(target: Path, keep: str) -> None:
    """Builds no longer current (a reader that has them memory-mapped keeps reading them),
    files of an index from before versioned builds, and killed builds' temporary folders."""
    for entry in target.iterdir():
        if entry.name not in (CURRENT, keep):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
    for orphan in target.parent.glob(f".{target.name}.*"):
        shutil.rmtree(orphan, ignore_errors=True)


def _crash_point(step: str) -> None:
    if os.environ.get(CRASH_AT) == step:
        os.kill(os.getpid(), signal.SIGKILL)
