"""answer_question latency over a 100k-fact SQLite store, next to the raw indexed lookup.

The layers are timed separately (raw sqlite3 → FactStore.lookup → execute_query_metric →
answer_question) so the gap between "the database" and "the engine" is visible in one run.
Synthetic facts use SYN_* entities, so every demo question keeps its real answer.
"""

from __future__ import annotations

import itertools
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from benchmarks import Row, info_row, percentile_ms, time_calls, timing_row
from ragspine.agent.agent import AgentResult
from ragspine.agent.query_tools import ToolResult, execute_query_metric
from ragspine.demo.facts import demo_facts
from ragspine.engine import Engine
from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.periods import Period
from ragspine.storage.fact_store import Fact, FactStore

SUITE = "agent"
REFERENCE_DATE = date(2025, 6, 30)
TARGET_P50_MS = 0.25  # issue 14 (it was 1 ms)

RAW_LOOKUP = (
    "SELECT value, source_doc_id, source_locator FROM fact_metric "
    "WHERE metric_code=? AND entity=? AND channel=? AND period_type=? AND period=?"
)

Key = tuple[str, str, str, str, str]  # metric_code, entity, channel, period_type, period


@dataclass(frozen=True)
class Case:
    """One benchmark question and the outcome it must have, so we never time a wrong answer."""

    kind: str
    question: str
    statuses: tuple[str, ...]
    clarification: str = "none"


CASES = (
    Case("found", "中国内地FY2024的REVENUE是多少", ("found",)),
    Case("found", "What was Hong Kong online revenue in FY2024?", ("found",)),
    Case("found", "台灣2024年的門店數是多少?", ("found",)),
    Case("not_found", "中国内地FY2025的REVENUE是多少", ("not_found",)),
    Case("multi_subtask", "香港2023和2024年的营收分别是多少?", ("found", "found")),
    Case("assumption", "集团的毛利率是多少?", ("found",), "answer_with_assumptions"),
)


@dataclass(frozen=True)
class Sizes:
    facts: int
    calls: int
    lookups: int
    budget_s: float


FULL = Sizes(facts=100_000, calls=2_000, lookups=20_000, budget_s=10.0)
QUICK = Sizes(facts=10_000, calls=200, lookups=2_000, budget_s=3.0)


# -- the store ---------------------------------------------------------------------------------


def synthetic_facts(count: int, profile: DomainProfile) -> Iterator[Fact]:
    """``count`` deterministic facts on SYN_00001... entities, every metric/channel/period."""
    metrics = [(m.code, m.unit) for m in profile.metrics]
    periods = [("FY", str(y)) for y in range(2015, 2025)]
    periods += [("H", f"2024H{h}") for h in (1, 2)] + [("Q", f"2024Q{q}") for q in (1, 2, 3, 4)]
    per_entity = list(itertools.product(metrics, profile.channel_codes, periods))
    for n in range(count):
        entity = f"SYN_{n // len(per_entity) + 1:05d}"
        (metric, unit), channel, (ptype, period) = per_entity[n % len(per_entity)]
        yield Fact(
            metric,
            entity,
            "SYN",
            channel,
            ptype,
            period,
            float((n * 7919) % 100_000) / 10,
            unit,
            f"{entity}_KPI.xlsx",
            f"sheet={entity},row={metric}:{channel},col={period}",
        )


def build_store(path: Path, total: int, profile: DomainProfile) -> tuple[int, int]:
    """Demo facts plus synthetic ones up to ``total`` rows; returns (demo, synthetic) counts."""
    demo = demo_facts(profile)
    synthetic = list(synthetic_facts(max(0, total - len(demo)), profile))
    with FactStore(path) as store:
        store.init_schema()
        store.insert_facts([*demo, *synthetic])
    return len(demo), len(synthetic)


# -- timing helpers ----------------------------------------------------------------------------


def _result_key(r: ToolResult) -> Key | None:
    if r["status"] == "found":
        return (r["metric_code"], r["entity"], r["channel"], r["period_type"], r["period"])
    if r["status"] == "not_found":
        n = r["normalized"]
        return (n["metric_code"], n["entity"], n["channel"], n["period_type"], n["period"])
    return None


def _check(case: Case, result: AgentResult) -> str | None:
    """Why the answer is not the one this case expects, or None when it is."""
    statuses = tuple(str(r.get("status")) for r in result.tool_results)
    if statuses != case.statuses:
        return f"{case.question!r}: statuses {statuses}, expected {case.statuses}"
    if result.clarification.mode != case.clarification:
        return f"{case.question!r}: clarification {result.clarification.mode}"
    if any("SYN_" in s["doc"] for s in result.sources):
        return f"{case.question!r}: answered from a synthetic fact"
    return None


# -- the suite ---------------------------------------------------------------------------------


def run(quick: bool) -> list[Row]:
    """Build the store in a temp dir, warm up, then time every layer; returns table rows."""
    sizes = QUICK if quick else FULL
    profile = default_profile()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="ragspine-bench-") as tmp:
        path = Path(tmp) / "fact_metric.db"
        t0 = time.perf_counter()
        n_demo, n_syn = build_store(path, sizes.facts, profile)
        build_s = time.perf_counter() - t0
        size_mb = path.stat().st_size / 1e6
        rows.append(
            info_row(
                SUITE,
                "store build",
                f"{n_demo + n_syn:,} facts ({n_demo} demo + {n_syn:,} synthetic) "
                f"in {build_s:.2f} s, {size_mb:.1f} MB on disk",
            )
        )
        with Engine.open(path, profile=profile, provider="mock") as engine:
            rows += _run_on_engine(engine, path, sizes)
    return rows


def _run_on_engine(engine: Engine, path: Path, sizes: Sizes) -> list[Row]:
    store, profile = engine.store, engine.profile

    def ask(question: str) -> AgentResult:
        return engine.ask(question, reference_date=REFERENCE_DATE)

    # Warm-up: the first call loads the profile and compiles the glossary's regexes.
    t0 = time.perf_counter_ns()
    ask(CASES[0].question)
    first_ms = (time.perf_counter_ns() - t0) / 1e6
    problems: list[str] = []
    keys: dict[Key, None] = {}
    for case in CASES:
        result = ask(case.question)
        if (problem := _check(case, result)) is not None:
            problems.append(problem)
        keys.update((k, None) for r in result.tool_results if (k := _result_key(r)) is not None)
    lookup_keys = list(keys)

    rows: list[Row] = []

    # Layer 0: the raw indexed lookup on the same file, plain sqlite3.
    conn = sqlite3.connect(path)
    try:
        conn.execute(RAW_LOOKUP, lookup_keys[0]).fetchone()

        def raw(i: int) -> object:
            return conn.execute(RAW_LOOKUP, lookup_keys[i % len(lookup_keys)]).fetchone()

        raw_samples = time_calls(raw, sizes.lookups, sizes.budget_s)
    finally:
        conn.close()
    raw_p50 = percentile_ms(raw_samples, 0.50)
    rows.append(timing_row(SUITE, "raw sqlite3 lookup", raw_samples))

    # Layer 1: FactStore.lookup (lock + row → Fact).
    def store_lookup(i: int) -> object:
        m, e, c, pt, p = lookup_keys[i % len(lookup_keys)]
        return store.lookup(metric_code=m, entity=e, channel=c, period_type=pt, period=p)

    rows.append(
        timing_row(
            SUITE, "FactStore.lookup", time_calls(store_lookup, sizes.lookups, sizes.budget_s)
        )
    )

    # Layer 2: execute_query_metric (glossary normalisation + lookup + result dict).
    tool_args = [(m, e, Period(pt, p).label, c) for m, e, c, pt, p in lookup_keys]

    def tool(i: int) -> object:
        metric, entity, period, channel = tool_args[i % len(tool_args)]
        return execute_query_metric(
            store, metric, entity, period, channel, reference_date=REFERENCE_DATE, profile=profile
        )

    rows.append(
        timing_row(
            SUITE, "execute_query_metric", time_calls(tool, sizes.lookups // 4, sizes.budget_s)
        )
    )

    # Layer 3: answer_question, questions interleaved so no one case warms the caches alone.
    by_kind: dict[str, list[int]] = {}
    all_samples = time_calls(
        lambda i: ask(CASES[i % len(CASES)].question), sizes.calls, sizes.budget_s
    )
    for i, ns in enumerate(all_samples):
        by_kind.setdefault(CASES[i % len(CASES)].kind, []).append(ns)
    for kind, samples in by_kind.items():
        rows.append(timing_row(SUITE, f"answer_question[{kind}]", samples))
    rows.append(timing_row(SUITE, "answer_question[all]", all_samples))

    p50 = percentile_ms(all_samples, 0.50)
    rows.append(
        info_row(
            SUITE, "first answer_question call (compiles glossary + gate)", f"{first_ms:.1f} ms"
        )
    )
    if len(all_samples) < sizes.calls:
        rows.append(
            info_row(
                SUITE,
                "note",
                f"time budget {sizes.budget_s:.0f} s hit after {len(all_samples)} calls",
            )
        )
    rows.append(
        info_row(SUITE, "ratio answer_question p50 / raw lookup p50", f"{p50 / raw_p50:,.0f}x")
    )
    rows.append(
        info_row(
            SUITE,
            "answers checked",
            "all as expected" if not problems else "MISMATCH: " + "; ".join(problems),
        )
    )
    verdict = "PASS" if p50 < TARGET_P50_MS else "FAIL"
    rows.append(
        info_row(SUITE, "target", f"answer_question p50 < {TARGET_P50_MS:g} ms — {verdict}")
    )
    return rows
