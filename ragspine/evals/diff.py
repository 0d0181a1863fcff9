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
from tabulate import tabulate

from ragspine.evals.metrics import better
from ragspine.evals.records import (
    CaseResult,
    RunRecord,
    Summary,
    read_results,
    read_run,
    read_summary,
)
from ragspine.evals.report import flatten_metrics, md, num

DIFF_SCHEMA_VERSION = 1
DIFF_JSON = "diff.json"
DIFF_MD = "diff.md"
MAX_LISTED = 50  # cases per section in diff.md; GitHub comments stop at 65,536 characters
BEHAVIOUR = ("route", "clarification", "statuses", "guard_triggered", "sources", "error")

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
    return LoadedRun(
        folder=folder,
        record=read_run(folder),
        summary=read_summary(folder),
        results=read_results(folder),
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


class RunDiff(_Model):
    schema_version: int = DIFF_SCHEMA_VERSION
    a: RunSide
    b: RunSide
    metrics: list[MetricDelta]
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


def _passed(value: bool | None) -> str:
    return "absent" if value is None else ("pass" if value else "fail")


def _delta(name: str, value: float | None) -> str:
    """The change, marked better or worse where the metric says which way is up."""
    if value is None:
        return "—"
    if value == 0:
        return "0"
    way = better(name)
    mark = "" if way is None else (" better" if (value > 0) == (way == "higher") else " worse")
    return f"{round(value, 4):+g}{mark}"


def _pair(a: Any, b: Any) -> str:
    return md(a) if a == b else f"{md(a)} → {md(b)}"


def _case_lines(c: CaseChange) -> list[str]:
    repeat = f" (repeat {c.repeat})" if c.repeat else ""
    lines = [f"- **{md(c.case_id)}**{repeat}: {md(c.question, 160)}"]
    for k in c.checks:
        why = f" · why: {md(k.why, 300)}" if k.why else ""
        lines.append(
            f"  - check `{md(k.name)}`: {_passed(k.passed_a)} → {_passed(k.passed_b)} · "
            f"expected {_pair(k.expected_a, k.expected_b)} · "
            f"actual {_pair(k.actual_a, k.actual_b)}{why}"
        )
    lines += [f"  - {f.field}: {md(f.a)} → {md(f.b)}" for f in c.behaviour]
    return lines


def _section(title: str, cases: list[CaseChange]) -> list[str]:
    lines = [f"### {title} ({len(cases)})", ""]
    if not cases:
        return [*lines, "_none_", ""]
    for c in cases[:MAX_LISTED]:
        lines += _case_lines(c)
    if len(cases) > MAX_LISTED:
        lines.append(f"- … and {len(cases) - MAX_LISTED} more in {DIFF_JSON}")
    return [*lines, ""]


def _ids(ids: list[str]) -> str:
    shown = ", ".join(md(i) for i in ids[: MAX_LISTED * 2])
    more = f", … and {len(ids) - MAX_LISTED * 2} more" if len(ids) > MAX_LISTED * 2 else ""
    return (shown + more) or "_none_"


def _describe(label: str, s: RunSide) -> str:
    model = f" ({md(s.model)})" if s.model else ""
    return (
        f"- **{label}** {md(s.folder)}: run {md(s.run_id or 'baseline')} · "
        f"{md(s.provider or '?')}{model} · golden {md((s.golden_hash or '?')[:19])} · "
        f"commit {md((s.git_commit or '—')[:10])} · {s.cases} cases"
    )


def render_diff(diff: RunDiff) -> str:
    rows = [[md(m.name), num(m.a), num(m.b), _delta(m.name, m.delta)] for m in diff.metrics]
    lines = [
        "## Eval diff: A → B",
        "",
        _describe("A", diff.a),
        _describe("B", diff.b),
        "",
    ]
    if diff.a.golden_hash != diff.b.golden_hash:
        lines += ["> The golden sets differ: expect coverage changes.", ""]
    lines += [
        f"**{len(diff.regressed)} regressed · {len(diff.fixed)} fixed · "
        f"{len(diff.changed)} changed behaviour · {len(diff.new_in_b)} new · "
        f"{len(diff.missing_in_b)} missing · {diff.unchanged} unchanged**",
        "",
        tabulate(rows, headers=["metric", "A", "B", "Δ"], tablefmt="github", disable_numparse=True),
        "",
        *_section("Regressed (pass → fail)", diff.regressed),
        *_section("Fixed (fail → pass)", diff.fixed),
        *_section("Changed behaviour (same pass/fail)", diff.changed),
        "### Coverage: new in B / missing in B",
        "",
        f"- new in B ({len(diff.new_in_b)}): {_ids(diff.new_in_b)}",
        f"- missing in B ({len(diff.missing_in_b)}): {_ids(diff.missing_in_b)}",
        "",
    ]
    return "\n".join(lines)


def write_diff(diff: RunDiff, out: Path) -> None:
    """``diff.json`` (the record) and ``diff.md`` (a pull-request comment) in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    data = diff.model_dump(mode="json")
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    (out / DIFF_JSON).write_text(text, encoding="utf-8", errors="replace")
    (out / DIFF_MD).write_text(render_diff(diff), encoding="utf-8", errors="replace")
