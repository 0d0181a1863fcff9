"""The demo's stores on PostgreSQL (``ragspine fixtures --db postgresql://…``).

A store is built as on SQLite, into a file in a scratch folder, then its tables are copied into
the database whole (``storage.copy``: one transaction, what the store held there before deleted
in it), as a rebuild replaces the files: both backends hold the same rows. A copied corpus's
generation is moved past what either side had, so every host's index is rebuilt from it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ragspine.retrieval.chunking.chunk_store import ChunkStore, advance_generation
from ragspine.storage.copy import copy_tables
from ragspine.storage.db import Connection
from ragspine.storage.fact_store import FactStore
from ragspine.store_location import PgLocation

T = TypeVar("T")


def copied_in(
    where: PgLocation, kind: type[FactStore | ChunkStore], build: Callable[[Path], T]
) -> T:
    """``build(path)`` into a scratch SQLite file, then that store copied into the database at
    ``where`` (replacing the demo's store there); what ``build`` returned."""
    with tempfile.TemporaryDirectory(prefix="ragspine-demo-") as scratch:
        built = build(Path(scratch) / "store.db")
        with kind(Path(scratch) / "store.db", create=False) as src, kind(where) as dst:
            src.init_schema()
            dst.init_schema()
            finish: Callable[[Connection], None] | None = None
            if isinstance(src, ChunkStore):
                past = src.generation

                def finish(conn: Connection) -> None:
                    advance_generation(conn, past)

            copy_tables(src.connection, dst.connection, src.TABLES, replace=True, finish=finish)
    return built
