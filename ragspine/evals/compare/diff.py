"""Two runs compared case by case: what regressed, what was fixed, what behaves differently.

A case passes only if every repeat passed. Check changes are read from the first failing repeat
(else repeat 0), behaviour from repeat 0. Cases in one run only are coverage, never regressions.
A may be the committed baseline, which leaves volatile fields (run id, times, latency) out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from ragspine.evals.report.markdown import flatten_metrics
from ragspine.evals.run.records import (
    SUMMARY_FILE,
    CaseResult,
    RecordError,
    RunRecord,
    Summary,
    read_results,
    read_run,
    read_summary,
)

DIFF_SCHEMA_VERSION = 2  # 2: each case's tags and both answers
DIFF_JSON = "diff.json"
DIFF_MD = "diff.md"
MAX_LISTED = 50  # cases per section in diff.md; GitHub comments stop at 65,536 characters
BEHAVIOUR = ("route", "clarification", "statuses", "guard_triggered", "sources", "error")
MODEL_CHECKS = ("model_prose", "model_tool_use")  # informational: they never decide a case

# -- reading runs and baselines ---------------------------------------------------------------


@dataclass(frozen=True)
class LoadedRun:
    folder: Path
    record: RunRecord
    summary: Summary
    results: list[CaseResult]

    @property
    def run_id(self) -> str | None:
        return self.record.run_id  # None in a baseline: blessing leaves it out


def load_run(folder: Path) -> LoadedRun:
    """A run folder or a blessed baseline: run.json, summary.json and results.jsonl."""
    record = read_run(folder)
    if record.status != "complete" and not (folder / SUMMARY_FILE).exists():
        raise RecordError(unfinished(folder, record, len(read_results(folder))))
    return LoadedRun(
        folder=folder,
        record=record,
        summary=read_summary(folder),
        results=read_results(folder),
    )


def unfinished(folder: Path, record: RunRecord, results: int) -> str:
    """What to say of a run that did not finish: how far it got and the command that ends it."""
    why = "stopped at its --budget" if record.status == "stopped" else "unfinished"
    return (
        f"{folder}: the run is {why} ({results} of {record.cases_planned} results); "
        f"resume it with: ragspine eval run --resume {folder}"
    )


# -- the diff record --------------------------------------------------------------------------


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RunSide(_Model):
    folder: str
    run_id: str | None = None
    provider: str | None = None
    model: str | None = None
    golden_hash: str | None = None
    git_commit: str | None = None
    cases: int = 0


class MetricDelta(_Model):
    name: str
    a: float | None
    b: float | None
    delta: float | None


class TagDelta(_Model):
    tag: str
    a: float | None
    b: float | None
    delta: float | None
    cases_a: int = 0
    cases_b: int = 0


class CheckChange(_Model):
    """One check across the two runs; ``passed`` None means the check did not run there."""

    name: str
    passed_a: bool | None
    passed_b: bool | None
    expected_a: Any = None
    expected_b: Any = None
    actual_a: Any = None
    actual_b: Any = None
    why: str = ""


class FieldChange(_Model):
    field: str
    a: Any
    b: Any


class CaseChange(_Model):
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
    def broke(self) -> list[str]:
        """What fails in B that decides the case: its failing checks, or its error."""
        failed = [c.name for c in self.checks if c.passed_b is False and c.name not in MODEL_CHECKS]
        errored = ["error"] if any(f.field == "error" and f.b for f in self.behaviour) else []
        return failed + errored


class RunDiff(_Model):
    schema_version: int = DIFF_SCHEMA_VERSION
    a: RunSide
    b: RunSide
    metrics: list[MetricDelta]
    per_tag: list[TagDelta] = []  # pass_rate per tag
    regressed: list[CaseChange]
    fixed: list[CaseChange]
    changed: list[CaseChange]
    new_in_b: list[str]
    missing_in_b: list[str]
    unchanged: int

    @property
    def clean(self) -> bool:
        """No case regressed, was fixed or changed behaviour (coverage aside)."""
        return not (self.regressed or self.fixed or self.changed)


# -- comparing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Case:
    passed: bool
    first: CaseResult  # repeat 0 (or the lowest): behaviour is compared on it
    shown: CaseResult  # the first failing repeat, else `first`: check changes are read from it


def _cases(results: list[CaseResult]) -> dict[str, _Case]:
    groups: dict[str, list[CaseResult]] = {}
    for r in sorted(results, key=lambda r: r.key):
        groups.setdefault(r.case_id, []).append(r)
    out = {}
    for case_id, rs in groups.items():
        failing = [r for r in rs if not r.passed]
        out[case_id] = _Case(not failing, rs[0], failing[0] if failing else rs[0])
    return out


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


def _metrics(a: Summary, b: Summary) -> list[MetricDelta]:
    fa, fb = flatten_metrics(a.metrics), flatten_metrics(b.metrics)
    out = []
    for name in dict.fromkeys([*fb, *fa]):
        va, vb = fa.get(name), fb.get(name)
        delta = None if va is None or vb is None else round(vb - va, 6)
        out.append(MetricDelta(name=name, a=va, b=vb, delta=delta))
    return out


def _per_tag(a: Summary, b: Summary) -> list[TagDelta]:
    out = []
    for tag in sorted(a.per_tag.keys() | b.per_tag.keys()):
        ra = a.per_tag.get(tag, {}).get("pass_rate") or {}
        rb = b.per_tag.get(tag, {}).get("pass_rate") or {}
        va, vb = ra.get("value"), rb.get("value")
        delta = None if va is None or vb is None else round(vb - va, 6)
        out.append(
            TagDelta(
                tag=tag,
                a=va,
                b=vb,
                delta=delta,
                cases_a=ra.get("total", 0),
                cases_b=rb.get("total", 0),
            )
        )
    return out


def _side(run: LoadedRun, cases: int) -> RunSide:
    r = run.record
    return RunSide(
        folder=str(run.folder),
        run_id=run.run_id,
        provider=r.provider or None,
        model=r.model,
        golden_hash=r.golden_hash or None,
        git_commit=r.git_commit,
        cases=cases,
    )


def compare_runs(a: LoadedRun, b: LoadedRun) -> RunDiff:
    ca, cb = _cases(a.results), _cases(b.results)
    regressed: list[CaseChange] = []
    fixed: list[CaseChange] = []
    changed: list[CaseChange] = []
    unchanged = 0
    for case_id in sorted(ca.keys() & cb.keys()):
        x, y = ca[case_id], cb[case_id]
        behaviour = _behaviour_changes(x.first, y.first)
        moved = x.passed != y.passed
        checks = _check_changes(x.shown, y.shown, actual_too=moved)
        change = CaseChange(
            case_id=case_id,
            question=y.first.question or x.first.question,
            passed_a=x.passed,
            passed_b=y.passed,
            repeat=y.shown.repeat,
            checks=checks,
            behaviour=behaviour,
            tags=list(y.first.tags or x.first.tags),
            answer_a=x.shown.answer,
            answer_b=y.shown.answer,
        )
        if moved:
            (fixed if y.passed else regressed).append(change)
        elif behaviour or checks:
            changed.append(change)
        else:
            unchanged += 1
    return RunDiff(
        a=_side(a, len(ca)),
        b=_side(b, len(cb)),
        metrics=_metrics(a.summary, b.summary),
        per_tag=_per_tag(a.summary, b.summary),
        regressed=regressed,
        fixed=fixed,
        changed=changed,
        new_in_b=sorted(cb.keys() - ca.keys()),
        missing_in_b=sorted(ca.keys() - cb.keys()),
        unchanged=unchanged,
    )


def diff_runs(a: Path, b: Path) -> RunDiff:
    """Compare run (or baseline) folder A with run folder B."""
    return compare_runs(load_run(a), load_run(b))


# -- writing ----------------------------------------------------------------------------------


def write_diff(diff: RunDiff, out: Path) -> None:
    """``diff.json`` (the record) and ``diff.md`` (a pull-request comment) in ``out``."""
    from ragspine.evals.compare.diff_render import render_diff

    out.mkdir(parents=True, exist_ok=True)
    data = diff.model_dump(mode="json")
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    (out / DIFF_JSON).write_text(text, encoding="utf-8", errors="replace")
    (out / DIFF_MD).write_text(render_diff(diff), encoding="utf-8", errors="replace")
