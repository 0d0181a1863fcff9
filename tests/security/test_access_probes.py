"""Access probes, driven as a caller (or an attacker) drives them: the `ragspine` CLI on real
stores (SQLite files, or a PostgreSQL database on `make test-postgres`) and a real `ragspine serve`
process with real keys of each clearance.

The stores are the demo's, plus a RESTRICTED board pack deck ingested as a user ingests it
(`ragspine ingest --sensitivity RESTRICTED`), holding SEA's FY2025 revenue, and an FAQ item
citing the RESTRICTED board minutes, added with `ragspine faq add`. Each probe is asked at
every clearance: below RESTRICTED the answer (the whole response, over HTTP) holds none of the
restricted values or source names; a RESTRICTED caller gets them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.cli import invoke
from tests.pg_stores import Place
from tests.service.conftest import deployment, free_port

ROOT = Path(__file__).parents[2]
RAGSPINE = str(Path(sys.executable).parent / "ragspine")
BOARD_PACK = "ACME_Board_Pack_2025.pptx"
MINUTES = "ACME_Board_Minutes_2024Q4.md"
REF = "2026-06-30"


@dataclass(frozen=True)
class Probe:
    question: str
    secrets: tuple[str, ...]  # never shown below RESTRICTED: values, source names, words
    shown: tuple[str, ...]  # what a RESTRICTED caller gets


PROBES = {
    # a RESTRICTED deck's table figure
    "deck_figure": Probe("东南亚FY2025的收入是多少", ("512.3", BOARD_PACK), ("512.3", BOARD_PACK)),
    # a derived metric with one RESTRICTED operand (FY2025) and one PUBLIC (FY2024, 395)
    "derived": Probe("东南亚FY2025收入同比增长多少", ("29.7", BOARD_PACK), ("29.7", BOARD_PACK)),
    # an FAQ item citing the RESTRICTED minutes (a RESTRICTED item is never served from the
    # cache: the RESTRICTED caller is answered from the minutes themselves)
    "faq_item": Probe("青松项目的保密安排是什么?", ("公司秘书统一登记", MINUTES), (MINUTES,)),
    # a composite question: the figure RESTRICTED, the attribution from any level
    "composite": Probe("为什么东南亚FY2025收入增长?", ("512.3", BOARD_PACK), ("512.3", BOARD_PACK)),
    # a narrative passage from a RESTRICTED document
    "narrative": Probe("董事会对青松项目有什么决议?", ("排他性谈判", MINUTES), (MINUTES,)),
}
BELOW = ("PUBLIC", "INTERNAL")


def _board_pack(path: Path) -> Path:
    """A one-slide deck: SEA's FY2025 revenue and net profit, as a board pack states them."""
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    assert slide.shapes.title is not None
    slide.shapes.title.text = "东南亚 FY2025 董事会资料"
    table = slide.shapes.add_table(3, 2, Inches(0.5), Inches(1.5), Inches(9), Inches(3)).table
    for r, row in enumerate((("指标", "FY2025"), ("REVENUE", "512.3"), ("NET_PROFIT", "31.7"))):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    deck.save(str(path))
    return path


@dataclass(frozen=True)
class Stores:
    db: Path | str  # on `make test-postgres` all three are one database's URL
    corpus: Path | str
    faq: Path | str


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory, places: Callable[[Path], Place]) -> Stores:
    root = tmp_path_factory.mktemp("probes")
    place = places(root)
    s = Stores(place("facts.db"), place("chunks.db"), place("faq.db"))
    paths = ["--db", str(s.db), "--corpus", str(s.corpus)]
    assert invoke("fixtures", *paths).returncode == 0
    deck = _board_pack(root / BOARD_PACK)
    ran = invoke("ingest", str(deck), "--sensitivity", "RESTRICTED", *paths)
    assert ran.returncode == 0, ran.stderr
    faq = ["faq", "add", "--faq", str(s.faq), *paths, "--question", PROBES["faq_item"].question,
           "--answer", "项目知情人名单由公司秘书统一登记管理,知情人须签署保密承诺。",
           "--source", f"{MINUTES}#section=1.2,para=5"]  # fmt: skip
    # The attacker's try first: the item labelled PUBLIC is refused, naming the source.
    refused = invoke(*faq, "--sensitivity", "PUBLIC")
    assert refused.returncode == 1 and MINUTES in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    added = invoke(*faq, "--sensitivity", "RESTRICTED")
    assert added.returncode == 0, added.stderr
    return s


def _cli(stores: Stores, question: str, clearance: str) -> tuple[str, dict[str, object]]:
    ran = invoke(
        "ask", "--json", "--clearance", clearance, "--reference-date", REF, "--db",
        str(stores.db), "--corpus", str(stores.corpus), "--faq", str(stores.faq), question,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    return ran.stdout, json.loads(ran.stdout)


@pytest.mark.parametrize("clearance", BELOW)
@pytest.mark.parametrize("name", PROBES)
def test_cli_below_restricted_shows_nothing_restricted(
    stores: Stores, name: str, clearance: str
) -> None:
    text, _ = _cli(stores, PROBES[name].question, clearance)
    leaked = [s for s in PROBES[name].secrets if s in text]
    assert not leaked, (name, clearance, leaked)


@pytest.mark.parametrize("name", PROBES)
def test_cli_restricted_caller_gets_it(stores: Stores, name: str) -> None:
    _, record = _cli(stores, PROBES[name].question, "RESTRICTED")
    shown = json.dumps(record, ensure_ascii=False)
    assert all(s in shown for s in PROBES[name].shown), (name, record["answer"])


@dataclass(frozen=True)
class Served:
    url: str
    keys: dict[str, str]  # clearance → key

    def ask(self, question: str, clearance: str) -> httpx.Response:
        return httpx.post(
            f"{self.url}/v1/ask",
            json={"question": question, "reference_date": REF},
            headers={"Authorization": f"Bearer {self.keys[clearance]}"},
            timeout=60,
        )


@pytest.fixture(scope="module")
def served(stores: Stores, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("served")
    keys_file = root / "keys.yaml"
    at = deployment(root, stores.db, stores.corpus).keys  # keys.yaml, or the database's table
    keys = {}
    for level in ("PUBLIC", "INTERNAL", "RESTRICTED"):
        made = invoke("keys", "new", level.lower(), "--clearance", level, *at)
        assert made.returncode == 0, made.stderr
        keys[level] = made.stdout.strip()
    port, log = free_port(), root / "serve.log"
    proc = subprocess.Popen(
        [RAGSPINE, "serve", "--port", str(port), "--db", str(stores.db), "--corpus",
         str(stores.corpus), "--keys", str(keys_file), "--faq", str(stores.faq)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise RuntimeError(f"ragspine serve did not start: {log.read_text('utf-8')}")
        yield Served(url, keys)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize("clearance", BELOW)
@pytest.mark.parametrize("name", PROBES)
def test_http_below_restricted_shows_nothing_restricted(
    served: Served, name: str, clearance: str
) -> None:
    r = served.ask(PROBES[name].question, clearance)
    assert r.status_code == 200, r.text
    body = json.dumps(r.json(), ensure_ascii=False)  # the whole response, trace included
    leaked = [s for s in PROBES[name].secrets if s in body]
    assert not leaked, (name, clearance, leaked)


@pytest.mark.parametrize("name", PROBES)
def test_http_restricted_key_gets_it(served: Served, name: str) -> None:
    r = served.ask(PROBES[name].question, "RESTRICTED")
    assert r.status_code == 200, r.text
    body = json.dumps(r.json(), ensure_ascii=False)
    assert all(s in body for s in PROBES[name].shown), (name, r.json()["answer"])


@pytest.mark.parametrize("clearance", BELOW)
def test_a_hidden_figure_is_answered_as_an_absent_one(stores: Stores, clearance: str) -> None:
    """Its existence does not leak: the answer is the one for a figure no file states."""
    _, hidden = _cli(stores, "东南亚FY2025的收入是多少", clearance)
    _, absent = _cli(stores, "香港FY2025的收入是多少", clearance)
    assert hidden["answer"] == absent["answer"].replace("香港", "东南亚")  # type: ignore[union-attr]
