"""What a run writes to disk. Versioned models with stable ids, so two runs diff case by case.

A run folder holds ``run.json`` (RunRecord), ``results.jsonl`` (one CaseResult a line, appended
as each case finishes), ``summary.json`` (Summary), ``report.md`` and ``junit.xml``, and
``run.lock``, held by the one process writing it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragspine.errors import RecordError as RecordError
from ragspine.errors import first_problem
from ragspine.storage.private import private_dirs

# 2: raw_unsupported and guard_removed per case; 3: error kind and status; 4: the case's spec
SCHEMA_VERSION = 4
READABLE_VERSIONS = (1, 2, 3, 4)

RUN_FILE = "run.json"
LOCK_FILE = "run.lock"
RESULTS_FILE = "results.jsonl"
SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.md"
JUNIT_FILE = "junit.xml"


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION


class Check(BaseModel):
    """One scorer's verdict on one case: what was expected, what happened, and why."""

    model_config = ConfigDict(extra="forbid")

    name: str
    passed: bool
    expected: Any = None
    actual: Any = None
    why: str = ""
    # a measure of the model, not of the engine's answer: it never fails the case
    informational: bool = False


class CaseResult(_Record):
    case_id: str
    repeat: int = 0
    passed: bool
    checks: list[Check] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    question: str = ""
    route: str | None = None
    clarification: str | None = None
    statuses: list[str] = Field(default_factory=list)
    guard_triggered: bool | None = None
    sources: list[dict[str, str]] = Field(default_factory=list)
    answer: str | None = None
    unsupported_numbers: list[str] = Field(default_factory=list)  # the audit on the answer
    raw_unsupported: list[str] = Field(default_factory=list)  # … on the model's raw prose
    guard_removed: int = 0  # numbers the narrative guard removed
    latency_ms: float = 0.0
    usage: dict[str, int] = Field(default_factory=dict)
    # of usage, what a cassette replayed: tokens nobody paid for this time (--budget skips them)
    replayed_usage: dict[str, int] = Field(default_factory=dict)
    error: str | None = None
    error_kind: str | None = None  # errors.PROVIDER_ERROR_KINDS, "cassette_miss", or "other"
    error_status: int | None = None  # the HTTP status, when there was one
    spec: str | None = None  # GoldenCase.spec: which version of the case was run

    @property
    def key(self) -> tuple[str, int]:
        return (self.case_id, self.repeat)

    def check(self, name: str) -> Check | None:
        return next((c for c in self.checks if c.name == name), None)


class RunRecord(_Record):
    run_id: str | None = None  # None in a blessed baseline: ids are volatile
    # stopped: --budget was reached; --resume finishes it
    status: Literal["running", "complete", "stopped"] = "running"
    started_at: str | None = None
    finished_at: str | None = None
    git_commit: str | None = None
    golden_path: str
    golden_hash: str
    provider: str
    model: str | None = None
    endpoint: str | None = None  # where the model was reached (a base URL, a cassette); no key
    reference_dates: list[str] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)
    cases_planned: int = 0
    # paid tokens of the errored results --retry-errors dropped to run again: spent by this
    # folder though no longer in results.jsonl (--budget is a total for the folder)
    retried_usage: dict[str, int] = Field(default_factory=dict)


class Summary(_Record):
    run_id: str | None = None
    provider: str
    cases: int
    metrics: dict[str, Any]
    per_tag: dict[str, dict[str, Any]] = Field(default_factory=dict)
    guard_confusion: dict[str, int] = Field(default_factory=dict)
    errors_by_kind: dict[str, int] = Field(default_factory=dict)
    repeats: dict[str, Any] | None = None  # with --repeat N: per-case verdicts, pass@k, pass^k
    cost: dict[str, Any] | None = None  # usd (None: no price for the model), price, as_of


# -- reading and writing ----------------------------------------------------------------------


def write_json(path: Path, model: BaseModel, *, exclude: set[str] | None = None) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    data = model.model_dump(mode="json", exclude=exclude)
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n", "utf-8")
    tmp.replace(path)


def read_run(folder: Path) -> RunRecord:
    record: RunRecord = _read(folder / RUN_FILE, RunRecord)
    return record


def read_summary(folder: Path) -> Summary:
    summary: Summary = _read(folder / SUMMARY_FILE, Summary)
    return summary


def _read(path: Path, model: type[Any]) -> Any:
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise RecordError(f"{path}: not found (is {path.parent} a run folder?)") from None
    except ValueError as exc:
        raise RecordError(f"{path}: not valid JSON: {exc}") from exc
    _check_version(path, data)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RecordError(f"{path}: {first_problem(exc)}") from exc


def _check_version(path: Path, data: object) -> None:
    """Older versions only lack fields that have defaults, so they are read as they are."""
    version = data.get("schema_version") if isinstance(data, dict) else None
    if version not in READABLE_VERSIONS:
        raise RecordError(
            f"{path}: schema_version {version!r}; this ragspine reads versions "
            f"{', '.join(map(str, READABLE_VERSIONS))}"
        )
    if isinstance(data, dict):
        data["schema_version"] = SCHEMA_VERSION


@contextmanager
def claimed(folder: Path) -> Iterator[None]:
    """One writer per run folder: an exclusive lock on ``run.lock`` for as long as a run (new or
    resumed) writes it, so a second run on the folder is a RecordError at once instead of
    appending its results to the first's. The kernel drops the lock when its holder dies. A new
    folder is made 0700: it holds answers."""
    private_dirs(folder)
    if sys.platform == "win32":  # no flock: the run.json check alone keeps runs apart
        yield
        return
    import fcntl

    with (folder / LOCK_FILE).open("a") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RecordError(f"{folder}: another run is writing it; wait for it to end") from None
        yield


def iter_results(folder: Path, *, tolerate_torn_tail: bool = True) -> Iterator[CaseResult]:
    """Results one at a time, in file order; a last line cut off by a kill is skipped. A case's
    result given twice (two writers on one folder) is a RecordError naming both lines: counting
    it twice would pass a gate on trials that were never planned."""
    path = folder / RESULTS_FILE
    if not path.exists():
        return
    seen: dict[tuple[str, int], int] = {}

    def once(n: int, result: CaseResult) -> CaseResult:
        first = seen.setdefault(result.key, n)
        if first != n:
            raise RecordError(
                f"{path}:{n}: a second result for case {result.case_id} (repeat "
                f"{result.repeat}), the first is line {first}: two runs wrote this folder"
            )
        return result

    with path.open(encoding="utf-8") as fh:
        pending: tuple[int, str] | None = None
        for n, line in enumerate(fh, start=1):
            if pending is not None:
                yield once(pending[0], _parse_result(path, *pending, torn_ok=False))
            pending = (n, line) if line.strip() else None
        if pending is not None:
            torn = tolerate_torn_tail and not pending[1].endswith("\n")
            try:
                yield once(pending[0], _parse_result(path, *pending, torn_ok=torn))
            except _TornLine:
                return


class _TornLine(Exception):
    pass


def _parse_result(path: Path, n: int, line: str, *, torn_ok: bool) -> CaseResult:
    try:
        data = json.loads(line)
    except ValueError as exc:
        if torn_ok:
            raise _TornLine from exc
        raise RecordError(f"{path}:{n}: unreadable result: {exc}") from exc
    _check_version(path, data)
    try:
        return CaseResult.model_validate(data)
    except ValidationError as exc:
        raise RecordError(f"{path}:{n}: unreadable result: {exc}") from exc


def read_results(folder: Path, *, tolerate_torn_tail: bool = True) -> list[CaseResult]:
    """Every result in the file (see iter_results), as a list."""
    return list(iter_results(folder, tolerate_torn_tail=tolerate_torn_tail))


def result_line(result: CaseResult) -> str:
    data = result.model_dump(mode="json")
    for check in data["checks"]:
        if not check["informational"]:
            del check["informational"]  # the usual case, left unsaid
    if not data["replayed_usage"]:
        del data["replayed_usage"]  # likewise: nothing replayed
    return json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n"
