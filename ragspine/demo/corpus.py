"""The ACME demo corpus: documents shipped in the package, ingested by `ragspine fixtures`."""

from __future__ import annotations

import shutil
import tempfile
from importlib import resources
from pathlib import Path

from ragspine.ingestion.pipeline import RunReport, ingest_paths_all
from ragspine.profile import default_profile
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.index import index_dir_for
from ragspine.store_location import Location, PgLocation, parse_location


def demo_corpus_files() -> list[Path]:
    root = resources.files("ragspine.demo").joinpath("corpus")
    return sorted(Path(str(root)).glob("*.*"))


def build_demo_corpus(path: str | Location) -> RunReport:
    """Rebuild the demo chunk store and its index from scratch at ``path`` (a database's copied
    in, ``demo.staged``), through the same pipeline as `ragspine ingest` (passages only: the demo's
    facts come from its decks)."""
    from ragspine.demo.staged import copied_in

    target = parse_location(path)
    if isinstance(target, PgLocation):
        return copied_in(target, ChunkStore, build_demo_corpus)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".corpus.", dir=target.parent))
    try:
        staged = work / target.name
        with ChunkStore(staged) as store:
            store.init_schema()
            report = ingest_paths_all(
                demo_corpus_files(), chunks=store, facts=None, profile=default_profile()
            )
        index = index_dir_for(target)
        shutil.rmtree(index, ignore_errors=True)
        staged.replace(target)
        index_dir_for(staged).replace(index)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return report
