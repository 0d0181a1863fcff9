"""`ragspine ingest` on workbooks and decks: facts and passages with lineage, a changed file
superseding its facts (history kept), an unchanged one skipped, a bad one changing nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from openpyxl import Workbook
from pypdf import PdfWriter

from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.storage.fact_store import FactStore
from ragspine.store_location import is_postgres
from tests.cli import Ran, invoke
from tests.pg_stores import Place, drop_store
from tests.readers.test_readers import _deck


@contextmanager
def disk_full(corpus: Path | str) -> Iterator[None]:
    """While inside, the chunk store's last write (its generation) is refused by a trigger,
    on either backend as a broken constraint (SQLite's RAISE(ABORT) is one; PostgreSQL's
    SQLSTATE 23000 the same); the trigger is dropped on leaving."""
    if not is_postgres(str(corpus)):
        conn = sqlite3.connect(corpus)
        conn.execute(
            "CREATE TRIGGER full BEFORE UPDATE ON corpus_state "
            "BEGIN SELECT RAISE(ABORT, 'disk full'); END"
        )
        conn.commit()
        try:
            yield
        finally:
            conn.execute("DROP TRIGGER full")
            conn.commit()
            conn.close()
        return
    with psycopg.connect(str(corpus), autocommit=True) as pg:
        pg.execute(
            "CREATE FUNCTION ragspine_chunks.disk_full() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN RAISE EXCEPTION 'disk full' USING ERRCODE = '23000'; END $$"
        )
        pg.execute(
            "CREATE TRIGGER disk_full BEFORE UPDATE ON ragspine_chunks.corpus_state"
            " FOR EACH ROW EXECUTE FUNCTION ragspine_chunks.disk_full()"
        )
        try:
            yield
        finally:
            pg.execute("DROP TRIGGER disk_full ON ragspine_chunks.corpus_state")


def _book(path: Path, fy2024: float) -> Path:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "ACME_HK"  # the sheet names the entity
    sheet.append(["指标", "FY2023", "FY2024", "2024Q3"])
    sheet.append(["REVENUE", 410, fy2024, 118.2])
    sheet.append(["GROSS_MARGIN", 39.2, "n/a", None])
    book.save(path)
    return path


def _ingest(place: Place, *paths: Path) -> Ran:
    return invoke(
        "ingest", *map(str, paths), "--db", str(place("facts.db")),
        "--corpus", str(place("chunks.db")),
    )  # fmt: skip


def _facts(place: Place) -> dict[tuple[str, str], tuple[float, str, str]]:
    with FactStore(place("facts.db")) as store:
        return {
            (f.metric_code, f.period): (f.value, f.source_locator, f.source_file_hash or "")
            for f in store.iter_facts()
        }


def test_a_workbook_becomes_facts_answered_with_their_cell(tmp_path: Path, place: Place) -> None:
    out = _ingest(place, _book(tmp_path / "ACME_HK_2024.xlsx", 455))
    assert out.returncode == 0, out.stderr
    assert (
        "added  ACME_HK_2024.xlsx (0 chunks, 4 facts, 0 values not mapped, 0 conflicts)"
        in out.stdout
    )
    facts = _facts(place)
    assert facts[("REVENUE", "2024")][:2] == (455.0, "sheet=ACME_HK,row=REVENUE,col=FY2024")
    assert facts[("REVENUE", "2024Q3")][0] == 118.2
    ask = invoke(
        "ask", "香港FY2024的收入是多少?", "--db", str(place("facts.db")),
        "--corpus", str(place("chunks.db")),
    )  # fmt: skip
    assert ask.stdout.startswith(
        "香港 FY2024 收入:455 百万美元"
        "(来源:ACME_HK_2024.xlsx · sheet=ACME_HK,row=REVENUE,col=FY2024)"
    )


def test_a_changed_workbook_supersedes_its_facts_and_keeps_the_old_ones(
    tmp_path: Path, place: Place
) -> None:
    book = _book(tmp_path / "ACME_HK_2024.xlsx", 455)
    _ingest(place, book)
    first_hash = _facts(place)[("REVENUE", "2024")][2]
    assert _ingest(place, book).stdout.startswith("unchanged  ACME_HK_2024.xlsx")
    _book(book, 456)  # restated
    out = _ingest(place, book)
    assert (
        "replaced  ACME_HK_2024.xlsx (0 chunks, 4 facts, 0 values not mapped, 0 conflicts, "
        "4 facts superseded)" in out.stdout
    )
    now = _facts(place)
    assert now[("REVENUE", "2024")][0] == 456.0 and now[("REVENUE", "2024")][2] != first_hash
    with FactStore(place("facts.db")) as store:
        history = store.history("ACME_HK_2024.xlsx")
    old = [f for f, _ in history if (f.metric_code, f.period) == ("REVENUE", "2024")]
    assert [(f.value, f.source_file_hash) for f in old] == [(455.0, first_hash)]


def test_a_cell_that_is_not_a_number_is_counted_and_a_deck_gives_passages(
    tmp_path: Path, place: Place
) -> None:
    book = _book(tmp_path / "hk.xlsx", 455)
    book_with_text = Workbook()
    sheet = book_with_text.active
    assert sheet is not None
    sheet.title = "ACME_HK"
    sheet.append(["指标", "FY2024"])
    sheet.append(["REVENUE", "about 455"])
    book_with_text.save(book)
    deck = _deck(tmp_path / "ACME_FY2024_Review.pptx")
    out = _ingest(place, book, deck)
    assert "hk.xlsx (0 chunks, 0 facts, 1 value not mapped, 0 conflicts)" in out.stdout
    assert (
        "ACME_FY2024_Review.pptx (2 chunks, 2 facts, 0 values not mapped, 0 conflicts)"
        in out.stdout
    )
    with ChunkStore(place("chunks.db")) as chunks:
        assert {c.source_locator for c in chunks.iter_chunks()} == {
            "slide=1,para=1",
            "slide=1,para=2",
        }


def test_a_bad_file_is_one_line_and_changes_nothing(tmp_path: Path, place: Place) -> None:
    good = _book(tmp_path / "good.xlsx", 455)
    assert _ingest(place, good).returncode == 0
    before = _facts(place)
    broken = tmp_path / "broken.pptx"
    broken.write_bytes(b"not a deck")
    empty = tmp_path / "empty.xlsx"
    Workbook().save(empty)
    corrupt = tmp_path / "corrupt.pdf"
    corrupt.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    locked = tmp_path / "locked.pdf"
    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    writer.encrypt("secret")
    writer.write(locked)
    for bad, why in (
        (broken, "not a readable PPTX deck"),  # a deck that is not a zip
        (empty, "the workbook has no filled cells"),  # a workbook with no cell filled
        (corrupt, "not a readable PDF"),  # a PDF header over garbage
        (locked, "the PDF is password-protected"),  # encrypted with a user password
    ):
        out = _ingest(place, bad)
        assert out.returncode == 1 and out.stdout == ""
        assert out.stderr.strip() == f"error: {bad}: {why}" or out.stderr.startswith(
            f"error: {bad}: {why}"
        )
        assert len(out.stderr.strip().splitlines()) == 1
        assert _facts(place) == before
    unknown = tmp_path / "notes.doc"
    unknown.write_text("x")
    assert _ingest(place, unknown).stderr.strip() == f"error: {unknown}: cannot ingest .doc"


def test_a_fact_another_file_states_stays_that_files(tmp_path: Path, place: Place) -> None:
    first = _book(tmp_path / "kpi_a.xlsx", 455)
    assert _ingest(place, first).returncode == 0
    second = _book(tmp_path / "kpi_b.xlsx", 999)  # agrees on FY2023 and 2024Q3, not on FY2024
    out = _ingest(place, second)
    assert out.returncode == 0, out.stderr
    assert "added  kpi_b.xlsx (0 chunks, 0 facts, 0 values not mapped, 1 conflict)" in out.stdout
    facts = _facts(place)
    assert facts[("REVENUE", "2024")][:2] == (455.0, "sheet=ACME_HK,row=REVENUE,col=FY2024")
    with FactStore(place("facts.db")) as store:
        assert store.count() == 4  # the agreeing cells are not stored twice


def test_a_file_with_nothing_to_read_is_one_line_and_changes_nothing(
    tmp_path: Path, place: Place
) -> None:
    from pptx import Presentation
    from pypdf import PdfWriter

    blank_deck = tmp_path / "blank.pptx"
    deck = Presentation()
    deck.slides.add_slide(deck.slide_layouts[6])  # a blank slide: no title, no text, no table
    deck.save(str(blank_deck))
    scanned = tmp_path / "scanned.pdf"
    writer = PdfWriter()
    writer.add_blank_page(200, 200)  # a page with no text layer, as a scan has
    writer.write(scanned)
    for path, why in (
        (blank_deck, "nothing to ingest: no text and no tables"),
        (scanned, "nothing to ingest: no text layer (a scanned PDF?) and no tables"),
    ):
        out = _ingest(place, path)
        errors = [line for line in out.stderr.splitlines() if not line.startswith("  reading")]
        assert out.returncode == 1 and errors == [f"error: {path}: {why}"]  # progress aside
        with ChunkStore(place("chunks.db")) as chunks:
            assert chunks.count() == 0 and chunks.content_hash(path.name) is None


def test_a_deck_without_tables_is_one_line_and_changes_nothing(
    tmp_path: Path, place: Place
) -> None:
    assert _ingest(place, _book(tmp_path / "good.xlsx", 455)).returncode == 0
    before = _facts(place)
    deck = _deck(tmp_path / "notes.pptx", table=False)  # a title and a text box only
    out = _ingest(place, deck)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.splitlines() == [
        f"error: {deck}: no tables in 1 slides: a deck or workbook is ingested for its tables' "
        "figures (put prose in .docx, .md or .pdf)"
    ]
    assert _facts(place) == before
    with ChunkStore(place("chunks.db")) as chunks:
        assert chunks.content_hash("notes.pptx") is None


def test_facts_and_passages_are_written_together_or_not_at_all(
    tmp_path: Path, place: Place
) -> None:
    deck = _deck(tmp_path / "ACME_FY2024_Review.pptx")
    with ChunkStore(place("chunks.db")) as chunks:
        chunks.init_schema()
    # the chunk store fails at the last step, after the facts were written in the transaction
    with disk_full(place("chunks.db")):
        out = _ingest(place, deck)
    # one error line, last; above it only progress lines (a read served from the session's shared
    # cache says so), never a traceback
    lines = out.stderr.splitlines()
    assert out.returncode == 1 and lines[-1].startswith("error: "), out.stderr
    assert all(line.startswith("  ") for line in lines[:-1]), out.stderr
    assert lines[-1] == f"error: {deck}: cannot store its chunks: disk full"
    assert _facts(place) == {}
    with FactStore(place("facts.db")) as facts:
        assert facts.source_hash(deck.name) is None
    out = _ingest(place, deck)
    assert "added  ACME_FY2024_Review.pptx (2 chunks, 2 facts" in out.stdout, out.stderr


def test_a_fact_store_built_again_gets_the_files_facts_again(tmp_path: Path, place: Place) -> None:
    deck = _deck(tmp_path / "ACME_FY2024_Review.pptx")
    assert "added" in _ingest(place, deck).stdout
    assert "unchanged  ACME_FY2024_Review.pptx" in _ingest(place, deck).stdout
    drop_store(FactStore, place("facts.db"))  # the corpus still holds the deck; the facts do not
    out = _ingest(place, deck)
    assert "replaced  ACME_FY2024_Review.pptx (2 chunks, 2 facts" in out.stdout, out.stderr
    assert set(_facts(place)) == {("REVENUE", "2023"), ("REVENUE", "2024")}
    assert "unchanged  ACME_FY2024_Review.pptx" in _ingest(place, deck).stdout


def test_markdown_goes_through_the_same_reader_with_both_stores(
    tmp_path: Path, place: Place
) -> None:
    notes = tmp_path / "policy.md"
    notes.write_text(
        "---\ntitle: 政策\nsensitivity: PUBLIC\n---\n# 退货\n\n七天内可退货。\n", "utf-8"
    )
    out = _ingest(place, notes)
    assert "added  policy.md (1 chunks)" in out.stdout, out.stderr
    with ChunkStore(place("chunks.db")) as chunks:
        (chunk,) = chunks.iter_chunks()
        assert (chunk.source_locator, chunk.title, chunk.sensitivity) == (
            "section=1,para=1",
            "政策 › 退货",
            "PUBLIC",
        )
    assert "unchanged  policy.md" in _ingest(place, notes).stdout
