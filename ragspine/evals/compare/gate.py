"""The CI gate: a run passes only if nothing regressed against the baseline and no line was crossed.

``bless`` writes a run as the new baseline without volatile fields (ids, times, commit, latency)
and in a fixed order, so blessing the same behaviour twice changes no byte and diffs stay quiet.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ragspine.errors import ThresholdsError as ThresholdsError
from ragspine.evals.compare.diff import diff_paired
from ragspine.evals.compare.family import CompareConfig
from ragspine.evals.compare.pairing import pair_runs
from ragspine.evals.report.markdown import flatten_metrics, num
from ragspine.evals.run.folder import LoadedRun, load_run
from ragspine.evals.run.records import RESULTS_FILE, RUN_FILE, SUMMARY_FILE, RecordError
from ragspine.evals.score.metrics import metric_names, scored_rates

Bound = Annotated[float, Field(strict=True)]  # strict: `yes` is not 1.0

VOLATILE_RUN = {"run_id", "started_at", "finished_at", "git_commit"}
VOLATILE_RESULT = {"latency_ms"}
VOLATILE_METRICS = {"latency_ms"}
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
        sep = "." if err["type"] == "value_error" else ": "
        raise ThresholdsError(f"{path}: {field}{sep}{msg}") from exc


class GateVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    passed: bool
    reasons: list[str]
    warnings: list[str] = Field(default_factory=list)  # said, but not a reason to fail


def _names(items: list[str]) -> str:
    more = f", … and {len(items) - _LISTED} more" if len(items) > _LISTED else ""
    return ", ".join(items[:_LISTED]) + more


def _threshold_reasons(run: LoadedRun, thresholds: Thresholds, *, quality: bool) -> list[str]:
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
            f"({_names(diff.missing_in_b)}): run the whole golden set, or pass --allow-subset"
        )
    edited = _edited(base, cur)
    if edited:
        reasons.append(
            f"{len(edited)} case(s) were edited since the baseline ({_names(edited)}): review "
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
    for case in diff.regressed if not outage else []:
        if case.case_id not in answered_failing:
            continue  # it failed only by erroring: an outage, counted by the error-rate limit
        failed = [
            f"{c.name} ({c.why})" if c.why else c.name for c in case.checks if c.passed_b is False
        ]
        reasons.append(f"regressed: {case.case_id}: {'; '.join(failed) or 'now fails'}")
    if thresholds is not None:
        reasons += _threshold_reasons(cur, thresholds, quality=not outage)
    unsupported = [
        f"{r.case_id} ({', '.join(r.unsupported_numbers)})"
        for r in sorted(cur.results, key=lambda r: r.key)
        if r.unsupported_numbers
    ]
    if unsupported:
        reasons.append(
            f"unsupported numbers in {len(unsupported)} result(s): {_names(unsupported)}"
        )
    provider = cur.record.provider
    if provider == "mock" or provider.startswith("mock:"):
        errored = sorted({r.case_id for r in cur.results if r.error is not None})
        if errored:
            reasons.append(f"the mock run had errors in {len(errored)} case(s): {_names(errored)}")
    warnings = [f"{baseline}: {base.unfinished}"] if base.unfinished else []
    return GateVerdict(passed=not reasons, reasons=reasons, warnings=warnings)


# -- bless ------------------------------------------------------------------------------------


def _blessable(run: Path, src: LoadedRun, baseline: Path) -> None:
    if not src.results:
        raise RecordError(f"{run}: the run has no results; nothing to bless (--force to anyway)")
    if src.unfinished:
        raise RecordError(f"{run}: {src.unfinished} before blessing")
    chosen = {k: v for k, v in src.record.options.items() if k in ("filter", "limit") and v}
    if chosen:
        given = ", ".join(f"--{k} {v}" for k, v in chosen.items())
        raise RecordError(
            f"{run}: a subset run ({given}) would drop the other cases from the baseline; "
            "bless a whole run (--force to anyway)"
        )
    if (baseline / RUN_FILE).exists():
        old = load_run(baseline)
        dropped = sorted({r.case_id for r in old.results} - {r.case_id for r in src.results})
        if dropped and src.record.golden_hash == old.record.golden_hash:
            raise RecordError(
                f"{run}: {len(dropped)} baseline case(s) are not in this run "
                f"({_names(dropped)}); bless a whole run (--force to anyway)"
            )


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, "utf-8")
    tmp.replace(path)


def bless(run: Path, baseline: Path, *, force: bool = False) -> None:
    """Make ``run`` the baseline: stable fields only, results in (case_id, repeat) order.

    An empty, unfinished or subset run would make a baseline that gates nothing: refused unless
    ``force``.
    """
    src = load_run(run)
    if not force:
        _blessable(run, src, baseline)
    baseline.mkdir(parents=True, exist_ok=True)
    summary = src.summary.model_dump(mode="json", exclude={"run_id"})
    for metrics in (summary["metrics"], *summary["per_tag"].values()):
        for key in VOLATILE_METRICS:
            metrics.pop(key, None)
    lines = [
        json.dumps(
            r.model_dump(mode="json", exclude=VOLATILE_RESULT), ensure_ascii=False, sort_keys=True
        )
        + "\n"
        for r in sorted(src.results, key=lambda r: r.key)
    ]
    _write(baseline / RUN_FILE, _dump(src.record.model_dump(mode="json", exclude=VOLATILE_RUN)))
    _write(baseline / SUMMARY_FILE, _dump(summary))
    _write(baseline / RESULTS_FILE, "".join(lines))
