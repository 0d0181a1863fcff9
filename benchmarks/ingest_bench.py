"""Ingestion speed on the real annual reports: pages per second and peak memory, per file, for
the reader alone and for the whole `ingest` (read, map tables, chunk, store, index).

Needs ../shared/realworld beside the repo; without it the suite says so and reports nothing.
Target (issue 10): a 195-page report ingested in under a minute on this machine.
"""

from __future__ import annotations

import tempfile
import time
import tracemalloc
from pathlib import Path

from benchmarks import Row, info_row
from ragspine.ingestion.pipeline import ingest_paths_all
from ragspine.profile import load_profile
from ragspine.readers import PdfReader
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.storage.fact_store import FactStore

ROOT = Path(__file__).parents[1]
REALWORLD = ROOT.parent / "shared" / "realworld"
EXAMPLES = ROOT / "examples"
# each report with its own company's profile: another company's report is refused
REPORTS = {
    "600201_金宇生物_2020_年度报告.pdf": EXAMPLES / "jinyu" / "profile.yaml",
    "603339_四方科技_2019_年度报告.pdf": EXAMPLES / "sifang" / "profile.yaml",
}
TARGET_S = 60.0


def run(quick: bool) -> list[Row]:
    present = [REALWORLD / name for name in REPORTS if (REALWORLD / name).is_file()]
    if not present:
        return [info_row("ingest", "skipped", f"no reports in {REALWORLD}")]
    rows: list[Row] = []
    for path in present[:1] if quick else present:
        # timings without tracing (tracemalloc slows Python down); memory in a second pass
        start = time.perf_counter()
        content = PdfReader().read(path)
        read_s = time.perf_counter() - start
        with tempfile.TemporaryDirectory(prefix="ragspine-ingest-bench-") as tmp:
            start = time.perf_counter()
            with ChunkStore(Path(tmp) / "c.db") as chunks, FactStore(Path(tmp) / "f.db") as facts:
                chunks.init_schema()
                facts.init_schema()
                done = ingest_paths_all(
                    [path], chunks=chunks, facts=facts, profile=load_profile(REPORTS[path.name])
                )
            total_s = time.perf_counter() - start
        tracemalloc.start()
        PdfReader().read(path)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        report, pages = done.files[0], content.units
        verdict = "PASS" if total_s < TARGET_S else "FAIL"
        rows += [
            info_row(
                "ingest",
                path.name,
                f"{pages} pages; reader {read_s:.1f} s ({pages / read_s:.1f} pages/s, peak "
                f"{peak / 2**20:.0f} MB traced); whole ingest {total_s:.1f} s "
                f"({pages / total_s:.1f} pages/s)",
            ),
            info_row(
                "ingest",
                "  made",
                f"{report.chunks} chunks, {report.facts} facts, {len(report.unmapped)} values not "
                f"mapped, {len(report.conflicts)} conflicts; target whole ingest < {TARGET_S:.0f} "
                f"s: {verdict}",
            ),
        ]
    return rows
