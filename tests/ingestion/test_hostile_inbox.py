"""A worker survives any file: whatever one file does to its reader (an lxml entity error, a
decompression bomb, a corrupt PDF, a file over a limit, a page that takes too long), that file
moves to failed/ with one line saying why, and the others are ingested in the same round.
Symbolic links are refused unread. `ingest` applies the same limits."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from ragspine.retrieval.chunking.chunk_store import ChunkStore
from tests.cli import invoke
from tests.ingestion.hostile import bomb_xlsx, entity_docx
from tests.ingestion.test_ingest_command import _book
from tests.pg_stores import Place

ROOT = Path(__file__).parents[2]
RAGSPINE = str(Path(sys.executable).parent / "ragspine")


def _worker(place: Place, inbox: Path, *flags: str, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return invoke(
        "worker", "--inbox", str(inbox), "--once", "--settle", "0", "--db",
        str(place("facts.db")), "--corpus", str(place("chunks.db")), *flags, env=env,
    )  # fmt: skip


def _failed_why(inbox: Path) -> dict[str, str]:
    folder = inbox / "failed"
    return {
        p.name.removesuffix(".error.txt"): p.read_text("utf-8") for p in folder.glob("*.error.txt")
    }


def _texts(place: Place) -> str:
    with ChunkStore(place("chunks.db")) as store:
        return "\n".join(c.text for c in store.iter_chunks())


def test_hostile_files_fail_alone_and_the_others_are_ingested(tmp_path: Path, place: Place) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    entity_docx(inbox / "laughs.docx")
    bomb_xlsx(inbox / "bomb.xlsx")
    (inbox / "torn.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\n")
    (inbox / "zip.pptx").write_bytes(b"PK\x03\x04 not really a zip")
    (inbox / "latin1.md").write_bytes("# Über\n\ncafé prices\n".encode("latin-1"))
    _book(inbox / "ACME_HK_2024.xlsx", 455)
    (inbox / "notes.md").write_text("# 说明\n\n香港门店的营业时间调整。\n", "utf-8")
    assert (inbox / "bomb.xlsx").stat().st_size < 200_000  # small on disk
    began = time.monotonic()
    out = _worker(place, inbox)
    assert time.monotonic() - began < 20  # the bomb was never inflated
    assert out.returncode == 0, out.stderr
    assert "2 ingested, 5 failed" in out.stdout
    assert "Traceback" not in out.stderr
    why = _failed_why(inbox)
    assert sorted(why) == ["bomb.xlsx", "latin1.md", "laughs.docx", "torn.pdf", "zip.pptx"]
    for name, line in why.items():
        assert len(line.splitlines()) == 1 and name in line, line
    assert "XMLSyntaxError" in why["laughs.docx"] or "entity" in why["laughs.docx"].lower()
    assert "inflates" in why["bomb.xlsx"] and "--max-ratio" in why["bomb.xlsx"]
    assert sorted(os.listdir(inbox)) == ["done", "failed"]  # nothing left to poison a round
    again = _worker(place, inbox)
    assert again.returncode == 0 and "0 ingested, 0 failed" in again.stdout


@pytest.mark.parametrize(
    ("flags", "env", "said"),
    [
        # the whole archive's declared size, over a limit lowered by flag
        (["--max-unzipped-mb", "8", "--max-ratio", "1e6"], {}, "inflate to 24 MB"),
        # the same limit from the environment
        ([], {"RAGSPINE_MAX_UNZIPPED_MB": "8", "RAGSPINE_MAX_RATIO": "1e6"}, "--max-unzipped-mb"),
        # the size on disk
        (["--max-file-mb", "0.01"], {}, "on disk, over the limit"),
    ],
)
def test_a_limit_refuses_a_file_before_it_is_parsed(
    tmp_path: Path, flags: list[str], env: dict[str, str], said: str, place: Place
) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    bomb_xlsx(inbox / "bomb.xlsx")
    out = _worker(place, inbox, *flags, env=env)
    assert out.returncode == 0 and "0 ingested, 1 failed" in out.stdout
    assert said in _failed_why(inbox)["bomb.xlsx"]


@pytest.fixture(scope="module")
def report_pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 20 pages of the real 金宇 annual report: a file that takes seconds to read."""
    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(next((ROOT / "examples" / "jinyu" / "report").glob("*.pdf")))
    writer = PdfWriter()
    for page in reader.pages[:20]:
        writer.add_page(page)
    path = tmp_path_factory.mktemp("report") / "jinyu-20-pages.pdf"
    with path.open("wb") as fh:
        writer.write(fh)
    return path


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        # the wall time: the child reading it is killed at the deadline
        (["--max-seconds", "0.3"], "not read in 0.3 s (--max-seconds)"),
        # the page count, before the first page is read
        (["--max-pages", "5"], "20 pages, over the limit of 5"),
    ],
)
def test_a_report_over_its_time_or_pages_fails_and_the_next_file_is_read(
    tmp_path: Path, report_pages: Path, flags: list[str], said: str, place: Place
) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / report_pages.name).write_bytes(report_pages.read_bytes())
    (inbox / "notes.md").write_text("# 说明\n\n香港门店的营业时间调整。\n", "utf-8")
    began = time.monotonic()
    out = _worker(place, inbox, "--profile", str(ROOT / "examples/jinyu/profile.yaml"), *flags)
    assert time.monotonic() - began < 15
    assert out.returncode == 0 and "1 ingested, 1 failed" in out.stdout, out.stderr
    assert said in _failed_why(inbox)[report_pages.name]


def test_a_symbolic_link_in_the_inbox_is_refused_unread(tmp_path: Path, place: Place) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    secret = tmp_path / "secrets.md"
    secret.write_text("# keys\n\nthe root password is hunter2\n", "utf-8")
    (inbox / "notes.md").symlink_to(secret)  # out of the inbox
    (inbox / "dangling.md").symlink_to(tmp_path / "nowhere.md")
    (inbox / "real.md").write_text("# 说明\n\n香港门店的营业时间调整。\n", "utf-8")
    out = _worker(place, inbox)
    assert out.returncode == 0 and "1 ingested, 2 failed" in out.stdout, out.stderr
    assert "hunter2" not in _texts(place) and "香港门店" in _texts(place)
    assert (inbox / "failed" / "notes.md").is_symlink()  # the link moved, the secret untouched
    assert secret.read_text("utf-8").endswith("hunter2\n")
    assert "symbolic link" in _failed_why(inbox)["notes.md"]


def test_a_hard_link_in_the_inbox_is_refused_unread(tmp_path: Path, place: Place) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    secret = tmp_path / "secrets.md"
    secret.write_text("# keys\n\nthe root password is hunter2\n", "utf-8")
    os.link(secret, inbox / "notes.md")  # the same file under a second name, in the inbox
    (inbox / "real.md").write_text("# 说明\n\n香港门店的营业时间调整。\n", "utf-8")
    out = _worker(place, inbox)
    assert out.returncode == 0 and "1 ingested, 1 failed" in out.stdout, out.stderr
    assert "hunter2" not in _texts(place) and "香港门店" in _texts(place)
    assert "hard link" in _failed_why(inbox)["notes.md"]
    assert secret.read_text("utf-8").endswith("hunter2\n")


@pytest.mark.parametrize(
    ("build", "said"),
    [
        (bomb_xlsx, "inflates"),  # a decompression bomb, refused on its zip directory
        (entity_docx, "XMLSyntaxError"),  # lxml's own exception, not one of ours
    ],
)
def test_ingest_refuses_a_hostile_file_with_one_error_line(
    tmp_path: Path, build: Callable[[Path], Path], said: str, place: Place
) -> None:
    hostile = build(tmp_path / f"hostile{'.xlsx' if build is bomb_xlsx else '.docx'}")
    note = tmp_path / "note.md"
    note.write_text("# 说明\n\n香港门店的营业时间调整。\n", "utf-8")
    out = invoke(
        "ingest", str(note), str(hostile), "--db", str(place("facts.db")),
        "--corpus", str(place("chunks.db")),
    )  # fmt: skip
    assert out.returncode == 1
    assert out.stderr.startswith("error: ") and len(out.stderr.splitlines()) == 1, out.stderr
    assert said in out.stderr and hostile.name in out.stderr
