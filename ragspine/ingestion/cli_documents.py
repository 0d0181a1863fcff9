"""`ragspine documents`: what a corpus holds, one line per document with its period."""

from __future__ import annotations

from pathlib import Path

import click

from ragspine.cli_errors import known_errors
from ragspine.cli_options import DEFAULT_CORPUS, STORE, shown_default, store_default


@click.command()
@click.option(
    "--corpus", type=STORE,
    default=store_default("corpus", DEFAULT_CORPUS),
    show_default=shown_default("corpus", DEFAULT_CORPUS), envvar="RAGSPINE_CORPUS",
    show_envvar=True, help="the document chunk store; it must exist",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="one JSON object per line, per document")
@known_errors
def documents(corpus: Path, as_json: bool) -> None:
    """List the documents in the corpus: id, period, sensitivity, chunks, when ingested.

    A document's period is what its cover names (2020 年年度报告 → FY2020), its front matter's
    `period:`, or `ingest --period`; "-" where none is known.
    """
    import json
    from dataclasses import asdict

    from ragspine.retrieval.chunking.chunk_store import ChunkStore

    with ChunkStore(corpus, create=False) as chunks:
        chunks.init_schema()
        rows = chunks.documents()
    for row in rows:
        if as_json:
            click.echo(json.dumps(asdict(row), ensure_ascii=False))
        else:
            click.echo(
                f"{row.period or '-':<8} {row.sensitivity:<10} {row.chunks:>6} chunks  "
                f"{row.doc_id}  (ingested {row.ingested_at})"
            )
    if not as_json:
        click.echo(f"{len(rows)} document{'' if len(rows) == 1 else 's'} in {corpus}")
