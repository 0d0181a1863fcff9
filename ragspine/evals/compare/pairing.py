"""The comparison core under `eval diff` and `eval compare`: two runs' results paired by case and
repeat, what changed in each case both runs hold, and the pass rate per tag.

Results pair by ``(case_id, repeat)``; a pair flips (fixed, regressed) when both sides answered
and one passed, and an error on either side is an outage, never a flip. A case, over its repeats,
passes only if every repeat passed (an error fails it); its check changes are read from its first
failing repeat (else repeat 0), its behaviour from repeat 0. Cases in one run only are coverage.
`diff` reports the cases that moved (regressed, fixed, changed); `compare` judges, pair by pair,
whether a change in a rate is more than noise.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from ragspine.evals.run.folder import LoadedRun
from ragspine.evals.run.records import CaseResult

BEHAVIOUR = ("route", "clarification", "statuses", "guard_triggered", "sources", "error")
MODEL_CHECKS = ("model_prose", "model_tool_use")  # informational: they never decide a case
Pair = tuple[CaseResult, CaseResult]
Flip = Literal["fixed", "regressed", "errored"]
_COUNTED = ("cases_a", "cases_b", "pairs", "a_passed", "b_passed", "fixed", "regressed", "errored")


class StrictModel(BaseModel):
    """What diff.json and compare.json are made of: a field they do not know is an error."""

    model_config = ConfigDict(extra="forbid")


class TagDelta(StrictModel):
    """pass_rate on one tag: over each run's results, and over the pairs both runs hold."""

    tag: str
    a: float | None = None  # over A's results with the tag
    b: float | None = None
    delta: float | None = None  # B − A
    cases_a: int = 0  # A's results with the tag
    cases_b: int = 0
    pairs: int = 0  # pairs where either side has the tag
    a_passed: int = 0  # … that passed in A
    b_passed: int = 0
    fixed: int = 0  # answered pairs only
    regressed: int = 0
    errored: int = 0


class CheckChange(StrictModel):
    """One check across the two runs; ``passed`` None means the check did not run there."""

    name: str
    passed_a: bool | None
    passed_b: bool | None
    expected_a: Any = None
    expected_b: Any = None
    actual_a: Any = None
    actual_b: Any = None
    why: str = ""


class FieldChange(StrictModel):
    field: str
    a: Any
    b: Any


class CaseChange(StrictModel):
    case_id: str
    question: str
    passed_a: bool
    passed_b: bool
    repeat: int = 0  # the repeat of B whose checks are shown
    checks: list[CheckChange]
    behaviour: list[FieldChange]
    tags: list[str] = []
    answer_a: str | None = None  # the answers the checks were read from
    answer_b: str | None = None

    @property
    def moved(self) -> bool:
        return self.passed_a != self.passed_b

    @property
    def broke(self) -> list[str]:
        """What fails in B that decides the case: its failing checks, or its error."""
        failed = [c.name for c in self.checks if c.passed_b is False and c.name not in MODEL_CHECKS]
        errored = ["error"] if any(f.field == "error" and f.b for f in self.behaviour) else []
        return failed + errored


@dataclass(frozen=True)
class CaseOutcome:
    """A case over its repeats."""

    passed: bool
    first: CaseResult  # repeat 0 (or the lowest): behaviour is compared on it
    shown: CaseResult  # the first failing repeat, else `first`: check changes are read from it


def outcomes(results: list[CaseResult]) -> dict[str, CaseOutcome]:
    groups: dict[str, list[CaseResult]] = {}
    for r in sorted(results, key=lambda r: r.key):
        groups.setdefault(r.case_id, []).append(r)
    out = {}
    for case_id, rs in groups.items():
        failing = [r for r in rs if not r.passed]
        out[case_id] = CaseOutcome(not failing, rs[0], failing[0] if failing else rs[0])
    return out


def flip(x: CaseResult, y: CaseResult) -> Flip | None:
    """What one pair did from A to B, if anything."""
    if x.error is not None or y.error is not None:
        return "errored"
    if x.passed != y.passed:
        return "fixed" if y.passed else "regressed"
    return None


@dataclass(frozen=True)
class Paired:
    a: LoadedRun
    b: LoadedRun
    pairs: list[Pair]  # the (case, repeat) both runs hold, in that order

    @cached_property
    def cases_a(self) -> dict[str, CaseOutcome]:
        return outcomes(self.a.results)

    @cached_property
    def cases_b(self) -> dict[str, CaseOutcome]:
        return outcomes(self.b.results)

    @property
    def new_in_b(self) -> list[str]:
        return sorted(self.cases_b.keys() - self.cases_a.keys())

    @property
    def missing_in_b(self) -> list[str]:
        return sorted(self.cases_a.keys() - self.cases_b.keys())

    def left_out(self, side: Literal["a", "b"]) -> int:
        """Results of one side whose (case, repeat) the other does not hold."""
        results = (self.a if side == "a" else self.b).results
        return len({r.key for r in results}) - len(self.pairs)

    def changes(self) -> list[CaseChange]:
        """Every case both runs hold, in case order: its pass/fail, checks and behaviour."""
        common = sorted(self.cases_a.keys() & self.cases_b.keys())
        return [_change(self.cases_a[c], self.cases_b[c]) for c in common]

    @cached_property
    def per_tag(self) -> list[TagDelta]:
        """Every tag of either run, in tag order."""
        counts: dict[str, Counter[str]] = {}
        for side, results in (("a", self.a.results), ("b", self.b.results)):
            for r in results:
                for tag in r.tags:
                    tally = counts.setdefault(tag, Counter())
                    tally[f"cases_{side}"] += 1
                    tally[f"passed_{side}"] += r.passed
        for x, y in self.pairs:
            moved = flip(x, y)
            for tag in set(x.tags) | set(y.tags):
                tally = counts.setdefault(tag, Counter())
                tally.update(pairs=1, a_passed=x.passed, b_passed=y.passed)
                tally[moved or "same"] += 1
        return [_tag_delta(tag, n) for tag, n in sorted(counts.items())]


def pair_runs(a: LoadedRun, b: LoadedRun) -> Paired:
    xa, xb = {r.key: r for r in a.results}, {r.key: r for r in b.results}
    return Paired(a, b, [(xa[k], xb[k]) for k in sorted(xa.keys() & xb.keys())])


def _rate(passed: int, total: int) -> float | None:
    return round(passed / total, 6) if total else None


def _tag_delta(tag: str, n: Counter[str]) -> TagDelta:
    a, b = _rate(n["passed_a"], n["cases_a"]), _rate(n["passed_b"], n["cases_b"])
    delta = None if a is None or b is None else round(b - a, 6)
    return TagDelta(tag=tag, a=a, b=b, delta=delta, **{k: n[k] for k in _COUNTED})


def _change(x: CaseOutcome, y: CaseOutcome) -> CaseChange:
    return CaseChange(
        case_id=y.first.case_id,
        question=y.first.question or x.first.question,
        passed_a=x.passed,
        passed_b=y.passed,
        repeat=y.shown.repeat,
        checks=_check_changes(x.shown, y.shown, actual_too=x.passed != y.passed),
        behaviour=_behaviour_changes(x.first, y.first),
        tags=list(y.first.tags or x.first.tags),
        answer_a=x.shown.answer,
        answer_b=y.shown.answer,
    )


def _behaviour(r: CaseResult) -> dict[str, Any]:
    """What the engine did, order-free where order is not behaviour."""
    return {
        "route": r.route,
        "clarification": r.clarification,
        "statuses": sorted(r.statuses),
        "guard_triggered": r.guard_triggered,
        "sources": sorted(r.sources, key=lambda s: json.dumps(s, sort_keys=True)),
        "error": r.error,
    }


def _behaviour_changes(a: CaseResult, b: CaseResult) -> list[FieldChange]:
    before, after = _behaviour(a), _behaviour(b)
    return [
        FieldChange(field=f, a=before[f], b=after[f]) for f in BEHAVIOUR if before[f] != after[f]
    ]


def _check_changes(a: CaseResult, b: CaseResult, *, actual_too: bool) -> list[CheckChange]:
    out = []
    for name in dict.fromkeys([c.name for c in a.checks] + [c.name for c in b.checks]):
        ca, cb = a.check(name), b.check(name)
        if (ca is None and a.error) or (cb is None and b.error):
            continue  # the error explains a check that could not run
        if ca is not None and cb is not None:
            moved = ca.passed != cb.passed or (actual_too and ca.actual != cb.actual)
        else:
            moved = actual_too  # a check added or dropped (the golden case changed)
        if moved:
            failing = cb if cb is not None and not cb.passed else ca
            out.append(
                CheckChange(
                    name=name,
                    passed_a=ca.passed if ca else None,
                    passed_b=cb.passed if cb else None,
                    expected_a=ca.expected if ca else None,
                    expected_b=cb.expected if cb else None,
                    actual_a=ca.actual if ca else None,
                    actual_b=cb.actual if cb else None,
                    why=failing.why if failing is not None else "",
                )
            )
    return out
