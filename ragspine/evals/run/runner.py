"""Running a golden set through the engine.

Each finished case is appended to ``results.jsonl`` at once, so a killed run loses at most the
cases in flight and ``--resume`` finishes it. An exception or a provider failure makes the case
an error: it stays in the denominator as a failure, never silently dropped.
"""

from __future__ import annotations

import gc
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

from ragspine.agent.agent import AgentResult
from ragspine.agent.record import AnswerRecord
from ragspine.agent.request import DEGRADED_PROVIDER
from ragspine.engine import Engine
from ragspine.errors import CassetteMissError, ProviderConfigError, ProviderError
from ragspine.evals.audit.names import SlotNames
from ragspine.evals.audit.sources import with_context
from ragspine.evals.golden.suite import GoldenCase, GoldenScan, scan_golden
from ragspine.evals.run.cost import Meter, Price, budget_price, load_prices, paid_usd
from ragspine.evals.run.options import RunOptions, options_of
from ragspine.evals.run.records import (
    RESULTS_FILE,
    RUN_FILE,
    CaseResult,
    RecordError,
    RunRecord,
    claimed,
    iter_results,
    read_run,
    write_json,
)
from ragspine.evals.run.workers import run_concurrent
from ragspine.evals.run.writing import appender, rewrite_results
from ragspine.evals.score.scorers import Observed, raw_unsupported, score
from ragspine.interrupts import stop_requested
from ragspine.llm import CassetteProvider, episode
from ragspine.llm.anthropic import USAGE_KEYS
from ragspine.llm.base import probe
from ragspine.llm.cassette import replays
from ragspine.profile import DomainProfile
from ragspine.retrieval.chunking.chunk_store import ChunkStore

Progress = Callable[[CaseResult], None]
STOPPING = "\nstopping: the answers under way finish and are kept (Ctrl-C again stops now)"
__all__ = ["Answered", "CaseRunner", "RunOptions", "options_of", "run_eval", "slot_names"]


class Answered(NamedTuple):
    case: GoldenCase
    repeat: int
    result: AgentResult | Exception
    latency_ms: float
    replayed: dict[str, int]  # usage a cassette replayed: nothing paid


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


class CaseRunner:
    """Runs one case through the shared engine and scores it against its own reading."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.names = slot_names(engine.profile)
        self._chunks: dict[tuple[str, str], str] = {}
        if engine.retriever is not None:
            self._chunks = _chunk_texts(engine.retriever.store)

    def chunk_text(self, doc: str, locator: str) -> str | None:
        return self._chunks.get((doc, locator))

    def observe(self, record: AnswerRecord, model_text: str | None) -> Observed:
        """What the scorers read of one answer record, with what only the audit reads: the
        chunks, the slot names and the model's prose before the guard."""
        return Observed.of(
            record, model_text=model_text, chunk_text=self.chunk_text, names=self.names
        )

    def run(self, case: GoldenCase, repeat: int) -> CaseResult:
        return self.judge(self.answer(case, repeat))

    def answer(self, case: GoldenCase, repeat: int) -> Answered:
        """The engine's answer (or its exception), timed: the part that waits on the model."""
        start = time.perf_counter()
        try:
            # the episode is the key of a cassette's recordings
            with episode(case.id, repeat), replays() as replayed:
                result = self.engine.ask(
                    case.question, reference_date=case.reference_date, clearance=case.clearance
                )
        except ProviderConfigError:
            raise  # no key, no SDK: every case would fail alike, so the run stops on it
        except Exception as exc:
            return Answered(case, repeat, exc, _ms(start), {})
        return Answered(case, repeat, result, _ms(start), replayed)

    def judge(self, answered: Answered) -> CaseResult:
        """The answer scored against the case. Apart from ``answer`` so that a pool's workers
        go back to the model while the scoring runs on the thread that writes the results."""
        case, repeat, result, latency, replayed = answered
        base: dict[str, Any] = {
            "case_id": case.id,
            "repeat": repeat,
            "tags": list(case.tags),
            "question": case.question,
            "spec": case.spec,
        }
        if isinstance(result, Exception):
            exc = result
            return CaseResult(
                **base,
                passed=False,
                error=f"{type(exc).__name__}: {exc}"[:500],
                error_kind=_error_kind(exc),
                error_status=exc.status if isinstance(exc, ProviderError) else None,
                latency_ms=latency,
            )
        record = result.to_record()  # what every door gives; model_text only to the audit
        seen = self.observe(record, result.model_text)
        checks = score(case, seen)
        final = next(c for c in checks if c.name == "unsupported_numbers")
        # The raw model text too: a guard that fixes the answer cannot hide an audit that
        # would have missed the fabrication.
        raw = raw_unsupported(seen)
        counts = record.trace.counts
        provider_failed = record.degraded == DEGRADED_PROVIDER
        return CaseResult(
            **base,
            passed=not provider_failed and all(c.passed for c in checks if not c.informational),
            checks=checks,
            route=record.route,
            clarification=record.clarification.mode,
            statuses=seen.statuses,
            guard_triggered=seen.guard_triggered,
            sources=[{"doc": s.doc, "locator": s.locator} for s in record.sources],
            answer=record.answer,
            unsupported_numbers=list(final.actual),
            raw_unsupported=raw,
            guard_removed=counts.get("narrative_numbers_removed", 0),
            latency_ms=latency,
            usage={k: counts[k] for k in USAGE_KEYS if k in counts},
            replayed_usage={k: n for k, n in replayed.items() if k in USAGE_KEYS},
            **(_provider_failure(record.trace.codes) if provider_failed else {}),
        )


def _error_kind(exc: Exception) -> str:
    """A provider failure's kind; ``cassette_miss`` for a strict replay's miss (a stale
    cassette, which fails the run whatever the error-rate limit); else ``other``."""
    if isinstance(exc, ProviderError):
        return exc.kind
    return "cassette_miss" if isinstance(exc, CassetteMissError) else "other"


def _provider_failure(codes: dict[str, str]) -> dict[str, Any]:
    """The error fields of a case whose answer degraded because the model failed."""
    kind = codes.get("provider_error", "other")
    status = codes.get("provider_status", "")
    return {
        "error": f"ProviderError[{kind}{' ' + status[5:] if status else ''}]: the provider "
        "failed; the answer degraded",
        "error_kind": kind,
        "error_status": int(status[5:]) if status.startswith("http_") else None,
    }


def slot_names(profile: DomainProfile) -> SlotNames:
    """Each metric, entity and channel code with the words that name it, for the audit; the
    units as the profile writes them, each metric's unit, and the companies it does not cover."""
    every = [*profile.metrics, *profile.derived_metrics]
    home = profile.home_entity_code
    return SlotNames(
        metrics={
            m.code: [m.code, *m.aliases, *(n for n in (m.name_zh, m.name_en) if n)] for m in every
        },
        entities={
            e.code: [
                e.code,
                *e.aliases,
                *([e.name_zh] if e.name_zh else []),
                *([e.name_en] if e.name_en else []),
                *([profile.home_company_name] if e.code == home else []),
            ]
            for e in profile.entities
        },
        channels={c.code: [c.code, *c.aliases] for c in profile.channels},
        default_channel=profile.default_channel,
        formulas={d.code: (d.formula, d.percent) for d in profile.derived_metrics},
        units={u.code: (u.kind == "percent", Fraction(str(u.scale))) for u in profile.units},
        unit_display={
            u.code: u.display if u.kind != "count" or u.display else "COUNT" for u in profile.units
        },
        metric_units={m.code: m.unit for m in profile.metrics}
        | {d.code: d.unit for d in profile.derived_metrics},
        external={x.name: [x.name, *x.aliases] for x in profile.external_entities},
        unit_kinds={u.code: u.kind for u in profile.units},
    )


def _chunk_texts(store: ChunkStore) -> dict[tuple[str, str], str]:
    """Each chunk's text with its heading path, entity and period: the audit reads a passage's
    figures with them where its own sentence names no entity or period."""
    return {
        (c.doc_id, c.source_locator): with_context(
            c.text, title=c.title, entity=c.entity, period=c.period
        )
        for c in store.iter_chunks()
    }


def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def run_eval(
    opts: RunOptions,
    *,
    resume: bool = False,
    retry_errors: bool = False,
    on_start: Callable[[int], None] | None = None,
    on_result: Progress | None = None,
    on_budget: Callable[[float, float], None] | None = None,
) -> RunRecord:
    """Run (or finish) a golden set into ``opts.out``; results go to disk as they finish.

    The golden files are parsed once. ``on_start`` hears how many cases are left to run before
    the first one starts (for a progress bar); ``on_result`` hears each result as it is written;
    ``on_budget`` what a resumed run folder has paid so far, and its ``--budget``.
    ``retry_errors`` (with ``resume``) runs again, in place, the cases that ended in an error.

    Before the first case, nothing paid and nothing written: the price table is read, a budget's
    model must have a price, and the provider is probed (its key, its endpoint: ``probe``).
    """
    scan = scan_golden(opts.golden, filter_expr=opts.filter, limit=opts.limit)
    if scan.count == 0:
        what = f"--filter {opts.filter!r} matched" if opts.filter else "there is"
        raise RecordError(f"{opts.golden}: {what} no case; nothing to run")
    table = load_prices(opts.prices)
    # Opened before anything is written: a bad provider or a missing store leaves no folder.
    with Engine.open(
        opts.db,
        opts.corpus,
        profile=opts.profile,
        provider=opts.provider,
        live=opts.live,
        faq=opts.faq,
    ) as engine:
        price = budget_price(opts.budget, table, engine.model, opts.provider)
        probe(engine.provider)
        with claimed(opts.out):  # one writer: a second run on the folder fails here, at once
            return _run(
                opts,
                scan,
                engine,
                price,
                resume=resume,
                retry_errors=retry_errors,
                on_start=on_start,
                on_result=on_result,
                on_budget=on_budget,
            )


def _run(
    opts: RunOptions,
    scan: GoldenScan,
    engine: Engine,
    price: Price | None,
    *,
    resume: bool,
    retry_errors: bool,
    on_start: Callable[[int], None] | None,
    on_result: Progress | None,
    on_budget: Callable[[float, float], None] | None,
) -> RunRecord:
    finished: set[tuple[str, int]] = set()
    if resume:
        record = read_run(opts.out)
        if record.golden_hash != scan.digest:
            raise RecordError(
                f"{opts.out}: the golden set changed since this run started; start a new run"
            )
        recorded = record.options
        if record.provider != opts.provider or any(
            recorded.get(k) != v for k, v in opts.recorded().items()
        ):
            raise RecordError(
                f"{opts.out}: --resume needs the same provider and options as the run it finishes"
            )
        # drop a torn last line before appending (and the errored cases, to run them again)
        record = rewrite_results(opts.out, record, drop_errors=retry_errors)
        finished = {r.key for r in iter_results(opts.out)}
    else:
        if (opts.out / RESULTS_FILE).exists() or (opts.out / RUN_FILE).exists():
            raise RecordError(f"{opts.out}: already holds a run; use --resume, or another --out")
        record = RunRecord(
            run_id=f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-{uuid.uuid4().hex[:8]}",
            started_at=_now(),
            git_commit=_git_commit(),
            golden_path=str(opts.golden),
            golden_hash=scan.digest,
            provider=opts.provider,
            model=engine.model,
            endpoint=engine.endpoint,
            reference_dates=sorted(d.isoformat() for d in scan.reference_dates),
            options=opts.recorded(),
            cases_planned=scan.count * opts.repeat,
        )
        write_json(opts.out / RUN_FILE, record)
    todo = [
        (case, k) for k in range(opts.repeat) for case in scan.cases if (case.id, k) not in finished
    ]
    # --budget is a total for the run folder: what it paid before this session counts
    spent = paid_usd(iter_results(opts.out), price, record.retried_usage) if price else 0.0
    meter = Meter(opts.budget, price, spent)
    if resume and opts.budget is not None and on_budget is not None:
        on_budget(meter.spent, opts.budget)
    if on_start is not None:
        on_start(len(todo))
    runner = CaseRunner(engine)
    # Ctrl-C is a request: the answers under way are paid for, so they finish and are kept.
    with (
        stop_requested(on_request=STOPPING) as stop,
        _frozen_heap(),
        appender(opts.out / RESULTS_FILE, meter) as append,
    ):
        if opts.concurrency <= 1:
            for case, k in todo:
                if meter.spent_out() or stop.is_set():
                    break
                result = append(runner.run(case, k))
                if on_result:
                    on_result(result)
        else:
            # With a budget, no more in flight than workers: a spent budget stops the run
            # within one case per worker.
            run_concurrent(
                todo,
                lambda item: runner.answer(*item),
                lambda answered: _deliver(append(runner.judge(answered)), on_result),
                workers=opts.concurrency,
                ahead=opts.concurrency * (1 if opts.budget is not None else 4),
                stop=lambda: meter.spent_out() or stop.is_set(),
            )
    if stop.is_set() and meter.results < len(todo):
        raise KeyboardInterrupt  # cases are left: the CLI says how to resume
    status = "stopped" if meter.spent_out() and len(todo) > meter.results else "complete"
    if status == "complete" and not resume and opts.filter is None and opts.limit is None:
        _prune_cassette(engine, opts.out, {case.id for case in scan.cases}, opts.repeat)
    record = record.model_copy(update={"status": status, "finished_at": _now()})
    write_json(opts.out / RUN_FILE, record)
    return record


def _prune_cassette(engine: Engine, out: Path, cases: set[str], repeats: int) -> None:
    """After a run over the whole suite (no --filter, --limit, --resume or --retry-errors), a
    cassette keeps only what the run used: a case removed or renamed, or a turn no longer
    reached, leaves no file behind. The folders of cases that ended in an error are kept, and
    so are the repeats of its cases past this run's --repeat (recorded with more)."""
    if isinstance(engine.provider, CassetteProvider):
        errored = {(r.case_id, r.repeat) for r in iter_results(out) if r.error is not None}
        engine.provider.prune(keep=errored, cases=cases, repeats=repeats)


def _deliver(result: CaseResult, on_result: Progress | None) -> None:
    if on_result:
        on_result(result)


@contextmanager
def _frozen_heap() -> Iterator[None]:
    """What is loaded before the cases run (the SDK, the stores, the profile) lives as long as
    the run: kept out of the collector's full sweeps, which stop every worker at once (measured:
    a 150 ms stall per sweep at 16 workers). Thawed after, for a process that goes on."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
