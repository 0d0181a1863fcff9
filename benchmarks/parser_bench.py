"""The question parser and the engine, per question: ``parse_intent`` and ``Engine.ask`` on every
question of the demo's golden suite (and ``parse_intent`` on 金宇生物's, a larger profile).

Each question is timed in several passes over the whole set, never twice in a row, so a cache of
the last text read (the glossary's scan) never answers its own repeat; a question's time is the
median of its passes and the rows give the median, p95 and mean over questions. Bounded caches
keyed by a text (``find_periods``' 4,096 texts) hold every question after the untimed pass: a
question never asked before also pays for those (``find_periods`` some 40-60 µs). The engine runs
on the demo's fact store and corpus, built in a temp dir, with the offline mock provider and no
FAQ: the structured, narrative and composite routes as the golden suite asks them.
"""

from __future__ import annotations

import statistics
import tempfile
import time
import warnings
from collections.abc import Callable
from datetime import date
from pathlib import Path

from benchmarks import Row, info_row, timing_row
from ragspine.agent.intent import parse_intent
from ragspine.demo.corpus import build_demo_corpus
from ragspine.demo.facts import build_demo_store
from ragspine.engine import Engine
from ragspine.evals.golden.suite import load_golden
from ragspine.profile import DomainProfile, default_profile, load_profile
from ragspine.profile.vocabulary import AliasCollisionWarning

SUITE = "parser"
ROOT = Path(__file__).resolve().parents[1]
ACME_GOLDEN = ROOT / "golden"
JINYU = ROOT / "examples" / "jinyu"
PASSES, QUICK_PASSES = 5, 2  # timed passes over the set, after one untimed

Asked = tuple[str, date, str]  # question, reference date, clearance


def _questions(folder: Path, quick: bool) -> list[Asked]:
    cases = load_golden(folder).cases
    asked: list[Asked] = [(c.question, c.reference_date, str(c.clearance)) for c in cases]
    return asked[::5] if quick else asked


def per_question(asked: list[Asked], call: Callable[[Asked], object], passes: int) -> list[int]:
    """Each question's median duration (ns) over ``passes`` passes through the whole set."""
    for a in asked:  # untimed: profiles compiled, stores and indexes opened
        call(a)
    samples: list[list[int]] = [[] for _ in asked]
    clock = time.perf_counter_ns
    for _ in range(passes):
        for i, a in enumerate(asked):
            start = clock()
            call(a)
            samples[i].append(clock() - start)
    return [int(statistics.median(s)) for s in samples]


def _jinyu_profile() -> DomainProfile:
    with warnings.catch_warnings():  # its 金宇 inside 金宇车城: said by `profile check`, not here
        warnings.simplefilter("ignore", AliasCollisionWarning)
        return load_profile(JINYU / "profile.yaml")


def _parse(profile: DomainProfile) -> Callable[[Asked], object]:
    return lambda a: parse_intent(a[0], a[1], profile=profile)


def run(quick: bool) -> list[Row]:
    passes = QUICK_PASSES if quick else PASSES
    acme = _questions(ACME_GOLDEN, quick)
    jinyu = _questions(JINYU / "golden", quick)
    rows = [
        timing_row(
            SUITE,
            "parse_intent[acme golden]",
            per_question(acme, _parse(default_profile()), passes),
        ),
        timing_row(
            SUITE,
            "parse_intent[jinyu golden]",
            per_question(jinyu, _parse(_jinyu_profile()), passes),
        ),
    ]
    with tempfile.TemporaryDirectory(prefix="ragspine-bench-") as tmp:
        build_demo_store(Path(tmp) / "facts.db")
        build_demo_corpus(Path(tmp) / "chunks.db")
        with Engine.open(Path(tmp) / "facts.db", Path(tmp) / "chunks.db") as engine:

            def ask(a: Asked) -> object:
                return engine.ask(a[0], reference_date=a[1], clearance=a[2])

            rows.append(
                timing_row(SUITE, "Engine.ask[acme golden]", per_question(acme, ask, passes))
            )
    rows.append(
        info_row(
            SUITE,
            "parser questions",
            f"{len(acme)} acme + {len(jinyu)} jinyu, median of {passes} passes each "
            "(rows: median, p95, mean over questions)",
        )
    )
    return rows
