"""Two runs compared case by case: what regressed, what was fixed, what behaves differently.

The pairing, the per-case changes and the pass rates per tag come from the comparison core
(``pairing``); this adds the metrics and sorts the cases. A may be the committed baseline, which
leaves volatile fields (run id, times, latency) out. An unfinished run is diffed, and named as
such on its side of the record (``unfinished``) and at the top of ``diff.md``.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import Field

from ragspine.evals.compare.pairing import CaseChange, Paired, StrictModel, TagDelta, pair_runs
from ragspine.evals.report.markdown import flatten_metrics
from ragspine.evals.run.folder import LoadedRun, load_run
from ragspine.evals.run.records import Summary

DIFF_SCHEMA_VERSION = 2  # 2: each case's tags and both answers
DIFF_JSON = "diff.json"
DIFF_MD = "diff.md"
MAX_LISTED = 50  # cases per section in diff.md; GitHub comments stop at 65,536 characters

# -- the diff record --------------------------------------------------------------------------


class RunSide(StrictModel):
    folder: str
    run_id: str | None = None
    provider: str | None = None
    model: str | None = None
    golden_hash: str | None = None
    git_commit: str | None = None
    cases: int = 0
    unfinished: str | None = None  # what every command says of an unfinished run; None: finished


class MetricDelta(StrictModel):
    name: str
    a: float | None
    b: float | None
    delta: float | None


class RunDiff(StrictModel):
    schema_version: int = DIFF_SCHEMA_VERSION
    a: RunSide
    b: RunSide
    metrics: list[MetricDelta]
    per_tag: list[TagDelta] = Field(default_factory=list)  # pass_rate, over each run
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


def _metrics(a: Summary, b: Summary) -> list[MetricDelta]:
    fa, fb = flatten_metrics(a.metrics), flatten_metrics(b.metrics)
    out = []
    for name in dict.fromkeys([*fb, *fa]):
        va, vb = fa.get(name), fb.get(name)
        delta = None if va is None or vb is None else round(vb - va, 6)
        out.append(MetricDelta(name=name, a=va, b=vb, delta=delta))
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
        unfinished=run.unfinished,
    )


def diff_paired(paired: Paired) -> RunDiff:
    """What moved between the two runs, case by case, with the metrics and tags around it."""
    regressed: list[CaseChange] = []
    fixed: list[CaseChange] = []
    changed: list[CaseChange] = []
    unchanged = 0
    for change in paired.changes():
        if change.moved:
            (fixed if change.passed_b else regressed).append(change)
        elif change.behaviour or change.checks:
            changed.append(change)
        else:
            unchanged += 1
    a, b = paired.a, paired.b
    return RunDiff(
        a=_side(a, len(paired.cases_a)),
        b=_side(b, len(paired.cases_b)),
        metrics=_metrics(a.summary, b.summary),
        per_tag=paired.per_tag,
        regressed=regressed,
        fixed=fixed,
        changed=changed,
        new_in_b=paired.new_in_b,
        missing_in_b=paired.missing_in_b,
        unchanged=unchanged,
    )


def diff_runs(a: Path, b: Path) -> RunDiff:
    """Compare run (or baseline) folder A with run folder B."""
    return diff_paired(pair_runs(load_run(a), load_run(b)))


# -- writing ----------------------------------------------------------------------------------


def write_diff(diff: RunDiff, out: Path) -> None:
    """``diff.json`` (the record) and ``diff.md`` (a pull-request comment) in ``out``."""
    from ragspine.evals.compare.diff_render import render_diff

    out.mkdir(parents=True, exist_ok=True)
    data = diff.model_dump(mode="json")
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    (out / DIFF_JSON).write_text(text, encoding="utf-8", errors="replace")
    (out / DIFF_MD).write_text(render_diff(diff), encoding="utf-8", errors="replace")
