"""A saved search index on disk: its layout, its crash-safe swap, and reading it back whole.

Layout: ``chunks.index/CURRENT`` names the build in use, ``chunks.index/build-<id>/`` holds it
(manifest, vocabulary, chunk ids, a folder of arrays per level). A build is written beside the
index (``.chunks.index.<random>/``), every file and folder fsynced, moved in by one rename, and
made current by ONE atomic replace of ``CURRENT``: killed at any step, a reader finds the old
build or the new one, never none. What a killed build left (its temporary folder, a build never
made current) is removed by the next build. The first build is moved into place whole, so the
index folder never exists without a ``CURRENT``. An index from before this layout (its files
directly in the folder, no ``CURRENT``) is still read, and replaced by the next build.

A process that read the vocabulary of one build and the arrays of the next would score with term
numbers that mean other words (and the compiled loops do not check bounds), so everything is read
from the one build ``CURRENT`` named, again if it moved on meanwhile; the arrays are
memory-mapped, so reading them all costs no more than reading one.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ragspine.errors import StoreError
from ragspine.sensitivity import LEVELS

MANIFEST = "manifest.json"
CURRENT = "CURRENT"
_BUILD = re.compile(r"^build-[0-9a-f]{32}$")
VOCABULARY = "vocabulary.json"
CHUNK_IDS = "chunk_ids.json"
# name, dtype: what each level's arrays must be for the kernels
ARRAYS = (("indptr", np.int64), ("docs", np.int32), ("data", np.float32), ("rows", np.int32))
ATTEMPTS = 5


@dataclass(frozen=True)
class LevelIndex:
    indptr: np.ndarray  # int64, terms + 1
    docs: np.ndarray  # int32: the level's document numbers, term by term
    data: np.ndarray  # float32: each posting's BM25 weight
    rows: np.ndarray  # int32: level document number → corpus row (chunk id)

    @property
    def n_docs(self) -> int:
        return int(self.rows.size)


@dataclass(frozen=True)
class Loaded:
    manifest: dict[str, Any]
    vocab: dict[str, int]
    chunk_ids: list[str]
    levels: dict[str, LevelIndex]


def current_build(directory: Path) -> Path:
    """The folder of the build in use: the one ``CURRENT`` names (or, in an index from before
    versioned builds, the index folder itself)."""
    try:
        name = (directory / CURRENT).read_text("utf-8").strip()
    except FileNotFoundError:
        return directory
    except OSError as exc:
        raise StoreError(f"{directory}: unreadable search index pointer: {exc}") from exc
    if not _BUILD.match(name):
        raise StoreError(f"{directory}: damaged search index pointer {CURRENT}: {name[:80]!r}")
    return directory / name


def exists(directory: Path) -> bool:
    """Whether an index has been saved here (a build made current, or an older flat one)."""
    return (directory / CURRENT).is_file() or (directory / MANIFEST).is_file()


def read_manifest(directory: Path) -> dict[str, Any]:
    """The manifest of the build in use."""
    return _manifest_at(current_build(directory), directory)


def _manifest_at(build: Path, directory: Path) -> dict[str, Any]:
    try:
        data = json.loads((build / MANIFEST).read_text("utf-8"))
    except FileNotFoundError:
        raise StoreError(f"search index not found: {directory}") from None
    except (OSError, ValueError) as exc:
        raise StoreError(f"{directory}: unreadable search index manifest: {exc}") from exc
    if not isinstance(data, dict):
        raise StoreError(f"{directory}: unreadable search index manifest: not an object")
    return data


def load_index(directory: Path) -> Loaded:
    """Every file of one build; read again if a rebuild was made current (and the build being
    read removed) meanwhile."""
    for attempt in range(ATTEMPTS):
        build = current_build(directory)
        try:
            before = _manifest_at(build, directory)
            loaded = _read_all(build, before)
            after = _manifest_at(build, directory)  # an old flat index is rewritten in place
        except StoreError:
            if attempt == ATTEMPTS - 1 or current_build(directory) == build:
                raise
            continue
        if before.get("build") == after.get("build"):
            return loaded
        time.sleep(0.05)
    raise StoreError(f"{directory}: the search index kept changing while it was read")


def _read_json(directory: Path, name: str, kind: type) -> Any:
    try:
        data = json.loads((directory / name).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise StoreError(f"{directory}: unreadable search index ({name}): {exc}") from exc
    if not isinstance(data, list) or not all(isinstance(x, kind) for x in data):
        raise StoreError(f"{directory}: unreadable search index ({name}): not a list of strings")
    return data


def _read_all(directory: Path, manifest: dict[str, Any]) -> Loaded:
    words = _read_json(directory, VOCABULARY, str)
    ids = _read_json(directory, CHUNK_IDS, str)
    counts = manifest.get("chunks") or {}
    levels = {
        level: _read_level(directory / level, len(words), len(ids), counts.get(level))
        for level in LEVELS
    }
    vocab = dict(zip(words, range(len(words)), strict=True))
    return Loaded(manifest, vocab, ids, levels)


def save_level(d: Path, *arrays: np.ndarray) -> None:
    """A level's arrays under the names and types ``_read_level`` checks, each fsynced."""
    d.mkdir()
    for (name, dtype), a in zip(ARRAYS, arrays, strict=True):
        with (d / f"{name}.npy").open("wb") as fh:
            np.save(fh, np.asarray(a, dtype=dtype))
            fh.flush()
            os.fsync(fh.fileno())
    fsync_dir(d)


def write_durably(path: Path, text: str) -> None:
    """A file whose bytes are on disk before it is renamed anywhere."""
    with path.open("w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())


def fsync_dir(d: Path) -> None:
    """A folder's entries (a file created or renamed in it) on disk; Windows has no such call."""
    if sys.platform == "win32":
        return
    fd = os.open(d, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _read_level(d: Path, n_terms: int, n_ids: int, expected: object) -> LevelIndex:
    arrays = []
    for name, dtype in ARRAYS:
        try:
            # Memory-mapped: a process serving one clearance pages in only what it scores.
            a = np.asarray(np.load(d / f"{name}.npy", mmap_mode="r"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"{d}: unreadable search index level ({name}): {exc}") from exc
        if a.dtype != dtype or a.ndim != 1:
            raise StoreError(f"{d}: damaged search index level: {name} is {a.dtype}, {a.ndim}-d")
        arrays.append(a)
    level = LevelIndex(*arrays)
    ptr = level.indptr
    problems = [
        (ptr.size != n_terms + 1, f"{ptr.size - 1} terms for a vocabulary of {n_terms}"),
        (ptr.size > 0 and int(ptr[0]) != 0, "postings do not start at 0"),
        (
            ptr.size > 0 and not (int(ptr[-1]) == level.docs.size == level.data.size),
            "posting arrays of different lengths",
        ),
        (bool(np.any(ptr[1:] < ptr[:-1])), "posting offsets go backwards"),
        (expected is not None and level.n_docs != expected, f"{level.n_docs} chunks"),
        (
            level.n_docs > 0 and not 0 <= int(level.rows[0]) <= int(level.rows[-1]) < n_ids,
            "rows outside the chunk ids",
        ),
    ]
    for bad, what in problems:
        if bad:
            raise StoreError(f"{d}: damaged search index level: {what}; rebuild it")
    return level
