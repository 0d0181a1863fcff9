"""Narrative retrieval at 10k / 100k (/ 1M) synthetic chunks, plus recall@5 on the demo corpus.

Each corpus size runs in fresh subprocesses — one builds (generate → chunk store → tokenise →
BM25 per clearance, read back from the store as ``ingest`` does), one serves (load → query), one
per peer library (``retrieval_peers``) — so ``ru_maxrss`` is a per-size, per-phase peak and a
size never inherits the previous size's heap. The parent only collects their JSON.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import Row, info_row, percentile_ms, time_calls, timing_row
from benchmarks.retrieval_corpus import synthetic_chunks, write_store
from benchmarks.retrieval_peers import worker_peer

SUITE = "retrieval"
CLEARANCE = "INTERNAL"
TOP_K = 5
TARGET_RETRIEVE_P50_MS = 1.0  # at 100k, end to end
TARGET_PEER_RATIO = 1.5  # BM25 rank p50 over the fastest peer's, at every size
BUILD_TARGET_S = {100_000: 30.0, 1_000_000: 180.0}
TARGET_1M_PEAK_GB = 6.0
TARGET_LOAD_S = 2.0
TARGET_RECALL = 0.9
RETRIEVE = "retrieve (top_k=5, INTERNAL)"
SINGLE_RANK = "BM25 rank (1 variant, top 5)"
BUDGET_1M_S = 600.0
ROOT = Path(__file__).resolve().parents[1]
LABELLED = ROOT / "evals" / "retrieval" / "narrative_questions.yaml"

# Realistic questions: simplified, traditional, English, mixed; glossary terms make 1-5 variants.
QUERIES = (
    "中国内地2024年收入为什么下降?",
    "香港的同店销售增长是多少",
    "集团毛利率与上年相比有何变化",
    "东南亚新开门店数量",
    "线上渠道的销售额占比",
    "人民币贬值对收入的影响",
    "关店主要集中在哪些城市",
    "会员计划的积分规则是什么",
    "个人信息出境需要满足哪些要求",
    "配送中心自动化改造的进展",
    "碳排放减少目标是多少",
    "董事会对2025年定价策略的意见",
    "租约到期的低效门店如何处理",
    "冷链运输的损耗率",
    "员工培训时长和人员流失率",
    "顾客投诉处理流程",
    "台灣門店數量的變化",
    "香港旅客消費回升了嗎",
    "東南亞市場的擴張計劃",
    "董事會對促銷折扣的看法",
    "數據出境安全評估",
    "What drove the decline in mainland China revenue?",
    "How many stores were closed in 2024?",
    "Hong Kong same-store sales growth FY2024",
    "PIPL cross-border data transfer requirements",
    "packaging plastic reduction targets in the ESG report",
    "gross margin pressure from promotions",
    "membership loyalty program points expiry",
    "warehouse automation and logistics costs",
    "store opening hours during typhoon",
    "ACME香港online收入",
    "FY2024 SSSG 中国内地",
)

# -- worker side (runs in a fresh subprocess per size and phase) ------------------------------


def _maxrss_mb() -> float:
    """Peak RSS so far; Linux reports KiB, macOS bytes."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def _rss_mb() -> float:
    """Current RSS (what the process still holds), or the peak where /proc is missing."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return _maxrss_mb()
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _children_maxrss_mb() -> float:
    """The largest peak RSS among finished child processes (the tokenising workers)."""
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def _dir_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def worker_build(size: int, workdir: Path) -> dict[str, Any]:
    """Generate and store ``size`` chunks, then index them from the store as ``ingest`` does;
    timings and RSS peaks of each step."""
    from ragspine.retrieval.chunking.chunk_store import ChunkStore
    from ragspine.retrieval.index import CorpusIndex, index_dir_for
    from ragspine.retrieval.postings import default_workers

    out: dict[str, Any] = {"rss_start_mb": _maxrss_mb()}
    t0 = time.perf_counter()
    chunks = list(synthetic_chunks(size))
    out["generate_s"] = time.perf_counter() - t0
    out["avg_chars"] = sum(len(c.text) for c in chunks) / len(chunks)
    out["docs"] = len({c.doc_id for c in chunks})
    out["by_level"] = {
        lvl: sum(c.sensitivity == lvl for c in chunks)
        for lvl in ("PUBLIC", "INTERNAL", "RESTRICTED")
    }
    store_path = workdir / "chunks.db"
    t0 = time.perf_counter()
    write_store(store_path, chunks, generation=1)
    out["store_s"] = time.perf_counter() - t0
    out["store_mb"] = store_path.stat().st_size / 2**20
    del chunks
    gc.collect()
    out["rss_before_build_mb"] = _rss_mb()

    marks: list[tuple[str, float]] = []
    out["workers"] = default_workers(size)
    t0 = time.perf_counter()
    with ChunkStore(store_path, create=False) as store:
        CorpusIndex.build(
            store.iter_chunks(),
            index_dir_for(store_path),
            generation=store.generation,
            store_id=store.store_id,
            n_chunks=store.count(),
            progress=lambda msg: marks.append((msg, time.perf_counter())),
        )
    out["build_s"] = time.perf_counter() - t0
    out["rss_built_mb"] = _maxrss_mb()
    out["rss_workers_mb"] = _children_maxrss_mb()
    tokenised = next(t for msg, t in marks if msg.startswith("tokenised"))
    out["tokenise_s"] = tokenised - t0
    levels, last = {}, tokenised
    for msg, t in marks:
        if msg.startswith("indexed "):  # "indexed PUBLIC: n chunks"
            levels[msg.split()[1].rstrip(":")] = t - last
            last = t
    out["index_levels_s"] = levels
    out["transpose_s"] = out["build_s"] - out["tokenise_s"] - sum(levels.values())
    out["index_mb"] = _dir_mb(index_dir_for(store_path))
    return out


def worker_query(size: int, workdir: Path, n_queries: int, rounds: int, budget_s: float) -> Any:
    """Load the saved index in a cold process, then time retrieve and its parts per query."""
    from ragspine.retrieval.chunking.chunk_store import ChunkStore
    from ragspine.retrieval.fusion import rrf_fuse
    from ragspine.retrieval.index import CorpusIndex, index_dir_for
    from ragspine.retrieval.retriever import RRF_K, HybridRetriever
    from ragspine.retrieval.rewrite import rewrite_queries
    from ragspine.retrieval.tokenize import tokenize, warm_up

    out: dict[str, Any] = {"rss_start_mb": _rss_mb()}
    t0 = time.perf_counter()
    tokenize("臺灣 ＦＹ")  # first fold: OpenCC t2s + confusables table
    out["fold_init_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    warm_up()
    out["jieba_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    importlib.import_module("ragspine.retrieval.kernels")  # numba, and the cached machine code
    out["kernels_import_s"] = time.perf_counter() - t0
    out["rss_warm_mb"] = _rss_mb()

    store_path = workdir / "chunks.db"
    t0 = time.perf_counter()
    index = CorpusIndex.load(index_dir_for(store_path))
    out["manifest_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    index.rank([["收入"]], CLEARANCE, TOP_K)  # loads the vocabulary and the INTERNAL level
    out["first_rank_s"] = time.perf_counter() - t0
    out["rss_loaded_mb"] = _rss_mb()

    store = ChunkStore(store_path, create=False)
    retriever = HybridRetriever(store, index)
    queries = list(QUERIES[:n_queries])
    t0 = time.perf_counter()
    retriever.retrieve(queries[0], top_k=TOP_K, clearance=CLEARANCE)
    out["first_retrieve_s"] = time.perf_counter() - t0

    variants = [rewrite_queries(q, retriever.profile) for q in queries]
    tokens = [[tokenize(v, query=True) for v in vs] for vs in variants]
    out["variants"] = [len(vs) for vs in variants]
    nq = len(queries)
    calls = nq * rounds
    depth = max(retriever.depth, TOP_K)  # as retrieve() computes it

    def pick(i: int) -> int:
        return i % nq

    timings: dict[str, list[int]] = {}
    timings[RETRIEVE] = time_calls(
        lambda i: retriever.retrieve(queries[pick(i)], top_k=TOP_K, clearance=CLEARANCE),
        calls,
        budget_s,
    )
    timings["  rewrite_queries"] = time_calls(
        lambda i: rewrite_queries(queries[pick(i)], retriever.profile), calls, budget_s
    )
    timings["  tokenize (all variants)"] = time_calls(
        lambda i: [tokenize(v, query=True) for v in variants[pick(i)]], calls, budget_s
    )
    timings[f"  BM25 rank (all variants, depth {depth})"] = time_calls(
        lambda i: index.rank(tokens[pick(i)], CLEARANCE, depth), calls, budget_s
    )
    rankings = [[[cid for cid, _ in r] for r in index.rank(t, CLEARANCE, depth)] for t in tokens]
    timings["  rrf_fuse"] = time_calls(
        lambda i: rrf_fuse(rankings[pick(i)], k=RRF_K), calls, budget_s
    )
    top_ids = [[cid for cid, _ in rrf_fuse(r, k=RRF_K)[:TOP_K]] for r in rankings]
    timings["  ChunkStore.get_chunks (top 5)"] = time_calls(
        lambda i: store.get_chunks(top_ids[pick(i)]), calls, budget_s
    )
    timings[SINGLE_RANK] = time_calls(
        lambda i: index.rank(tokens[pick(i)][:1], CLEARANCE, TOP_K), calls, budget_s
    )
    out["timings"] = timings
    out["level_docs"] = index.manifest["chunks"][CLEARANCE]
    out["rss_end_mb"] = _rss_mb()
    out["maxrss_mb"] = _maxrss_mb()
    store.close()
    return out


def _worker_main(argv: list[str]) -> int:
    phase, size = argv[0], int(argv[1])
    result: Any
    if phase == "build":
        result = worker_build(size, Path(argv[2]))
    else:
        nq, rounds, budget = int(argv[3]), int(argv[4]), float(argv[5])
        if phase == "query":
            result = worker_query(size, Path(argv[2]), nq, rounds, budget)
        else:
            result = worker_peer(phase, Path(argv[2]), nq, rounds, budget)
    print(json.dumps(result))
    return 0


# -- parent side ------------------------------------------------------------------------------


def _spawn(*args: object) -> tuple[Any, float]:
    """Run one worker phase in a fresh interpreter; its JSON result and wall time."""
    cmd = [sys.executable, "-m", "benchmarks.retrieval_bench", *map(str, args)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[3:])} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1]), wall


def _label(size: int) -> str:
    return f"{size // 1_000_000}M" if size >= 1_000_000 else f"{size // 1000}k"


@dataclass(frozen=True)
class Plan:
    n_queries: int
    rounds: int
    budget_s: float


QUICK = Plan(n_queries=11, rounds=3, budget_s=2.0)
FULL = Plan(n_queries=len(QUERIES), rounds=20, budget_s=8.0)


def peers_for(size: int) -> tuple[str, ...]:
    """The slower peers run where that is cheap; at 1M only the fastest."""
    if size <= 10_000:
        return ("bm25s-numba", "bm25s-numpy", "tantivy", "rank-bm25")
    if size <= 100_000:
        return ("bm25s-numba", "bm25s-numpy", "tantivy")
    return ("bm25s-numba",)


def _run_size(size: int, plan: Plan, rows: list[Row]) -> dict[str, Any]:
    """Build, serve and run the peers on one size; appends rows, returns the raw numbers."""
    tag = _label(size)
    peers: dict[str, Any] = {}
    walls: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix=f"ragspine-retr-{tag}-") as tmp:
        b, build_wall = _spawn("build", size, tmp)
        q, query_wall = _spawn("query", size, tmp, plan.n_queries, plan.rounds, plan.budget_s)
        for name in peers_for(size):
            peers[name], walls[name] = _spawn(
                name, size, tmp, plan.n_queries, plan.rounds, plan.budget_s
            )
    lv = b["by_level"]
    rows.append(
        info_row(
            SUITE,
            f"[{tag}] corpus",
            f"{size:,} chunks in {b['docs']:,} docs, avg {b['avg_chars']:.0f} chars, "
            f"PUBLIC/INTERNAL/RESTRICTED {lv['PUBLIC']:,}/{lv['INTERNAL']:,}/"
            f"{lv['RESTRICTED']:,}; generated in {b['generate_s']:.1f} s, stored in "
            f"{b['store_s']:.1f} s ({b['store_mb']:.0f} MB)",
        )
    )
    levels = ", ".join(f"{k} {v:.2f} s" for k, v in b["index_levels_s"].items())
    workers = f"{b['workers']} worker processes" if b["workers"] else "in-process"
    rows.append(
        info_row(
            SUITE,
            f"[{tag}] index build",
            f"{b['build_s']:.2f} s = tokenise {b['tokenise_s']:.2f} s ({workers}, "
            f"{size / b['tokenise_s']:,.0f} chunks/s) + transpose {b['transpose_s']:.2f} s + "
            f"weights+save per level: {levels}; {b['index_mb']:.1f} MB on disk",
        )
    )
    peak = b["rss_built_mb"] + b["rss_workers_mb"]
    rows.append(
        info_row(
            SUITE,
            f"[{tag}] build memory (ru_maxrss)",
            f"{peak:,.0f} MB at most = build process {b['rss_built_mb']:,.0f} MB "
            f"(of which {b['rss_before_build_mb']:,.0f} MB held before it began) "
            f"+ largest worker {b['rss_workers_mb']:,.0f} MB",
        )
    )
    load_s = q["manifest_s"] + q["first_rank_s"]
    verdict = "PASS" if load_s < TARGET_LOAD_S else "FAIL"
    rows.append(
        info_row(
            SUITE,
            f"[{tag}] index load",
            f"{load_s * 1000:.0f} ms = manifest {q['manifest_s'] * 1000:.1f} ms + vocabulary, "
            f"INTERNAL level ({q['level_docs']:,} chunks) and first rank "
            f"{q['first_rank_s'] * 1000:.0f} ms (warm page cache); target < {TARGET_LOAD_S:g} s "
            f"— {verdict}",
        )
    )
    rows.append(
        info_row(
            SUITE,
            f"[{tag}] warm-up (once per process)",
            f"segmenter {q['jieba_s'] * 1000:.0f} ms, fold init (OpenCC + confusables) "
            f"{q['fold_init_s'] * 1000:.0f} ms, numba + cached kernels "
            f"{q['kernels_import_s'] * 1000:.0f} ms, first retrieve "
            f"{q['first_retrieve_s'] * 1000:.0f} ms",
        )
    )
    rows.append(
        info_row(
            SUITE,
            f"[{tag}] serving memory (RSS)",
            f"{q['rss_warm_mb']:.0f} MB warmed up → {q['rss_loaded_mb']:.0f} MB with the index "
            f"loaded (+{q['rss_loaded_mb'] - q['rss_warm_mb']:.0f} MB) → {q['rss_end_mb']:.0f} MB "
            f"after queries; peak {q['maxrss_mb']:.0f} MB",
        )
    )
    variants: list[int] = q["variants"]
    hist = {n: variants.count(n) for n in sorted(set(variants))}
    rows.append(
        info_row(
            SUITE,
            f"[{tag}] queries",
            f"{len(variants)} queries, rewrite variants per query {hist} "
            f"(mean {sum(variants) / len(variants):.1f})",
        )
    )
    for case, samples in q["timings"].items():
        rows.append(timing_row(SUITE, f"[{tag}] {case}", samples))
    _peer_rows(tag, peers, q["timings"][SINGLE_RANK], rows)
    return {
        "build": b,
        "query": q,
        "build_wall": build_wall,
        "query_wall": query_wall,
        "peer_walls": walls,
    }


def _peer_rows(tag: str, peers: dict[str, Any], ours: list[int], rows: list[Row]) -> None:
    """Each peer's top-5 timing beside ours, and our ratio to the fastest."""
    ours_p50 = percentile_ms(ours, 0.5)
    timed: dict[str, float] = {}
    for name, r in peers.items():
        if r.get("missing"):
            rows.append(info_row(SUITE, f"[{tag}] {name}", r["missing"]))
            continue
        rows.append(timing_row(SUITE, f"[{tag}] peer {name} top 5", r["samples"]))
        timed[name] = percentile_ms(r["samples"], 0.5)
        note = f"; {r['note']}" if r.get("note") else ""
        rows.append(
            info_row(
                SUITE,
                f"[{tag}] {name}",
                f"built in {r['build_s']:.2f} s on {r['docs']:,} INTERNAL-visible chunks "
                f"(tokens given); p50 {timed[name]:.3f} ms = {timed[name] / ours_p50:.2f}x "
                f"ours{note}",
            )
        )
    if not timed:
        return
    best = min(timed, key=lambda n: timed[n])
    ratio = ours_p50 / timed[best]
    verdict = "PASS" if ratio <= TARGET_PEER_RATIO else "FAIL"
    rows.append(
        info_row(
            SUITE,
            "target",
            f"[{tag}] BM25 rank within {TARGET_PEER_RATIO:g}x of the fastest library "
            f"({best}, {timed[best]:.3f} ms): ours {ours_p50:.3f} ms = {ratio:.2f}x — {verdict}",
        )
    )


def _estimate_1m(at_100k: dict[str, Any]) -> tuple[bool, str]:
    """Scale the 100k run by 10 (slightly superlinear) against the budget and free RAM."""
    b = at_100k["build"]
    # What 1M runs: the build, the queries and the peers of peers_for(1M), each about 10x.
    peers_s = sum(at_100k["peer_walls"].get(name, 0.0) for name in peers_for(1_000_000))
    est_s = 11 * (at_100k["build_wall"] + peers_s) + at_100k["query_wall"]
    est_mb = 12 * (b["rss_built_mb"] + b["rss_workers_mb"])
    try:
        found = re.search(r"MemAvailable:\s+(\d+)", Path("/proc/meminfo").read_text())
    except OSError:
        found = None
    if found is None:
        return False, "cannot read MemAvailable to check that it fits"
    avail_mb = int(found.group(1)) / 1024
    reasons = []
    # The time budget keeps `make bench` bounded; RAGSPINE_BENCH_1M=1 runs it regardless.
    if est_s > BUDGET_1M_S and os.environ.get("RAGSPINE_BENCH_1M") != "1":
        reasons.append(
            f"≈{est_s:.0f} s is over the {BUDGET_1M_S:.0f} s budget (RAGSPINE_BENCH_1M=1 runs it)"
        )
    if est_mb > 0.8 * avail_mb:
        avail = f"{avail_mb / 1024:.1f} GB"
        reasons.append(f"≈{est_mb / 1024:.1f} GB build peak would not fit in the {avail} available")
    desc = f"estimated ≈{est_s:.0f} s, ≈{est_mb / 1024:.1f} GB peak (10x the 100k run)"
    return not reasons, "; ".join(reasons) + " (10x the 100k run)" if reasons else desc


def _load_labelled() -> list[dict[str, Any]] | None:
    if not LABELLED.is_file():
        return None
    import yaml

    data = yaml.safe_load(LABELLED.read_text("utf-8")) or {}
    questions: list[dict[str, Any]] = data.get("questions") or []
    return questions


def recall_rows() -> list[Row]:
    """Recall@5 on the labelled narrative questions over the real demo corpus."""
    questions = _load_labelled()
    if questions is None:
        return [
            info_row(SUITE, "recall@5", "labelled set not found"),
            info_row(SUITE, "target", f"recall@5 >= {TARGET_RECALL:g} — not measured"),
        ]
    from ragspine.demo.corpus import build_demo_corpus
    from ragspine.retrieval.retriever import HybridRetriever
    from ragspine.sensitivity import DEFAULT_CLEARANCE

    with tempfile.TemporaryDirectory(prefix="ragspine-recall-") as tmp:
        path = Path(tmp) / "chunks.db"
        build_demo_corpus(path)
        retriever = HybridRetriever.open(path)
        try:
            hits = 0
            misses: list[str] = []
            skipped: list[str] = []
            for q in questions:
                relevant = set(q.get("relevant") or [])
                if not relevant:
                    skipped.append(str(q.get("id")))
                    continue
                found = retriever.retrieve(
                    str(q["question"]),
                    top_k=TOP_K,
                    clearance=str(q.get("clearance") or DEFAULT_CLEARANCE),
                )
                if relevant & {h.doc_id for h in found}:
                    hits += 1
                else:
                    misses.append(str(q.get("id")))
        finally:
            retriever.store.close()
    scored = hits + len(misses)
    recall = hits / scored if scored else 0.0
    rows = [
        info_row(
            SUITE,
            "recall@5",
            f"{recall:.3f} ({hits}/{scored} questions"
            + (f"; {len(skipped)} with no relevant doc not scored" if skipped else "")
            + ")",
        ),
        info_row(SUITE, "recall@5 misses", ", ".join(misses) or "none"),
    ]
    verdict = "PASS" if scored and recall >= TARGET_RECALL else "FAIL"
    rows.append(info_row(SUITE, "target", f"recall@5 >= {TARGET_RECALL:g} — {verdict}"))
    return rows


def run(quick: bool) -> list[Row]:
    """Per size: build, serve and the peers in fresh subprocesses; then recall@5."""
    plan = QUICK if quick else FULL
    rows: list[Row] = []
    results: dict[int, dict[str, Any]] = {}
    sizes = [10_000] if quick else [10_000, 100_000]
    for size in sizes:
        results[size] = _run_size(size, plan, rows)
    if quick:
        rows.append(info_row(SUITE, "1M skipped", "--quick (100k also skipped)"))
    else:
        ok, why = _estimate_1m(results[100_000])
        if ok:
            rows.append(info_row(SUITE, "1M", f"running: {why}"))
            t0 = time.perf_counter()
            results[1_000_000] = _run_size(1_000_000, plan, rows)
            rows.append(info_row(SUITE, "1M", f"took {time.perf_counter() - t0:.0f} s"))
        else:
            rows.append(info_row(SUITE, "1M skipped", why))
    for size, r in results.items():
        b = r["build"]
        limit_s = BUILD_TARGET_S.get(size)
        if limit_s is None:
            continue
        peak_gb = (b["rss_built_mb"] + b["rss_workers_mb"]) / 1024
        ok = b["build_s"] < limit_s and (size < 1_000_000 or peak_gb < TARGET_1M_PEAK_GB)
        memory = f", peak {peak_gb:.1f} GB < {TARGET_1M_PEAK_GB:g} GB" if size >= 1e6 else ""
        rows.append(
            info_row(
                SUITE,
                "target",
                f"index build at {_label(size)} < {limit_s:g} s{memory} — "
                f"{'PASS' if ok else 'FAIL'} ({b['build_s']:.1f} s)",
            )
        )
    biggest = max(s for s in results if s <= 100_000)
    retrieve = results[biggest]["query"]["timings"][RETRIEVE]
    p50 = percentile_ms(retrieve, 0.5)
    target = TARGET_RETRIEVE_P50_MS
    verdict = "PASS" if p50 < target else "FAIL"
    rows.append(
        info_row(
            SUITE,
            "target",
            f"retrieve p50 < {target:g} ms at {_label(biggest)} — {verdict} ({p50:.3f} ms)",
        )
    )
    rows += recall_rows()
    return rows


if __name__ == "__main__":
    sys.exit(_worker_main(sys.argv[1:]))
