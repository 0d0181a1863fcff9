"""Reading a run folder (a run, or a blessed baseline), with one rule for a run that did not finish.

Every command that reads runs loads them here: `eval diff`, `eval compare`, `eval gate`, `eval
bless` and the report `finish_run` writes. A run is finished when ``run.json`` says ``complete``
and ``results.jsonl`` holds every result it planned; anything else (killed, interrupted, stopped at
its ``--budget``, a ``--retry-errors`` under way) is unfinished, and every command names it in the
same words: ``the run is unfinished (57 of 350 results); resume it with: ragspine eval run
--resume FOLDER``. Commands that describe runs (diff, compare, the report) go on and mark it;
those that judge a candidate (gate, ``compare --gate``, bless) refuse it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ragspine.evals.report.wording import md
from ragspine.evals.run.records import (
    SUMMARY_FILE,
    CaseResult,
    RunRecord,
    Summary,
    read_results,
    read_run,
    read_summary,
)


def unfinished_state(record: RunRecord, results: int) -> str | None:
    """How far an unfinished run got (``unfinished (57 of 350 results)``); None when finished."""
    if record.status == "complete" and results >= record.cases_planned:
        return None
    why = "stopped at its --budget" if record.status == "stopped" else "unfinished"
    return f"{why} ({results} of {record.cases_planned} results)"


@dataclass(frozen=True)
class LoadedRun:
    folder: Path
    record: RunRecord
    results: list[CaseResult]

    @property
    def run_id(self) -> str | None:
        return self.record.run_id  # None in a baseline: blessing leaves it out

    @property
    def unfinished(self) -> str | None:
        """None for a finished run; else the sentence every command says of it."""
        state = unfinished_state(self.record, len(self.results))
        if state is None:
            return None
        return f"the run is {state}; resume it with: ragspine eval run --resume {self.folder}"

    @cached_property
    def summary(self) -> Summary:
        """``summary.json`` when it counts the results on disk; else (a run killed before it was
        written, or resumed since) the summary of the results themselves, with no cost."""
        if (self.folder / SUMMARY_FILE).exists():
            saved = read_summary(self.folder)
            if saved.cases == len(self.results):
                return saved
        from ragspine.evals.score.summary import summarize

        return summarize(self.record.run_id, self.record.provider, self.results)


def unfinished_note(label: str, folder: str, unfinished: str | None) -> list[str]:
    """The warning a markdown report puts above everything else for a run that did not finish."""
    if unfinished is None:
        return []
    return [
        f"> **{label} is unfinished.** {md(folder)}: {md(unfinished, 500)}. Cases it has not run "
        "yet are coverage (new or missing), never regressions or fixes.",
        "",
    ]


def load_run(folder: Path) -> LoadedRun:
    """``run.json`` and ``results.jsonl`` (a last line torn by a kill is skipped); the summary is
    read when it is asked for. A folder that is not a run is a RecordError naming it."""
    return LoadedRun(folder=folder, record=read_run(folder), results=read_results(folder))
