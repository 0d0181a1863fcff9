"""The CI gate: a run passes only if nothing regressed against the baseline and no line was crossed.

Making a run the baseline is ``bless`` (``ragspine.evals.compare.bless``), which says the same
regressions and broken thresholds in the same words before it writes anything.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ragspine.errors import ThresholdsError as ThresholdsError
from ragspine.evals.compare.diff import diff_paired
from ragspine.evals.compare.family import CompareConfig
from ragspine.evals.compare.pairing import CaseChange, pair_runs
from ragspine.evals.report.markdown import flatten_metrics, num
from ragspine.evals.run.folder import LoadedRun, load_run
from ragspine.evals.score.metrics import metric_names, scored_rates

Bound = Annotated[float, Field(strict=True)]  # strict: `yes` is not 1.0

_LISTED = 20  # cases named per reason line


class Thresholds(BaseModel):
    """Lines a run must not cross: ``min`` / ``max`` per metric (``name`` or ``name.leaf``);
    and what `eval compare` judges: ``compare`` (its primary rate and family)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    min: dict[str, Bound] = Field(default_factory=dict)
    max: dict[str, Bound] = Field(default_factory=dict)
    compare: CompareConfig = Field(default_factory=CompareConfig)

    @field_validator("min", "max")
    @classmethod
    def _known(cls, bounds: dict[str, float]) -> dict[str, float]:
        """A typo must not gate nothing: every name is one a summary holds."""
        known = metric_names()
        for name in bounds:
            if name not in known:
                raise ValueError(f"{name}: unknown metric; known: {', '.join(known)}")
        return bounds


def load_thresholds(path: Path) -> Thresholds:
    try:
        data = yaml.safe_load(path.read_text("utf-8"))
    except FileNotFoundError:
        raise ThresholdsError(f"{path}: not found") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ThresholdsError(f"{path}: invalid YAML: {exc}") from exc
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ThresholdsError(
            f"{path}: a thresholds file is a mapping with 'min', 'max' and/or 'compare'"
        )
    try:
        return Thresholds.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(part) for part in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] == "model_type":  # a section given a value: pydantic names its class
            msg = "should be a mapping with 'primary' and/or 'family'"
        sep = "." if err["type"] == "value_error" else ": "
        raise ThresholdsError(f"{path}: {field}{sep}{msg}") from exc


class GateVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    passed: bool
    reasons: list[str]
    warnings: list[str] = Field(default_factory=list)  # said, but not a reason to fail


def listed(items: list[str]) -> str:
    more = f", … and {len(items) - _LISTED} more" if len(items) > _LISTED else ""
    return ", ".join(items[:_LISTED]) + more


def threshold_reasons(run: LoadedRun, thresholds: Thresholds, *, quality: bool = True) -> list[str]:
    """Each line crossed; without ``quality`` (a run errored past its limit) the rates' lines
    are not read: a rate over the few answered cases says nothing."""
    values = flatten_metrics(run.summary.metrics)
    rates = set(scored_rates())
    out = []
    for bounds, kind in ((thresholds.min, "min"), (thresholds.max, "max")):
        for name, bound in bounds.items():
            if not quality and name in rates:
                continue
            value = values.get(name)
            if name not in values:
                out.append(f"metric {name}: not in the current run's summary ({kind} {num(bound)})")
            elif value is None:
                out.append(f"metric {name}: nothing was counted ({kind} {num(bound)})")
            elif kind == "min" and value < bound:
                out.append(f"metric {name} = {num(value)} is below its minimum {num(bound)}")
            elif kind == "max" and value > bound:
                out.append(f"metric {name} = {num(value)} is above its maximum {num(bound)}")
    return out


def regression_reason(case: CaseChange) -> str:
    """``regressed: ID: check (why); …``: a case that passed in the baseline and fails now."""
    failed = [
        f"{c.name} ({c.why})" if c.why else c.name for c in case.checks if c.passed_b is False
    ]
    failed += [f"error ({f.b})" for f in case.behaviour if f.field == "error" and f.b]
    return f"regressed: {case.case_id}: {'; '.join(failed) or 'now fails'}"


def _edited(base: LoadedRun, cur: LoadedRun) -> list[str] | None:
    """Cases in both runs whose question or expectations differ; None when the baseline's
    results do not say (blessed before specs were recorded)."""
    before = {r.case_id: r.spec for r in base.results}
    if not any(before.values()):
        return None
    return sorted(
        {
            r.case_id
            for r in cur.results
            if r.spec and before.get(r.case_id) and before[r.case_id] != r.spec
        }
    )


def gate(
    baseline: Path,
    current: Path,
    thresholds: Thresholds | None,
    *,
    allow_subset: bool = False,
    max_error_rate: float = 0.1,
) -> GateVerdict:
    """Every reason the current run must not merge, one line each; none means it passes.

    A run that proves nothing fails too: no results, an unfinished run, baseline cases it did
    not run (unless ``allow_subset``), a golden set that changed with no case added or removed
    (an expectation was edited: review and bless), or more errors than ``max_error_rate``. An
    unfinished baseline (blessed with --force) is a warning. Errors are apart from quality: past
    the limit the run is inconclusive and no regression or rate threshold is read; under it, a
    case that failed only by erroring is no regression.
    """
    cur = load_run(current)
    base = load_run(baseline)
    diff = diff_paired(pair_runs(base, cur))
    reasons = []
    got = len(cur.results)
    if got == 0:
        reasons.append(
            "the current run has no results: nothing was tested (did --filter match nothing?)"
        )
    if cur.unfinished:
        reasons.append(cur.unfinished)
    if diff.missing_in_b and not allow_subset:
        reasons.append(
            f"{len(diff.missing_in_b)} baseline case(s) missing from the current run "
            f"({listed(diff.missing_in_b)}): run the whole golden set, or pass --allow-subset"
        )
    edited = _edited(base, cur)
    if edited:
        reasons.append(
            f"{len(edited)} case(s) were edited since the baseline ({listed(edited)}): review "
            "the new expectations and bless a new baseline"
        )
    elif (
        edited is None
        and base.record.golden_hash != cur.record.golden_hash
        and not diff.new_in_b
        and not diff.missing_in_b
        and got
    ):
        reasons.append(
            f"the golden set changed ({base.record.golden_hash[:19]} → "
            f"{cur.record.golden_hash[:19]}) with no case added or removed: an expectation was "
            "edited; review it and bless a new baseline"
        )
    errors = sum(r.error is not None for r in cur.results)
    outage = bool(got) and errors / got > max_error_rate
    if outage:
        down = len({r.case_id for r in cur.results if r.error is not None})
        reasons.append(
            f"inconclusive: the current run errored on {down} case(s) ({errors} of {got} "
            f"results, {errors / got:.0%}), above the error-rate limit {max_error_rate:g}: "
            "quality was not judged (no regression or rate threshold is read from so few answers)"
        )
    answered_failing = {r.case_id for r in cur.results if r.error is None and not r.passed}
    # A case that failed only by erroring is an outage, counted by the error-rate limit.
    reasons += [
        regression_reason(case)
        for case in (diff.regressed if not outage else [])
        if case.case_id in answered_failing
    ]
    if thresholds is not None:
        reasons += threshold_reasons(cur, thresholds, quality=not outage)
    unsupported = [
        f"{r.case_id} ({', '.join(r.unsupported_numbers)})"
        for r in sorted(cur.results, key=lambda r: r.key)
        if r.unsupported_numbers
    ]
    if unsupported:
        reasons.append(
            f"unsupported numbers in {len(unsupported)} result(s): {listed(unsupported)}"
        )
    provider = cur.record.provider
    if provider == "mock" or provider.startswith("mock:"):
        errored = sorted({r.case_id for r in cur.results if r.error is not None})
        if errored:
            reasons.append(f"the mock run had errors in {len(errored)} case(s): {listed(errored)}")
    warnings = [f"{baseline}: {base.unfinished}"] if base.unfinished else []
    return GateVerdict(passed=not reasons, reasons=reasons, warnings=warnings)
