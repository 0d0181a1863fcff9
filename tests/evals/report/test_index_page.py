"""`ragspine eval view [DIR]`: an index page of the runs under a folder, as a user gets it.

The runs are real ones (``eval run`` with the mock on the demo stores; one through a provider
whose model name is markup), diffed and compared with the CLI, beside a comparison written to a
folder of its own, a folder whose name is markup and a folder whose run.json is broken. The page
is read as text and opened in a real headless Chromium.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest

from ragspine.evals.run.records import RUN_FILE, read_results, read_summary
from ragspine.llm import MockProvider
from tests.cli import invoke
from tests.evals.report.browser import browse, console

HOSTILE = "</script><img src=x onerror=alert(1)>"
HOSTILE_FOLDER = '"><img src=x onerror=alert(2)>'  # no "/" : a folder may be named this


class MarkupModel(MockProvider):
    """The mock, under a model name that is markup (a provider's name is its author's text)."""

    model = HOSTILE


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory, demo_db: Path, demo_corpus: Path) -> Path:
    root = tmp_path_factory.mktemp("view") / "reports"
    stores = ["--db", str(demo_db), "--corpus", str(demo_corpus)]
    few = ["--filter", "suite:structured or suite:narrative", "--limit", "6"]
    for name, provider in (
        ("old", "mock"),
        ("new", f"python:{__name__}:MarkupModel"),
        (HOSTILE_FOLDER, "mock"),
    ):
        ran = invoke("eval", "run", "--out", str(root / name), "--provider", provider,
                     *few, *stores)  # fmt: skip
        assert ran.returncode == 0, ran.stderr
    for args in (
        ["diff", str(root / "old"), str(root / "new")],
        ["compare", str(root / "old"), str(root / "new")],
        ["compare", str(root / "old"), str(root / "new"), "--out", str(root / "cmp")],
    ):
        ran = invoke("eval", *args)
        assert ran.returncode == 0, ran.stderr
    # when the runs finished, apart and in another order than their names
    for name, when in (("old", "2030-01-01T00:00:00+00:00"), (HOSTILE_FOLDER, "2020-01-01")):
        record = json.loads((root / name / RUN_FILE).read_text("utf-8"))
        (root / name / RUN_FILE).write_text(json.dumps(record | {"finished_at": when}), "utf-8")
    (root / "broken").mkdir()
    (root / "broken" / "run.json").write_text("{not json", "utf-8")
    viewed = invoke("eval", "view", str(root))
    assert viewed.returncode == 0, viewed.stderr
    assert viewed.stdout.startswith(
        f"view: {root / 'index.html'} (4 run(s), 1 other comparison(s)); open file://"
    )
    return root


@pytest.fixture(scope="module")
def page(reports: Path) -> str:
    return (reports / "index.html").read_text("utf-8")


class _Page(HTMLParser):
    """Rows by their data-run / data-compare attribute, and every href."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self.hrefs: list[str] = []
        self._row: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        key = found.get("data-run") or found.get("data-compare")
        if tag == "tr" and key is not None:
            self._row = self.rows.setdefault(key, [])
        if tag == "a" and found.get("href"):
            self.hrefs.append(str(found["href"]))
            if self._row is not None:
                self._row.append(f"href:{found['href']}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr":
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._row is not None and data.strip():
            self._row.append(data.strip())


def _parsed(html: str) -> _Page:
    parser = _Page()
    parser.feed(html)
    return parser


def test_a_row_per_run_with_its_headline_and_a_link_to_each_file_it_has(
    reports: Path, page: str
) -> None:
    rows = _parsed(page).rows
    assert set(rows) == {"old", "new", HOSTILE_FOLDER, "broken", "cmp"}
    new = rows["new"]
    pass_rate = read_summary(reports / "new").metrics["pass_rate"]["value"]
    assert f"{pass_rate:.3f}" in new
    suites = ", ".join(sorted({r.tags[0] for r in read_results(reports / "new")}))
    assert "golden" in new and suites in new  # the golden set, and its suites
    assert HOSTILE in new  # the model's name, as text
    links = [cell.removeprefix("href:") for cell in new if cell.startswith("href:")]
    assert links == ["new/report.html", "new/compare.html", "new/diff.md", "new/compare.md"]
    old_links = [c for c in rows["old"] if c.startswith("href:")]
    assert old_links == ["href:old/report.html"]  # no diff or comparison was written there
    assert any("unreadable" in cell for cell in rows["broken"])
    assert "cmp/compare.html" in " ".join(rows["cmp"])


def test_every_link_is_a_file_beside_the_page(reports: Path, page: str) -> None:
    hrefs = _parsed(page).hrefs
    assert hrefs and all((reports / unquote(h)).is_file() for h in hrefs), hrefs


def test_untrusted_names_stay_text_and_the_page_loads_nothing(page: str) -> None:
    assert HOSTILE not in page and "<img" not in page
    assert "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in page
    assert "default-src 'none'" in page and "<script" not in page
    assert "http://" not in page and "https://" not in page


def test_newest_run_first(reports: Path, page: str) -> None:
    order = [k for k in _parsed(page).rows if k in ("old", "new", HOSTILE_FOLDER)]
    assert order == ["old", "new", HOSTILE_FOLDER]  # by when each finished (set in the fixture)
    assert "2030-01-01 00:00" in _parsed(page).rows["old"]  # the minute; the rest on hover


def test_view_writes_reports_index_by_default_and_names_a_missing_folder(
    reports: Path, tmp_path: Path
) -> None:
    again = invoke("eval", "view", cwd=reports.parent)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("view: reports/index.html (4 run(s)")
    missing = invoke("eval", "view", str(tmp_path / "nope"))
    assert missing.returncode == 1
    assert missing.stderr == f"error: {tmp_path / 'nope'}: no such folder\n"


def test_chromium_renders_the_index(reports: Path, tmp_path: Path) -> None:
    ran = browse((reports / "index.html").as_uri(), tmp_path / "profile", "--dump-dom")
    assert console(ran.stderr) == []
    dom = ran.stdout
    assert len(re.findall(r'<tr data-run="', dom)) == 4
    assert "<img" not in dom  # the markup in a model's and a folder's name is still text
    assert 'href="new/report.html"' in dom
