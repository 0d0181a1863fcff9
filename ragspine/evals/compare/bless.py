"""Blessing a run as the new baseline: first what it would bless, then refused if it regressed.

``review`` reads the run against the current baseline and a thresholds file: the cases that
regressed (in the gate's words), those fixed, new and no longer run, and the thresholds it
breaks. A run that regressed or breaks a threshold is refused unless forced, as is an empty,
unfinished or subset run (a baseline that would gate nothing).

The baseline is written without volatile fields (ids, times, commit, latency, what a cassette
replayed or an errored answer cost before it was asked again) and in a fixed order, so blessing
the same behaviour twice changes no byte and diffs stay quiet. It is committed and read on other
machines, so it names no path of this one: a path under the working folder is stored relative to
it, any other by its name alone.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragspine.evals.compare.diff import diff_paired
from ragspine.evals.compare.gate import Thresholds, listed, regression_reason, threshold_reasons
from ragspine.evals.compare.pairing import pair_runs
from ragspine.evals.run.folder import LoadedRun, load_run
from ragspine.evals.run.records import RESULTS_FILE, RUN_FILE, SUMMARY_FILE, RecordError

VOLATILE_RUN = {"run_id", "started_at", "finished_at", "git_commit", "retried_usage"}
VOLATILE_RESULT = {"latency_ms", "replayed_usage"}
VOLATILE_METRICS = {"latency_ms"}
VOLATILE_COST = {"paid_usd"}
# The options of run.json that name a file or folder.
PATH_OPTIONS = ("db", "corpus", "profile", "cassette", "prices", "faq")
SHOWN = 20  # regressions printed before "… and N more"


@dataclass(frozen=True)
class Review:
    """What blessing ``run`` would change, and what it would accept that it should not."""

    run: LoadedRun
    baseline: Path
    thresholds: Path | None
    first: bool  # no baseline there yet
    regressed: list[str] = field(default_factory=list)  # one line each, the gate's words
    broken: list[str] = field(default_factory=list)  # thresholds the run breaks
    fixed: int = 0
    new: int = 0
    missing: int = 0

    @property
    def objections(self) -> int:
        return len(self.regressed) + len(self.broken)

    def lines(self) -> list[str]:
        """What is printed before anything is written."""
        rec = self.run.record
        model = f"{rec.provider}" + (f" ({rec.model})" if rec.model else "")
        out = [
            f"bless: {self.run.folder} → {self.baseline} ({len(self.run.results)} results, "
            f"{model}, golden set {rec.golden_path})"
        ]
        if self.first:
            out.append(f"no baseline in {self.baseline} yet: this run is the first")
        else:
            out.append(
                f"against the current baseline: {len(self.regressed)} regressed, {self.fixed} "
                f"fixed, {self.new} new, {self.missing} no longer run"
            )
            out += [f"  - {line}" for line in self.regressed[:SHOWN]]
            if len(self.regressed) > SHOWN:
                out.append(f"  - … and {len(self.regressed) - SHOWN} more (eval diff lists all)")
        if self.thresholds is not None:
            out.append(f"thresholds ({self.thresholds}): {len(self.broken)} broken")
            out += [f"  - {line}" for line in self.broken]
        return out

    def objected(self) -> str:
        """``31 regression(s) and 2 broken threshold(s)``."""
        what = [f"{len(self.regressed)} regression(s)"] if self.regressed else []
        what += [f"{len(self.broken)} broken threshold(s)"] if self.broken else []
        return " and ".join(what)

    def refusal(self) -> str:
        return (
            f"{self.run.folder}: not blessed: {self.objected()} against {self.baseline}; "
            f"review them (ragspine eval diff {self.baseline} {self.run.folder}), then bless "
            "with --force"
        )


def default_thresholds(baseline: Path) -> Path | None:
    """``thresholds.yaml`` beside the baseline folder (``evals/thresholds.yaml`` for
    ``evals/baseline``), when there is one."""
    beside = baseline.parent / "thresholds.yaml"
    return beside if beside.is_file() else None


def review(
    run: Path,
    baseline: Path,
    thresholds: Thresholds | None = None,
    *,
    thresholds_file: Path | None = None,
    force: bool = False,
) -> Review:
    """The run against the current baseline and ``thresholds``; a run that would make a baseline
    gating nothing (empty, unfinished, a subset) is a RecordError unless ``force``."""
    src = load_run(run)
    if not force:
        _blessable(run, src, baseline)
    broken = threshold_reasons(src, thresholds) if thresholds is not None else []
    if not (baseline / RUN_FILE).exists():
        return Review(src, baseline, thresholds_file, True, broken=broken)
    diff = diff_paired(pair_runs(load_run(baseline), src))
    return Review(
        src,
        baseline,
        thresholds_file,
        False,
        regressed=[regression_reason(case) for case in diff.regressed],
        broken=broken,
        fixed=len(diff.fixed),
        new=len(diff.new_in_b),
        missing=len(diff.missing_in_b),
    )


def bless(
    run: Path, baseline: Path, *, force: bool = False, thresholds: Thresholds | None = None
) -> Review:
    """Make ``run`` the baseline, after ``review``: refused (a RecordError) when it regressed or
    breaks a threshold, unless ``force``."""
    found = review(run, baseline, thresholds, force=force)
    if found.objections and not force:
        raise RecordError(found.refusal())
    write_baseline(found.run, baseline)
    return found


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
                f"({listed(dropped)}); bless a whole run (--force to anyway)"
            )


def portable(path: str, root: Path) -> str:
    """A path as a baseline stores it: relative to ``root`` (the working folder) when under it,
    else its name alone; a relative path is kept as it is."""
    if not os.path.isabs(path):
        return path
    absolute, base = Path(os.path.abspath(path)), Path(os.path.abspath(root))
    if absolute.is_relative_to(base):
        return absolute.relative_to(base).as_posix() or "."
    return absolute.name


def _machine_paths(src: LoadedRun, root: Path) -> dict[str, str]:
    """Each absolute path the run names (its golden set, its path options), and what it
    becomes; longest first, so a folder never replaces part of a path inside it."""
    named = [src.record.golden_path, *(src.record.options.get(k) for k in PATH_OPTIONS)]
    found = {p: portable(p, root) for p in named if isinstance(p, str) and os.path.isabs(p)}
    return dict(sorted(found.items(), key=lambda kv: -len(kv[0])))


def _in_json(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, "utf-8")
    tmp.replace(path)


def write_baseline(src: LoadedRun, baseline: Path, root: Path | None = None) -> None:
    """The run as a baseline: stable fields only, results in (case_id, repeat) order, and every
    absolute path it names (in the record, an endpoint, an error) made ``portable``."""
    baseline.mkdir(parents=True, exist_ok=True)
    summary = src.summary.model_dump(mode="json", exclude={"run_id"})
    for metrics in (summary["metrics"], *summary["per_tag"].values()):
        for key in VOLATILE_METRICS:
            metrics.pop(key, None)
    for key in VOLATILE_COST:
        (summary.get("cost") or {}).pop(key, None)
    lines = [
        json.dumps(
            r.model_dump(mode="json", exclude=VOLATILE_RESULT), ensure_ascii=False, sort_keys=True
        )
        + "\n"
        for r in sorted(src.results, key=lambda r: r.key)
    ]
    texts = {
        RUN_FILE: _dump(src.record.model_dump(mode="json", exclude=VOLATILE_RUN)),
        SUMMARY_FILE: _dump(summary),
        RESULTS_FILE: "".join(lines),
    }
    for machine, kept in _machine_paths(src, root or Path.cwd()).items():
        as_json = json.dumps(machine, ensure_ascii=False)[1:-1]  # as it is written in the text
        texts = {
            k: t.replace(as_json, json.dumps(kept, ensure_ascii=False)[1:-1])
            for k, t in texts.items()
        }
    for name, text in texts.items():
        _write(baseline / name, text)
