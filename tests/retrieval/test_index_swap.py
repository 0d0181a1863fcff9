"""The search index is swapped in crash-safely and an OS error while building it is one line.

Real processes are killed at each step of the swap (RAGSPINE_INDEX_CRASH_AT makes the build
SIGKILL itself there) and the index must still load and serve; the next build cleans what the
killed one left. Disk full is a real kernel limit (RLIMIT_FSIZE: a write past it fails with
EFBIG, as a full disk fails with ENOSPC), set on a real `ragspine worker`.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ragspine.ingestion.pipeline import ingest_file
from ragspine.profile import load_profile
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.index import CorpusIndex, index_dir_for
from ragspine.retrieval.index_files import CURRENT
from ragspine.retrieval.tokenize import tokenize
from tests.cli import invoke
from tests.pg_stores import Place

RAGSPINE = str(Path(sys.executable).parent / "ragspine")


def _note(folder: Path, name: str, word: str, extra: str = "") -> Path:
    path = folder / name
    path.write_text(f"# {word}\n\nThe {word} report says little. {extra}\n", "utf-8")
    return path


def _stores(place: Place) -> list[str]:
    return ["--db", str(place("facts.db")), "--corpus", str(place("chunks.db"))]


def _found(place: Place, word: str) -> bool:
    """Whether the saved index, loaded as a new reader would, serves a passage for ``word``."""
    index = CorpusIndex.load(index_dir_for(place("chunks.db")))
    return bool(index.rank([tokenize(word, query=True)], "INTERNAL", 5)[0])


def _leftovers(place: Place) -> list[str]:
    """Temporary folders beside the index, and anything in it but the pointer and its build."""
    index = index_dir_for(place("chunks.db"))
    stray = [p.name for p in index.parent.iterdir() if p.name.startswith(f".{index.name}.")]
    current = (index / CURRENT).read_text("utf-8").strip()
    return stray + [p.name for p in index.iterdir() if p.name not in (CURRENT, current)]


@pytest.mark.slow
@pytest.mark.parametrize(
    "step",
    [
        "written",  # the new build is on disk beside the index, not moved in
        "placed",  # moved into the index folder, not yet current
        "pointed",  # current; the old build not yet removed
    ],
)
def test_a_build_killed_at_any_step_leaves_an_index_that_serves(
    tmp_path: Path, step: str, place: Place
) -> None:
    first = _note(tmp_path, "first.md", "zebracorn")
    assert invoke("ingest", str(first), *_stores(place)).returncode == 0
    second = _note(tmp_path, "second.md", "quokkafish")
    killed = subprocess.run(
        [RAGSPINE, "ingest", str(second), *_stores(place)],
        env={**os.environ, "RAGSPINE_INDEX_CRASH_AT": step}, capture_output=True, timeout=120,
    )  # fmt: skip
    assert killed.returncode == -signal.SIGKILL
    assert _found(place, "zebracorn")  # never no index
    assert _found(place, "quokkafish") == (step == "pointed")
    third = _note(tmp_path, "third.md", "axolotlpie")
    out = invoke("ingest", str(third), *_stores(place))
    assert out.returncode == 0 and "index rebuilt" in out.stdout
    assert all(_found(place, w) for w in ("zebracorn", "quokkafish", "axolotlpie"))
    assert _leftovers(place) == []  # what the killed build left is gone


def _file_size_limit(limit: int) -> Callable[[], None]:
    def limited() -> None:  # in the child, before exec: the kernel enforces it from then on
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails (EFBIG), no kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limited


def test_a_full_disk_during_the_index_build_is_one_line_and_the_old_index_serves(
    tmp_path: Path,
    place: Place,
) -> None:
    first = _note(tmp_path, "first.md", "zebracorn")
    assert invoke("ingest", str(first), *_stores(place)).returncode == 0
    words = " ".join(f"w{i:05d}x" for i in range(6000))  # a vocabulary of ~60 KB to write
    big = _note(tmp_path, "big.md", "quokkafish", words)
    with ChunkStore(place("chunks.db")) as chunks:  # stored, not yet indexed
        ingest_file(big, chunks=chunks, facts=None, profile=load_profile(None))
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    full = subprocess.run(
        [RAGSPINE, "worker", "--inbox", str(inbox), "--once", "--settle", "0", *_stores(place)],
        preexec_fn=_file_size_limit(32 * 1024), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert full.returncode == 1, full.stderr
    assert full.stderr.startswith("error: ") and len(full.stderr.splitlines()) == 1, full.stderr
    assert "search index not written" in full.stderr and "File too large" in full.stderr
    assert _found(place, "zebracorn") and not _found(place, "quokkafish")
    assert _leftovers(place) == []  # the half-written build was removed
    again = invoke("worker", "--inbox", str(inbox), "--once", "--settle", "0", *_stores(place))
    assert again.returncode == 0, again.stderr
    assert _found(place, "quokkafish")


# SQLite's own: the store is a file the worker writes, so a file-size limit on the worker stops
# the store's write (a PostgreSQL server writes its own files, out of the worker's limits)
@pytest.mark.sqlite_only
def test_a_full_disk_while_storing_a_file_is_one_line_and_the_file_stays(
    tmp_path: Path, place: Place
) -> None:
    first = _note(tmp_path, "first.md", "zebracorn")
    assert invoke("ingest", str(first), *_stores(place)).returncode == 0
    size = Path(place("chunks.db")).stat().st_size
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    words = " ".join(f"w{i:05d}x" for i in range(20000))  # more than the disk has left
    _note(inbox, "big.md", "quokkafish", words)
    full = subprocess.run(
        [RAGSPINE, "worker", "--inbox", str(inbox), "--once", "--settle", "0", *_stores(place)],
        preexec_fn=_file_size_limit(size + 8192), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert full.returncode == 1, full.stderr
    assert full.stderr.startswith("error: ") and len(full.stderr.splitlines()) == 1, full.stderr
    assert "big.md" in full.stderr and "stays in the inbox" in full.stderr
    assert (inbox / "big.md").exists() and not (inbox / "failed").exists()
    assert _found(place, "zebracorn")
    with ChunkStore(place("chunks.db")) as chunks:  # as it was: the write rolled back
        assert [c.doc_id for c in chunks.iter_chunks()] == ["first.md"]
    again = invoke("worker", "--inbox", str(inbox), "--once", "--settle", "0", *_stores(place))
    assert again.returncode == 0 and "1 ingested" in again.stdout
