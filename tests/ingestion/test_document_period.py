"""A document's period: read from its own cover, overridable with `ingest --period`, listed by
`ragspine documents`, and held to by the narrative answer (a question about a period no document
covers says which periods they do cover and quotes nothing of another year)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from tests.cli import Ran, invoke
from tests.pg_stores import Place

ROOT = Path(__file__).parents[2]
REALWORLD = ROOT.parent / "shared" / "realworld"
SIFANG = REALWORLD / "603339_四方科技_2019_年度报告.pdf"


def _report(folder: Path, name: str, title: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"# {title}\n\n## 公司信息\n\n{body}\n", "utf-8")
    return path


def _ingest(place: Place, *args: str) -> Ran:
    return invoke("ingest", *args, "--db", str(place("facts.db")), "--corpus", str(place("c.db")))


def _ask(place: Place, demo_db: Path, question: str) -> Ran:
    out = invoke("ask", question, "--db", str(demo_db), "--corpus", str(place("c.db")))
    assert out.returncode == 0, out.stderr
    return out


def test_the_cover_gives_the_period_and_the_flag_overrides_it(tmp_path: Path, place: Place) -> None:
    report = _report(
        tmp_path, "r.md", "示例集团 2020 年年度报告", "公司的电子信箱为 ir@example.com。"
    )
    assert _ingest(place, str(report)).stdout.startswith("    added  r.md · FY2020 (1 chunks)")
    listed = invoke("documents", "--corpus", str(place("c.db")))
    assert listed.stdout.splitlines()[0].startswith(
        "FY2020   INTERNAL        1 chunks  r.md  (ingested "
    )
    # the same bytes given another period: a change, not skipped as unchanged
    again = _ingest(place, str(report), "--period", "2021")
    assert again.stdout.startswith(" replaced  r.md · FY2021 (1 chunks)")
    listed = invoke("documents", "--corpus", str(place("c.db")), "--json")
    assert '"period": "FY2021"' in listed.stdout and '"doc_id": "r.md"' in listed.stdout
    assert _ingest(place, str(report), "--period", "2021").stdout.startswith(
        "unchanged  r.md · FY2021"
    )


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ("period: FY2019\n", "FY2019"),  # the front matter's period stands over the cover's
        ("", "FY2020"),  # none in the front matter: the cover's
    ],
)
def test_front_matter_names_the_period_before_the_cover(
    tmp_path: Path, front: str, expected: str, place: Place
) -> None:
    path = tmp_path / "r.md"
    path.write_text(f"---\ntitle: 年报\n{front}---\n# 2020年度报告\n\n正文。\n", "utf-8")
    assert _ingest(place, str(path)).stdout.startswith(f"    added  r.md · {expected} (")


def test_a_period_flag_that_is_no_period_is_one_error_line(tmp_path: Path, place: Place) -> None:
    report = _report(tmp_path, "r.md", "2020年年度报告", "正文。")
    out = _ingest(place, str(report), "--period", "next year")
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr == "error: --period 'next year': not a period (FY2020, 2020H1 or 2020Q3)\n"


@pytest.mark.skipif(not SIFANG.is_file(), reason="needs ../shared/realworld")
def test_a_real_reports_cover_names_its_year_though_every_page_repeats_it(
    tmp_path: Path, place: Place
) -> None:
    """四方科技's title page prints 2019 年年度报告 as its running head does: read as the cover."""
    cover = tmp_path / "sifang-cover.pdf"
    writer = PdfWriter()
    for page in PdfReader(SIFANG).pages[:3]:
        writer.add_page(page)
    with cover.open("wb") as fh:
        writer.write(fh)
    out = _ingest(
        place, str(cover), "--profile", str(ROOT / "examples" / "sifang" / "profile.yaml")
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("    added  sifang-cover.pdf · FY2019 (")


def test_a_question_about_a_period_no_document_covers_says_so(
    tmp_path: Path, demo_db: Path, place: Place
) -> None:
    report = _report(
        tmp_path, "r2020.md", "示例集团 2020 年年度报告", "公司的电子信箱为 ir@example.com。"
    )
    english = tmp_path / "en2020.md"
    english.write_text(
        "# Example Group Annual Report 2020\n\n## Company\n\nThe company email address is "
        "ir@example.com.\n",
        "utf-8",
    )
    assert _ingest(place, str(report), str(english)).returncode == 0
    zh = _ask(place, demo_db, "2021年公司的电子信箱是什么?")
    assert zh.stdout == (
        "检索到的文档涵盖 FY2020,没有涵盖 FY2021 的文档;为避免误导,不引用其他期间的内容,"
        "可改问 FY2020 的情况。\n"
    )
    en = _ask(place, demo_db, "What was the company's email address in 2021?")
    assert en.stdout == (
        "The documents retrieved cover FY2020, and none covers FY2021; nothing from another "
        "period is quoted, to avoid misleading (you may ask about FY2020).\n"
    )
    covered = _ask(place, demo_db, "2020年公司的电子信箱是什么?")
    assert "ir@example.com" in covered.stdout and "检索到的文档涵盖" not in covered.stdout
    anytime = _ask(place, demo_db, "公司的电子信箱是什么?")  # no period asked: as before
    assert "ir@example.com" in anytime.stdout and "检索到的文档涵盖" not in anytime.stdout


def test_a_document_with_no_period_still_answers_a_year_no_report_covers(
    tmp_path: Path, demo_db: Path, place: Place
) -> None:
    """A contact sheet names no period: it may speak of 2021, the 2020 report may not."""
    report = _report(
        tmp_path, "r2020.md", "示例集团 2020 年年度报告", "公司的电子信箱为 old@example.com。"
    )
    sheet = tmp_path / "contacts.md"
    sheet.write_text("# 联系方式\n\n公司的电子信箱为 ir@example.com。\n", "utf-8")
    assert _ingest(place, str(report), str(sheet)).returncode == 0
    out = _ask(place, demo_db, "2021年公司的电子信箱是什么?")
    assert out.stdout.startswith(
        "检索到的文档涵盖 FY2020,没有涵盖 FY2021 的文档;其他期间的内容不予引用,以下内容出自"
        "未注明期间的文档:\n"
    )
    assert "ir@example.com" in out.stdout and "old@example.com" not in out.stdout


def test_passages_of_another_years_report_are_set_aside_when_the_asked_years_has_some(
    tmp_path: Path, demo_db: Path, place: Place
) -> None:
    older = _report(
        tmp_path, "r2019.md", "示例集团 2019 年年度报告", "公司的电子信箱为 old@example.com。"
    )
    newer = _report(
        tmp_path, "r2020.md", "示例集团 2020 年年度报告", "公司的电子信箱为 new@example.com。"
    )
    assert _ingest(place, str(older), str(newer)).returncode == 0
    out = _ask(place, demo_db, "2020年公司的电子信箱是什么?")
    assert "new@example.com" in out.stdout and "old@example.com" not in out.stdout
    assert "r2019.md" not in out.stdout
    both = _ask(place, demo_db, "2019年和2020年公司的电子信箱分别是什么?")
    assert "old@example.com" in both.stdout and "new@example.com" in both.stdout
