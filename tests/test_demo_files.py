"""The demo's facts come from real files: the decks and the workbook `ragspine fixtures` writes,
ingested like any other. Every fact the demo specifies is read back from its cell."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from openpyxl import load_workbook
from pptx import Presentation

from ragspine.demo.corpus import demo_corpus_files
from ragspine.demo.facts import demo_facts
from ragspine.storage.fact_store import FactStore
from tests.cli import invoke


def test_fixtures_writes_the_files_and_ingests_every_demo_fact_from_them(tmp_path: Path) -> None:
    db = tmp_path / "data" / "fact_metric.db"
    out = invoke("fixtures", "--db", str(db), "--corpus", str(tmp_path / "data" / "chunks.db"))
    assert out.returncode == 0, out.stderr
    files = tmp_path / "data" / "demo_files"
    assert "wrote 296 demo facts" in out.stdout and str(files) in out.stdout
    with FactStore(db) as store:
        got = {(f.source_doc_id, f.source_locator): f for f in store.iter_facts()}
    want = {(f.source_doc_id, f.source_locator): f for f in demo_facts()}
    assert got.keys() == want.keys()
    for where, fact in want.items():
        assert (got[where].key, got[where].value) == (fact.key, fact.value), where
        assert got[where].source_file_hash and got[where].extractor_version  # real lineage
    # the seeds' example, at the seeds' locator, is a real cell of a real deck
    deck = Presentation(str(files / "ACME_FY2024_Review.pptx"))
    table = next(s for s in deck.slides[1].shapes if s.has_table).table
    header = [c.text for c in table.rows[0].cells]
    row = next(r for r in table.rows if r.cells[0].text == "REVENUE")
    assert row.cells[header.index("FY2024")].text == "1320"
    assert deck.slides[1].shapes.title is not None
    assert deck.slides[1].shapes.title.text.startswith("中国内地")
    sheet = load_workbook(files / "ACME_2024_Quarterly_KPI.xlsx")["ACME_HK"]
    cells = {r[0]: r for r in sheet.iter_rows(values_only=True)}
    header_row = list(cells["指标"])
    assert cells["REVENUE"][header_row.index("2024Q3")] == 113.8


def _documents(corpus: Path) -> dict[str, tuple[object, ...]]:
    """Each document's row, and its chunks' locators, headings, sensitivities and text."""
    with sqlite3.connect(corpus) as conn:
        docs = conn.execute(
            "SELECT doc_id, title, sensitivity, language, entity, period, content_hash"
            " FROM document"
        ).fetchall()
        chunks = conn.execute(
            "SELECT doc_id, chunk_id, ord, source_locator, title, entity, period, sensitivity,"
            " text FROM chunk ORDER BY doc_id, ord"
        ).fetchall()
    return {d[0]: (*d, *(c for c in chunks if c[0] == d[0])) for d in docs}


def test_fixtures_builds_the_demo_corpus_as_ingest_would(tmp_path: Path) -> None:
    """`ragspine fixtures` puts the demo documents through the ingestion pipeline: its corpus is
    the one `ragspine ingest` makes of the same files, chunk for chunk."""
    data = tmp_path / "data"
    out = invoke("fixtures", "--db", str(data / "facts.db"), "--corpus", str(data / "chunks.db"))
    assert out.returncode == 0, out.stderr
    built = _documents(data / "chunks.db")
    assert "wrote 10 demo documents (143 chunks)" in out.stdout and len(built) == 10
    sources = tmp_path / "sources"
    sources.mkdir()
    for path in demo_corpus_files():
        shutil.copy(path, sources)
    ingested = tmp_path / "ingested"
    out = invoke(
        "ingest", str(sources), "--db", str(ingested / "facts.db"),
        "--corpus", str(ingested / "chunks.db"),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert _documents(ingested / "chunks.db") == built
    restricted = [d for d, row in built.items() if row[2] == "RESTRICTED"]
    assert restricted == ["ACME_Board_Minutes_2024Q4.md"]  # front matter's sensitivity kept
