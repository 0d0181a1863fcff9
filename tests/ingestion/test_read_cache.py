"""The cache of read documents, through the commands a user runs: a file read once is not read
again by the next command (its pages are not read: no `page N/M` on stderr), whatever changes
the file, the reader or the user's wish (`--no-cache`) reads it again, a bad entry is one
warning and a new reading, and no limit is passed by a file because it is cached."""

from __future__ import annotations

import gzip
import os
import stat
from pathlib import Path

import pytest

from ragspine.ingestion.cache import MB, DocumentCache, default_folder
from ragspine.readers import FileContent, Table, TextBlock
from tests.cli import Ran, invoke
from tests.ingestion.test_profile_cli import _report
from tests.pg_stores import Place

PROFILE = Path(__file__).parents[2] / "examples" / "sifang" / "profile.yaml"


def tiny_pdf(path: Path, pages: list[str]) -> Path:
    """A PDF with a text layer, one page per string (Helvetica, one line per text line)."""
    objs = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    kids = []
    for text in pages:
        shown = " ".join(f"({line}) Tj 0 -16 Td" for line in text.splitlines())
        stream = f"BT /F1 12 Tf 72 720 Td {shown} ET"
        objs.append(f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream")
        objs.append(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {len(objs)} 0 R >>"
        )
        kids.append(f"{len(objs)} 0 R")
    objs[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return path


PAGES = ["Revenue grew 12% in 2024.\nThe board met twice.", "Page two.", "Page three."]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own cache folder (not the session's), not made yet."""
    where = tmp_path / "home" / "cache"
    monkeypatch.setenv("RAGSPINE_CACHE", str(where))
    monkeypatch.delenv("RAGSPINE_CACHE_MB", raising=False)
    return where


def _check(path: Path, *flags: str) -> Ran:
    ran = invoke("profile", "check", str(PROFILE), str(path), *flags)
    assert ran.returncode == 0, ran.stderr
    return ran


def _read_pages(ran: Ran) -> bool:
    return "page 3/3" in ran.stderr


def _entries(folder: Path) -> list[Path]:
    return sorted((folder / "reads").glob("*.json.gz"))


def test_a_second_check_of_the_same_file_reads_no_page(folder: Path, tmp_path: Path) -> None:
    report = tiny_pdf(tmp_path / "report.pdf", PAGES)
    first, second = _check(report), _check(report)
    assert _read_pages(first) and "from the cache" not in first.stderr
    assert not _read_pages(second) and "page 1/3" not in second.stderr
    assert "  reading report.pdf: from the cache, not read again" in second.stderr
    assert second.stdout == first.stdout
    assert len(_entries(folder)) == 1


def test_the_same_bytes_under_another_name_are_not_read_again(folder: Path, tmp_path: Path) -> None:
    _check(tiny_pdf(tmp_path / "report.pdf", PAGES))
    copy = tiny_pdf(tmp_path / "copy.pdf", PAGES)
    assert "reading copy.pdf: from the cache" in _check(copy).stderr


def test_no_cache_reads_again_and_keeps_nothing(folder: Path, tmp_path: Path) -> None:
    report = tiny_pdf(tmp_path / "report.pdf", PAGES)
    assert _read_pages(_check(report, "--no-cache"))
    assert _read_pages(_check(report, "--no-cache")) and _entries(folder) == []
    _check(report)
    assert _read_pages(_check(report, "--no-cache"))  # held, and read again all the same


def test_a_changed_file_is_read_again(folder: Path, tmp_path: Path) -> None:
    report = tiny_pdf(tmp_path / "report.pdf", PAGES)
    _check(report)
    tiny_pdf(report, [*PAGES[:2], "Page three, restated."])
    again = _check(report)
    assert _read_pages(again) and "from the cache" not in again.stderr
    assert len(_entries(folder)) == 2  # each version of the bytes its own entry


@pytest.mark.parametrize(
    "spoil",
    [
        lambda entry, other: entry.write_bytes(b"not gzip at all"),  # garbage
        lambda entry, other: entry.write_bytes(entry.read_bytes()[:40]),  # cut short
        lambda entry, other: entry.write_bytes(gzip.compress(b'{"format": 99}')),  # another layout
        lambda entry, other: entry.write_bytes(other.read_bytes()),  # another file's entry
        lambda entry, other: entry.write_bytes(b""),  # empty (a crash before the write)
    ],
)
def test_a_bad_entry_is_one_warning_and_a_new_reading(
    folder: Path, tmp_path: Path, spoil: object
) -> None:
    report = tiny_pdf(tmp_path / "report.pdf", PAGES)
    other = tiny_pdf(tmp_path / "other.pdf", ["Another file."])
    first = _check(report)
    (entry,) = _entries(folder)
    _check(other)
    (other_entry,) = [p for p in _entries(folder) if p != entry]
    spoil(entry, other_entry)  # type: ignore[operator]
    again = _check(report)
    warnings = [line for line in again.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and str(entry) in warnings[0]
    assert warnings[0].endswith("; report.pdf is read again")
    assert _read_pages(again) and again.stdout == first.stdout
    assert "from the cache" in _check(report).stderr  # written again, whole


def test_the_folder_is_made_private(folder: Path, tmp_path: Path) -> None:
    _check(tiny_pdf(tmp_path / "report.pdf", PAGES))
    for made in (folder, folder / "reads"):
        assert stat.S_IMODE(made.stat().st_mode) == 0o700
    (entry,) = _entries(folder)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert [p.name for p in (folder / "reads").iterdir()] == [entry.name]  # no temporary left


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
def test_a_folder_others_can_write_to_is_not_used(folder: Path, tmp_path: Path) -> None:
    folder.mkdir(parents=True)
    folder.chmod(0o777)  # anyone could plant an entry here
    report = tiny_pdf(tmp_path / "report.pdf", PAGES)
    ran = _check(report)
    assert "warning: " in ran.stderr and "writable by others (mode 777)" in ran.stderr
    assert _read_pages(ran) and not (folder / "reads").exists()
    assert _read_pages(_check(report))


@pytest.mark.parametrize(
    ("flags", "refused"),
    [
        # a PDF's page count, which only opening it shows
        (["--max-pages", "2"], "refused: 3 pages, over the limit of 2 (--max-pages)"),
        # its size on disk, seen before its bytes are hashed
        (["--max-file-mb", "0.0001"], "on disk, over the limit of 0 KB (--max-file-mb)"),
        # the seconds its reading took, kept in the entry
        (["--max-seconds", "0.0001"], "refused: not read in 0.0001 s (--max-seconds)"),
    ],
)
def test_a_limit_refuses_a_cached_file_as_it_refuses_one_read(
    folder: Path, tmp_path: Path, flags: list[str], refused: str, place: Place
) -> None:
    report = tiny_pdf(tmp_path / "report.pdf", PAGES)

    def ingest(*extra: str) -> Ran:
        return invoke(
            "ingest", str(report), "--db", str(place("facts.db")), "--corpus",
            str(place("chunks.db")), *flags, *extra,
        )  # fmt: skip

    uncached = ingest("--no-cache")
    _check(report)  # now cached
    assert _entries(folder)
    cached = ingest()
    for ran in (uncached, cached):
        assert ran.returncode == 1 and ran.stdout == ""
        assert ran.stderr.startswith(f"error: {report}: refused: ") and refused in ran.stderr
        assert ran.stderr.count("\n") == 1
    assert cached.stderr == uncached.stderr


def test_draft_check_and_ingest_read_the_report_once(
    folder: Path, tmp_path: Path, place: Place
) -> None:
    report = _report(tmp_path / "report.docx")
    drafted = invoke("profile", "draft", str(report))
    assert drafted.returncode == 0 and "from the cache" not in drafted.stderr
    profile = tmp_path / "profile.yaml"
    profile.write_text(drafted.stdout, "utf-8")
    checked = invoke("profile", "check", str(profile), str(report))
    ingested = invoke(
        "ingest", str(report), "--db", str(place("facts.db")), "--corpus",
        str(place("chunks.db")), "--profile", str(profile),
    )  # fmt: skip
    for ran in (checked, ingested):
        assert ran.returncode == 0, ran.stderr
        assert "  reading report.docx: from the cache, not read again" in ran.stderr


def test_cache_info_and_clear(folder: Path, tmp_path: Path) -> None:
    report = tiny_pdf(tmp_path / "report.pdf", PAGES)
    _check(report)
    info = invoke("cache", "info")
    assert info.returncode == 0 and info.stdout.startswith(f"{folder}: 1 documents, ")
    assert "kept under 500 MB (RAGSPINE_CACHE_MB, 500 unless set)" in info.stdout
    cleared = invoke("cache", "clear")
    assert cleared.returncode == 0 and cleared.stdout.startswith("removed 1 documents (")
    assert _entries(folder) == [] and _read_pages(_check(report))


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("0", False),  # 0 MB turns the cache off
        ("0.5", True),  # a fraction of a MB is a size
    ],
)
def test_the_size_limit_comes_from_the_environment(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, kept: bool
) -> None:
    monkeypatch.setenv("RAGSPINE_CACHE_MB", value)
    report = tiny_pdf(tmp_path / "report.pdf", PAGES)
    _check(report)
    assert _read_pages(_check(report)) is not kept


@pytest.mark.parametrize(
    "value",
    [
        "lots",  # not a number
        "-5",  # below zero
        "inf",  # a float, but no size
        "nan",  # a float, but no size
    ],
)
def test_a_size_that_is_no_size_is_one_error_line(folder: Path, tmp_path: Path, value: str) -> None:
    ran = invoke(
        "profile", "check", str(PROFILE), str(tiny_pdf(tmp_path / "r.pdf", PAGES)),
        env={"RAGSPINE_CACHE_MB": value},
    )  # fmt: skip
    assert ran.returncode == 1 and ran.stdout == ""
    why = "not a size in MB (0 turns the cache off)"
    assert ran.stderr == f"error: RAGSPINE_CACHE_MB={value!r}: {why}\n"


class _Reader:
    """A fake reader through the cache's seam: a version, and what it read."""

    suffixes = (".bin",)
    version = 1
    libraries = ()

    def read(self, path: Path) -> FileContent:
        text = path.read_text("utf-8")
        return FileContent(path, [TextBlock("para=1", text)], [Table("t=1", [[text]])], 1)


def _kept(cache: DocumentCache, path: Path, reader: _Reader) -> Path:
    held = cache.lookup(path, reader)
    assert held is not None and held.found is None
    cache.store(held, path, reader, reader.read(path), 0.1)
    (entry,) = [p for p in cache.entries() if p.name.startswith(held.key)]
    return entry


def test_the_entries_used_longest_ago_go_first(tmp_path: Path) -> None:
    reader = _Reader()
    files = [tmp_path / f"f{n}.bin" for n in range(4)]
    for n, f in enumerate(files):
        f.write_text(f"file {n} " + "x" * 200, "utf-8")
    cache = DocumentCache(tmp_path / "cache", max_bytes=10 * MB)
    for n, f in enumerate(files[:3]):
        os.utime(_kept(cache, f, reader), (1000 + n, 1000 + n))  # stored in this order
    used = cache.lookup(files[0], reader)  # f0 used again: f1 is now the one used longest ago
    assert used is not None and used.found is not None
    sizes = sorted(p.stat().st_size for p in cache.entries())
    cache.max_bytes = sum(sizes) + sizes[0] // 2  # room for three entries, not four
    _kept(cache, files[3], reader)
    held = {f.name for f in files if (h := cache.lookup(f, reader)) and h.found is not None}
    assert held == {"f0.bin", "f2.bin", "f3.bin"} and cache.size() <= cache.max_bytes


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"RAGSPINE_CACHE": "/srv/cache", "XDG_CACHE_HOME": "/x"}, "/srv/cache"),  # named: wins
        ({"XDG_CACHE_HOME": "/x"}, "/x/ragspine"),  # the XDG base directory
        ({"XDG_CACHE_HOME": "relative"}, "~/.cache/ragspine"),  # XDG: a relative value ignored
        ({}, "~/.cache/ragspine"),  # the default
    ],
)
def test_where_the_cache_is(env: dict[str, str], expected: str) -> None:
    if os.name != "posix" or os.uname().sysname == "Darwin":
        pytest.skip("the Linux default")
    assert default_folder(env) == Path(expected).expanduser()


@pytest.mark.parametrize(
    "change",
    [
        lambda path: path.write_text("after", "utf-8"),  # the bytes read are no longer the file's
        lambda path: path.unlink(),  # the file is gone
    ],
)
def test_a_file_changed_while_it_was_read_is_not_kept(tmp_path: Path, change: object) -> None:
    reader, path = _Reader(), tmp_path / "f.bin"
    path.write_text("before", "utf-8")
    cache = DocumentCache(tmp_path / "cache")
    held = cache.lookup(path, reader)
    assert held is not None
    content = reader.read(path)
    change(path)  # type: ignore[operator]
    cache.store(held, path, reader, content, 0.1)
    assert cache.entries() == []


def test_what_a_file_says_of_itself_that_is_not_json_is_not_kept(tmp_path: Path) -> None:
    reader, path = _Reader(), tmp_path / "f.bin"
    path.write_text("text", "utf-8")
    cache = DocumentCache(tmp_path / "cache")
    content = reader.read(path)
    content.meta["opened"] = object()
    cache.store(cache.lookup(path, reader), path, reader, content, 0.1)  # type: ignore[arg-type]
    assert cache.entries() == []


def test_a_folder_that_cannot_be_made_is_one_warning(tmp_path: Path) -> None:
    taken = tmp_path / "a-file"
    taken.write_text("not a folder", "utf-8")
    report = tiny_pdf(tmp_path / "report.pdf", PAGES)
    for _ in range(2):
        ran = invoke(
            "profile", "check", str(PROFILE), str(report), env={"RAGSPINE_CACHE": str(taken)}
        )
        assert ran.returncode == 0 and _read_pages(ran)
        warnings = [line for line in ran.stderr.splitlines() if line.startswith("warning:")]
        assert len(warnings) == 1 and warnings[0].startswith(f"warning: {taken}: the cache")


def test_a_file_comes_back_as_it_was_read(tmp_path: Path) -> None:
    path = tmp_path / "f.bin"
    path.write_text("x", "utf-8")
    content = FileContent(
        path,
        blocks=[TextBlock("page=1,para=1", "营业收入 1,175,301,034.32\n第二行", "第四节 › 一、")],
        tables=[
            Table(
                "page=63,table=2",
                [["项目", "", "2019年度"], ["营业收入", "七、1", "1.00"]],
                "合并利润表 单位：元",
            )
        ],
        units=156,
        meta={"title": "年度报告"},
        cover=["四方科技集团股份有限公司 2019 年年度报告"],  # the report's period is read from it
    )

    class Read(_Reader):
        def read(self, path: Path) -> FileContent:
            return content

    reader, cache = Read(), DocumentCache(tmp_path / "cache")
    cache.store(cache.lookup(path, reader), path, reader, content, 12.5)  # type: ignore[arg-type]
    held = cache.lookup(path, reader)
    assert held is not None and held.found is not None
    assert held.found.content(path) == content and held.found.seconds == 12.5
