"""What the anti-fabrication checks cost a case: the narrative guard and the eval audit, each
timed on the same answers as the whole mock case, side by side in one run.

Cases: the golden set's narrative and composite questions (where the model writes prose), the
mock's answers and a hostile provider's. The guard re-runs ``ground`` on each case's raw model
text; the audit runs ``audit_answer`` on the final answer and on the raw text, as the harness
does (the raw text only where the guard changed it). Target: each under 10% of a mock case.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from benchmarks import Row, info_row, percentile_ms, time_calls, timing_row
from ragspine.agent.grounding import ground
from ragspine.agent.request import Request
from ragspine.demo.corpus import build_demo_corpus
from ragspine.demo.facts import build_demo_store
from ragspine.engine import Engine
from ragspine.evals.audit.attacks import ATTACKS, AdversarialProvider
from ragspine.evals.golden.suite import load_golden
from ragspine.evals.run.runner import CaseRunner
from ragspine.evals.score.scorers import audit, raw_unsupported
from ragspine.observability import Trace

SUITE = "guard"
GOLDEN = Path(__file__).parents[1] / "golden"
TARGET = 0.10


def run(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="ragspine-guard-bench-") as tmp:
        db, corpus = Path(tmp) / "f.db", Path(tmp) / "c.db"
        build_demo_store(db)
        build_demo_corpus(corpus)
        with Engine.open(db, corpus) as engine:
            return _run(engine, quick)


def _run(engine: Engine, quick: bool) -> list[Row]:
    cases = [
        c
        for c in load_golden(GOLDEN).cases
        if c.expect.route in ("narrative", "composite") and c.clearance != "RESTRICTED"
    ]
    hostile = engine.with_provider(AdversarialProvider(ATTACKS["invented_percent"]))
    runner = CaseRunner(engine)  # the harness's own reading of an answer
    rows: list[Row] = []
    n = 200 if quick else 2000
    for label, eng in (("mock", engine), ("hostile", hostile)):
        results = [eng.ask(c.question, reference_date=c.reference_date) for c in cases]
        work = [(c, r) for c, r in zip(cases, results, strict=True) if r.model_text]
        hits = {
            id(r): eng.retriever.retrieve(c.question, clearance=c.clearance)  # type: ignore[union-attr]
            for c, r in work
        }

        def ask(i: int, eng: Engine = eng) -> object:
            c = cases[i % len(cases)]
            return eng.ask(c.question, reference_date=c.reference_date)

        def guard(
            i: int, eng: Engine = eng, work: list[Any] = work, hits: dict[int, Any] = hits
        ) -> object:
            c, r = work[i % len(work)]
            req = Request(
                question=c.question,
                store=eng.store,
                provider=eng.provider,
                reference_date=c.reference_date,
                profile=eng.profile,
                trace=Trace(),
            )
            return ground(req, r.model_text or "", hits[id(r)], r.tool_results)

        def audited(i: int, work: list[Any] = work) -> object:
            _, r = work[i % len(work)]
            seen = runner.observe(r.to_record(), r.model_text)
            return audit(seen, r.answer), raw_unsupported(seen)

        case_ns = time_calls(ask, n, 20)
        guard_ns = time_calls(guard, n, 20)
        audit_ns = time_calls(audited, n, 20)
        rows += [
            timing_row(SUITE, f"{label}: whole case (engine.ask)", case_ns),
            timing_row(SUITE, f"{label}: narrative guard (ground)", guard_ns),
            timing_row(SUITE, f"{label}: audit (answer, raw text if changed)", audit_ns),
        ]
        case_p50, case_mean = percentile_ms(case_ns, 0.5), sum(case_ns) / len(case_ns)
        for what, samples in (("guard", guard_ns), ("audit", audit_ns)):
            share = percentile_ms(samples, 0.5) / case_p50
            mean_share = sum(samples) / len(samples) / case_mean
            verdict = "PASS" if share < TARGET else "MISS"
            rows.append(
                info_row(
                    SUITE,
                    f"{label}: {what} / case ({len(work)} prose answers)",
                    f"p50 {share:.1%}, mean {mean_share:.1%} (target < {TARGET:.0%}) — {verdict}",
                )
            )
    return rows
