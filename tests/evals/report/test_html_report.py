"""report.html and compare.html: hostile text stays text, the page needs no network, and a real
headless Chromium renders it: the charts are there, the script runs without a console error,
and the case filter reads the URL's hash (``#failed``), since --dump-dom cannot click.

The run is a real one (``eval run`` on 20 structured cases against the demo stores) with three
results added by hand: a failure whose question, answer, tag and check carry markup, an error,
and a narrative case whose prose the audit flagged.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ragspine.evals.compare.paired import Comparison, compare_runs
from ragspine.evals.report.charts import Bar, hbars, histogram, json_block
from ragspine.evals.report.html import HTML_FILE, render_run_html, write_run_html
from ragspine.evals.report.html_compare import (
    COMPARE_HTML,
    render_compare_html,
    write_compare_html,
)
from ragspine.evals.run.records import (
    RESULTS_FILE,
    RUN_FILE,
    CaseResult,
    Check,
    RunRecord,
    Summary,
    read_results,
    read_run,
    result_line,
    write_json,
)
from ragspine.evals.score.summary import summarize
from tests.cli import invoke
from tests.evals.report.browser import browse, console, overflowing

HOSTILE = "</script><img src=x onerror=alert(1)>"
ROOT = Path(__file__).parents[3]
ARTIFACTS = ROOT / "reports" / "test-artifacts"
PNG = b"\x89PNG\r\n\x1a\n"


def _added(template: CaseResult) -> list[CaseResult]:
    """A hostile failure, a provider error and a flagged narrative case, beside the real run."""
    hostile = template.model_copy(
        update={
            "case_id": "zz-hostile",
            "passed": False,
            "question": f"what is {HOSTILE}?",
            "answer": f"Revenue was 999 {HOSTILE} " + "padding " * 40,
            "tags": ["hostile", HOSTILE],
            "route": "narrative",
            "checks": [
                Check(
                    name="answer_contains",
                    passed=False,
                    expected=["455"],
                    actual=["455"],
                    why=HOSTILE,
                )
            ],
            "unsupported_numbers": ["999"],
            "raw_unsupported": ["999", "12"],
            "guard_removed": 1,
            "sources": [{"doc": HOSTILE, "locator": "p=1"}],
        }
    )
    errored = template.model_copy(
        update={
            "case_id": "zz-outage",
            "passed": False,
            "checks": [],
            "answer": None,
            "error": "ProviderError[server]: 500 <b>overloaded</b>",
            "error_kind": "server",
            "error_status": 500,
            "latency_ms": 1200.0,
        }
    )
    flagged = template.model_copy(
        update={"case_id": "zz-prose", "route": "narrative", "raw_unsupported": ["7.5%"]}
    )
    return [hostile, errored, flagged]


@pytest.fixture(scope="module")
def run(
    tmp_path_factory: pytest.TempPathFactory, demo_db: Path, demo_corpus: Path
) -> tuple[Path, RunRecord, Summary, list[CaseResult]]:
    """A real 20-case run, the three added results, its summary, and report.html written."""
    folder = tmp_path_factory.mktemp("html") / "run"
    ran = invoke(
        "eval", "run", "--out", str(folder), "--db", str(demo_db), "--corpus", str(demo_corpus),
        "--filter", "suite:structured", "--limit", "20",
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    results = read_results(folder)
    results += _added(results[0])
    record = read_run(folder).model_copy(update={"cases_planned": len(results)})
    summary = summarize(record.run_id, record.provider, results)
    summary.cost = {"usd": 0.0123, "price": "mock", "as_of": "2026-11-01"}
    write_run_html(folder, record, summary, results)
    return folder, record, summary, results


@pytest.fixture(scope="module")
def page(run: tuple[Path, RunRecord, Summary, list[CaseResult]]) -> str:
    return (run[0] / HTML_FILE).read_text("utf-8")


def _chart(html: str, name: str) -> str:
    """The markup of the element carrying ``data-chart=name``, up to its closing tag."""
    m = re.search(rf'<(\w+)[^>]*data-chart="{name}"', html)
    assert m is not None, f"no data-chart={name}"
    end = html.index(f"</{m.group(1)}>", m.end())
    return html[m.start() : end]


def _attributes(html: str) -> set[str]:
    """Every attribute name on every element, as a browser's parser sees the markup."""
    names: set[str] = set()

    class Parser(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            names.update(name for name, _ in attrs)

    Parser().feed(html)
    return names


# -- the HTML itself --------------------------------------------------------------------------


def test_hostile_text_is_escaped_everywhere(page: str) -> None:
    assert "<img" not in page  # the report has no image: any <img came from a record
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<b>overloaded" not in page and "&lt;b&gt;overloaded" in page
    assert page.count("</script>") == 2  # the JSON block's and the filter script's own
    data = re.search(r'<script type="application/json" id="case-data">(.*?)</script>', page)
    assert data is not None and "\\u003c/script\\u003e" in data.group(1)
    assert HOSTILE in json.loads(data.group(1))[-3]["tags"]  # the data still says it exactly


def test_the_page_loads_nothing(page: str) -> None:
    without_svg_ns = page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "http://" not in without_svg_ns and "https://" not in without_svg_ns
    attributes = _attributes(page)
    assert not {"src", "href", "srcset", "action"} & attributes
    assert not [name for name in attributes if name.startswith("on")]  # no event handler
    assert "url(" not in page and "@import" not in page
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert csp is not None and "default-src 'none'" in csp.group(1)
    assert "unsafe-inline" not in csp.group(1)  # an injected handler could not run anyway


def test_the_run_report_has_its_charts_and_a_row_per_case(
    run: tuple[Path, RunRecord, Summary, list[CaseResult]], page: str
) -> None:
    _, record, summary, results = run
    for chart in ("headline", "per-tag", "guard-confusion", "unsupported-by-route", "latency",
                  "errors-by-kind"):  # fmt: skip
        assert "<svg" in _chart(page, chart), chart
    assert _chart(page, "per-tag").count("<rect") >= len(summary.per_tag)
    assert 'data-chart="repeats"' not in page  # one repeat per case: no repeats block
    assert len(re.findall(r'<tr data-row="\d+"', page)) == len(results)
    assert f"Eval run {record.run_id}" in page and "$0.0123" in page
    assert "server" in _chart(page, "errors-by-kind")
    unsupported = _chart(page, "unsupported-by-route")
    assert "1 in answers, 3 in raw prose" in unsupported  # 999; 999, 12 and 7.5%
    assert "<title>" in _chart(page, "latency") and "p95" in _chart(page, "latency")
    assert "the answer should contain" in page  # a failed check worded as report.md words it


def test_the_same_run_gives_the_same_bytes(
    run: tuple[Path, RunRecord, Summary, list[CaseResult]],
) -> None:
    _, record, summary, results = run
    first = render_run_html(record, summary, results)
    assert render_run_html(record, summary, list(reversed(results))) == first


def test_write_run_html_replaces_the_file_whole(
    run: tuple[Path, RunRecord, Summary, list[CaseResult]], tmp_path: Path
) -> None:
    _, record, summary, results = run
    (tmp_path / HTML_FILE).write_text("stale", "utf-8")
    path = write_run_html(tmp_path, record, summary, results)
    assert path == tmp_path / HTML_FILE and path.read_text("utf-8").startswith("<!doctype html>")
    assert [p.name for p in tmp_path.iterdir()] == [HTML_FILE]  # no .tmp left behind


def test_repeats_and_an_empty_run_render(
    run: tuple[Path, RunRecord, Summary, list[CaseResult]],
) -> None:
    _, record, summary, _ = run
    repeats = {"k": 3, "cases": 20, "stable_pass": 17, "flaky": 2, "stable_fail": 1,
               "pass_at_k": 0.95, "pass_hat_k": 0.85, "flaky_cases": ["a", HOSTILE]}  # fmt: skip
    html = render_run_html(record, summary.model_copy(update={"repeats": repeats}), [])
    assert "flaky" in _chart(html, "repeats") and "pass^3" in html and "<img" not in html
    empty = render_run_html(record, summarize(None, "mock", []), [])
    assert "no tags" in empty and 'data-total="0"' in empty
    odd = summary.model_copy(update={"guard_confusion": {HOSTILE: 3}})  # an older summary's cells
    cells = render_run_html(record, odd, [])
    assert "&lt;img" in cells and "<img" not in cells


def test_json_block_cannot_close_its_script() -> None:
    data = {"a": "</script><!-- & \u2028"}
    block = json_block("x", data)
    inner = block.removeprefix('<script type="application/json" id="x">').removesuffix("</script>")
    assert "<" not in inner and ">" not in inner and "&" not in inner
    assert json.loads(inner) == data


@pytest.mark.parametrize(
    "values",
    [
        [5.0],  # one value: one bin
        [1.0, 2.0, 3.0, 4.0],  # a narrow spread: linear bins
        [0.0, 0.2, 3.0, 900.0],  # a wide one: log bins, a zero in the first
    ],
)
def test_histogram_bins_any_spread(values: list[float]) -> None:
    svg = histogram("t", "t", values, [("p50", values[0])], "ms")
    counts = [int(n) for n in re.findall(r'text-anchor="middle" fill="#1f2933">(\d+)<', svg)]
    assert sum(counts) == len(values)


def test_bars_scale_to_their_max_when_asked() -> None:
    svg = hbars("t", "t", [Bar("a", 3, "3"), Bar("b", 7, "7")], scale=None)
    assert ">8<" in svg  # the axis ends on a round tick above 7


# -- a comparison -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def comparison(
    run: tuple[Path, RunRecord, Summary, list[CaseResult]], tmp_path_factory: pytest.TempPathFactory
) -> Comparison:
    """Run A as eval run wrote it; B with one case regressed, one errored, a hostile question."""
    folder, record, _, _ = run
    results = read_results(folder)
    b = tmp_path_factory.mktemp("compare") / "b"
    b.mkdir()
    write_json(b / RUN_FILE, record.model_copy(update={"model": "other", "run_id": "b"}))
    changed = [
        results[0].model_copy(update={"passed": False, "question": HOSTILE}),
        results[1].model_copy(update={"passed": False, "error": "timeout <i>x</i>"}),
        *results[2:],
    ]
    (b / RESULTS_FILE).write_text("".join(result_line(r) for r in changed), "utf-8")
    return compare_runs(folder, b)


def test_compare_html_has_a_row_per_metric(comparison: Comparison) -> None:
    html = render_compare_html(comparison)
    rows = re.findall(r'<tr data-metric="([^"]+)"', html)
    assert rows == [m.name for m in comparison.metrics]
    assert _chart(html, "metrics").count("<svg") == 2 * len(comparison.metrics)
    assert "<img" not in html and "&lt;img src=x" in html and "&lt;i&gt;x" in html
    assert (
        "Regressed: pass → fail (1)" in html and "Errored pairs, not counted as flips (1)" in html
    )
    assert 'data-note="mde"' in html  # 20 cases cannot see a small difference
    assert 'data-gate="' in html and 'data-gate="' not in render_compare_html(
        comparison, gate=False
    )
    assert "<script" not in html  # nothing to filter: no script at all


def test_compare_html_says_when_the_golden_sets_differ(comparison: Comparison) -> None:
    other = comparison.b.model_copy(update={"golden_hash": "sha256:other"})
    html = render_compare_html(comparison.model_copy(update={"b": other, "per_tag": []}))
    assert "The golden sets differ" in html and 'data-chart="per-tag-compare"' not in html


def test_write_compare_html(comparison: Comparison, tmp_path: Path) -> None:
    path = write_compare_html(comparison, tmp_path / "out")
    assert path == tmp_path / "out" / COMPARE_HTML
    assert path.read_text("utf-8") == render_compare_html(comparison)


# -- a real browser ---------------------------------------------------------------------------


def _counter(dom: str) -> tuple[int, int]:
    m = re.search(r'<span id="count"[^>]*>showing (\d+) of (\d+)</span>', dom)
    assert m is not None, "the script did not fill in the counter"
    return int(m.group(1)), int(m.group(2))


def test_the_console_check_sees_a_page_error(tmp_path: Path) -> None:
    """Guards the check below: a broken page's error must show up where it is looked for."""
    broken = tmp_path / "broken.html"
    broken.write_text("<!doctype html><script>undefinedFunction();</script>", "utf-8")
    ran = browse(broken.as_uri(), tmp_path / "profile", "--dump-dom")
    assert any("Uncaught" in line for line in console(ran.stderr))


def test_chromium_renders_the_charts_and_runs_the_script(
    run: tuple[Path, RunRecord, Summary, list[CaseResult]], tmp_path: Path
) -> None:
    folder, _, summary, results = run
    ran = browse((folder / HTML_FILE).as_uri(), tmp_path / "profile", "--dump-dom")
    assert console(ran.stderr) == []
    dom = ran.stdout
    assert _chart(dom, "per-tag").count("<rect") >= len(summary.per_tag)
    for chart in ("guard-confusion", "unsupported-by-route", "latency", "errors-by-kind"):
        assert "<rect" in _chart(dom, chart), chart
    assert len(re.findall(r'<tr data-row="\d+"', dom)) == len(results)
    assert _counter(dom) == (len(results), len(results))
    assert "<img" not in dom  # the hostile answer is still text once the browser parsed it


@pytest.mark.parametrize(
    ("hash_", "shown"),
    [
        ("failed", 2),  # the hostile failure and the outage
        ("tag=hostile", 1),  # a tag only the hostile case has
        ("route=narrative&failed", 1),  # both filters at once
        ("q=overloaded", 1),  # the search reads the error text too
        ("nonsense&q=%zz", 0),  # an unknown key is ignored, a bad escape searched as it is
    ],
)
def test_the_filters_read_the_hash(
    run: tuple[Path, RunRecord, Summary, list[CaseResult]], tmp_path: Path, hash_: str, shown: int
) -> None:
    folder, _, _, results = run
    ran = browse(f"{(folder / HTML_FILE).as_uri()}#{hash_}", tmp_path / "profile", "--dump-dom")
    assert console(ran.stderr) == []
    assert _counter(ran.stdout) == (shown, len(results))
    assert len(re.findall(r'<tr data-row="\d+" hidden', ran.stdout)) == len(results) - shown


def test_compare_html_fits_a_laptop_screen(comparison: Comparison, tmp_path: Path) -> None:
    """Every figure in its own cell at 1366 px: the interval's text beside its bar once ran
    over the p column."""
    page = write_compare_html(comparison, tmp_path / "compare")
    assert overflowing(page, tmp_path / "profile") == []


def test_screenshots(
    run: tuple[Path, RunRecord, Summary, list[CaseResult]],
    comparison: Comparison,
    tmp_path: Path,
) -> None:
    """Kept under reports/test-artifacts for a person (or CI) to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    compare = write_compare_html(comparison, tmp_path / "compare")
    pages = [(run[0] / HTML_FILE, "report-screenshot.png"), (compare, "compare-screenshot.png")]
    for page, name in pages:
        shot = ARTIFACTS / name
        shot.unlink(missing_ok=True)
        ran = browse(page.as_uri(), tmp_path / "profile", f"--screenshot={shot}",
                      "--window-size=1280,2400", "--hide-scrollbars")  # fmt: skip
        assert console(ran.stderr) == []
        data = shot.read_bytes()
        assert data.startswith(PNG) and len(data) > 10_000, name
