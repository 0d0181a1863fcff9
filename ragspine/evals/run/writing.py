"""Writing a run's results: appended one line as each case finishes, rewritten only when a run
is resumed (a torn last line dropped, and with --retry-errors the errored results)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ragspine.evals.run.cost import Meter, paid
from ragspine.evals.run.records import (
    RESULTS_FILE,
    RUN_FILE,
    CaseResult,
    RunRecord,
    iter_results,
    result_line,
    write_json,
)


@contextmanager
def appender(path: Path, meter: Meter) -> Iterator[Callable[[CaseResult], CaseResult]]:
    """A function that appends a result (whole lines, from any thread) and meters its cost."""
    lock = threading.Lock()
    with path.open("a", encoding="utf-8") as fh:

        def append(result: CaseResult) -> CaseResult:
            with lock:
                fh.write(result_line(result))
                fh.flush()
                meter.add(result)
            return result

        yield append


def rewrite_results(folder: Path, record: RunRecord, *, drop_errors: bool = False) -> RunRecord:
    """The results less a torn last line (and the errored ones, with ``drop_errors``). The paid
    tokens of those dropped are added to the record's ``retried_usage`` first: they stay spent
    (a crash between the two writes counts them twice, never not at all)."""
    results = list(iter_results(folder))
    dropped = [r for r in results if drop_errors and r.error is not None]
    retried = dict(record.retried_usage)
    for result in dropped:
        for key, n in paid(result).items():
            retried[key] = retried.get(key, 0) + n
    if retried != record.retried_usage:
        record = record.model_copy(update={"retried_usage": retried})
        write_json(folder / RUN_FILE, record)
    tmp = folder / (RESULTS_FILE + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        gone = {r.key for r in dropped}
        fh.writelines(result_line(r) for r in results if r.key not in gone)
    tmp.replace(folder / RESULTS_FILE)
    return record
