"""`ragspine eval run`: the options of a run (live ones included), --resume and --retry-errors
taking a run's own options, progress people can follow, and Ctrl-C that says how to go on."""

from __future__ import annotations

import os
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from ragspine.cli_errors import fail
from ragspine.cli_options import (
    corpus_option,
    db_option,
    faq_option,
    index_dir_option,
    live_options,
    max_error_rate_option,
    profile_option,
    provider_option,
    say,
)
from ragspine.errors import RagSpineError, RecordError
from ragspine.evals.run.latest import check_link, new_run_folder, point_latest


def live_from(kwargs: dict[str, Any]) -> Any:
    """The LiveOptions the live_options flags name (popped from a command's kwargs)."""
    from ragspine.llm import LiveOptions

    return LiveOptions(
        base_url=kwargs.pop("base_url"),
        timeout=kwargs.pop("timeout"),
        max_retries=kwargs.pop("max_retries"),
        cassette=kwargs.pop("cassette"),
        cassette_mode=kwargs.pop("cassette_mode"),
    )


@click.command()
@click.option(
    "--golden", type=click.Path(path_type=Path), default=Path("golden"), show_default=True
)
@provider_option()
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="run folder [default: reports/run-<UTC time>; with --name or --latest, "
    "reports/runs/<UTC time>-NAME]",
)
@click.option(
    "--name",
    default=None,
    help="a new run's folder is reports/runs/<UTC time>-NAME, its own: a later run never reuses "
    "or deletes it [default: --latest's name]",
)
@click.option(
    "--latest",
    type=click.Path(path_type=Path),
    default=None,
    help="once the run's report is written, this symbolic link (e.g. reports/latest) points at "
    "its folder, replaced atomically; a folder found there is moved beside the run's, kept",
)
@click.option(
    "--filter",
    "filter_expr",
    default=None,
    help="tag expression, e.g. 'zh and not (restricted or id:st-*)'",
)
@click.option("--limit", type=click.IntRange(min=1), default=None)
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--concurrency", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--resume",
    "resume_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="finish an interrupted run in this folder, with the options in its run.json",
)
@click.option(
    "--retry-errors",
    "retry_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="run again, in place, the cases of this run that ended in an error",
)
@max_error_rate_option("exit 1 when more of the cases than this ended in an error")
@click.option(
    "--prices",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="a price table (USD per million tokens) instead of the shipped, dated one; read "
    "before the first case",
)
@click.option(
    "--budget",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="USD, a total for the run folder: stop, resumably, when what its paid calls cost "
    "reaches it, counting earlier sessions (--resume, --retry-errors); cassette replays cost "
    "nothing",
)
@db_option()
@corpus_option(read=True)
@index_dir_option()
@profile_option()
@faq_option("a FAQ cache: the engine's faq route answers first")
@live_options
@click.pass_context
def run(ctx: click.Context, /, **kwargs: Any) -> None:
    """Run the golden set; results are appended as each case finishes.

    A live model is checked before the first case: its API key, the --prices table, and its
    endpoint (one small request); a run from a cassette in strict mode needs none of them."""
    from ragspine.engine import profile_override
    from ragspine.evals.report.markdown import headline_text
    from ragspine.evals.run.finish import finish_run
    from ragspine.evals.run.progress import RunProgress
    from ragspine.evals.run.records import RESULTS_FILE, CaseResult, iter_results
    from ragspine.evals.run.runner import RunOptions, run_eval

    resume_dir, retry_dir = kwargs.pop("resume_dir"), kwargs.pop("retry_dir")
    max_error_rate, concurrency = kwargs.pop("max_error_rate"), kwargs.pop("concurrency")
    budget, name, latest = kwargs.pop("budget"), kwargs.pop("name"), kwargs.pop("latest")
    live = live_from(kwargs)
    try:
        if resume_dir and retry_dir:
            raise RecordError("--resume and --retry-errors: give one run folder, not both")
        if latest is not None:
            check_link(latest)
        folder = resume_dir or retry_dir
        if folder is not None:
            if name is not None:
                raise RecordError("--name names a new run's folder; --resume and --retry-errors "
                                  "continue the one given")  # fmt: skip
            opts = _recorded_options(ctx, folder, kwargs, live, concurrency, budget)
        else:
            folder = _new_folder(kwargs["out"], name, latest)
            opts = RunOptions(
                golden=kwargs["golden"],
                out=folder,
                provider=kwargs["provider"],
                db=kwargs["db"],
                corpus=kwargs["corpus"],
                filter=kwargs["filter_expr"],
                limit=kwargs["limit"],
                repeat=kwargs["repeat"],
                concurrency=concurrency,
                profile=kwargs["profile"],
                live=live,
                prices=kwargs["prices"],
                budget=budget,
                faq=kwargs["faq"],
            )
        say(profile_override(opts.db, opts.profile))
    except RagSpineError as exc:
        fail(exc)
    shown: list[RunProgress] = []

    def on_start(planned: int) -> None:
        shown.append(RunProgress(planned))

    def on_result(result: CaseResult) -> None:
        for progress in shown:
            progress.update(result)

    def on_budget(spent: float, total: float) -> None:
        click.echo(
            f"budget: ${spent:.4f} of --budget ${total:g} paid by this run folder so far, "
            f"${max(total - spent, 0):.4f} left",
            err=True,
        )

    try:
        try:
            record = run_eval(
                opts,
                resume=folder in (resume_dir, retry_dir) and folder is not None,
                retry_errors=retry_dir is not None,
                on_start=on_start,
                on_result=on_result,
                on_budget=on_budget,
            )
        finally:
            for progress in shown:
                progress.close()
        summary = finish_run(opts.out)
        moved = point_latest(latest, opts.out) if latest is not None else None
    except RagSpineError as exc:
        fail(exc)
    except KeyboardInterrupt:
        saved = sum(1 for _ in iter_results(opts.out)) if (opts.out / RESULTS_FILE).exists() else 0
        again = f" --latest {latest}" if latest is not None else ""  # the link moves then
        click.echo(
            f"\ninterrupted: {saved} results are saved in {opts.out}; "
            f"resume with: ragspine eval run --resume {opts.out}{again}",
            err=True,
        )
        main = threading.main_thread()
        if any(t is not main and t.is_alive() and not t.daemon for t in threading.enumerate()):
            # A second Ctrl-C left answers under way: the user asked not to wait for them, and
            # the interpreter would (every line written is flushed, every cassette swapped in).
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(130)
        sys.exit(130)
    click.echo(headline_text(summary))
    click.echo(f"run: {opts.out} (report.md, report.html, results.jsonl, summary.json, junit.xml)")
    if latest is not None:
        say(moved)
        click.echo(f"latest: {latest} -> {opts.out}")
    if record.status == "stopped":
        cost = summary.cost or {}
        spent = cost.get("paid_usd", cost.get("usd")) or 0.0
        click.echo(
            f"stopped: the estimated cost reached --budget ${budget:g} after {summary.cases} of "
            f"{record.cases_planned} cases (this run folder paid ${spent:.4f}); --budget is a "
            f"total for the folder: finish with --resume {opts.out} --budget N, N above "
            f"${spent:.4f}",
            err=True,
        )
        sys.exit(1)
    _fail_on_strict_misses(opts.out, summary.cases)
    errors = int(summary.metrics.get("errors", 0))
    if summary.cases and errors / summary.cases > max_error_rate:
        click.echo(
            f"error: {errors} of {summary.cases} cases ended in an error, above --max-error-rate "
            f"{max_error_rate:g}; the quality figures are over the answered cases "
            f"(run the rest with --retry-errors {opts.out})",
            err=True,
        )
        sys.exit(1)


def _new_folder(out: Path | None, name: str | None, latest: Path | None) -> Path:
    """A new run's folder: --out; else, named (--name, or --latest's name), its own under
    reports/runs/ (``latest``); else reports/run-<UTC time>, as before runs were kept."""
    if out is not None and name is not None:
        raise RecordError("--out and --name: give one (--name makes reports/runs/<time>-NAME)")
    if out is not None:
        return out
    if name is not None:
        return new_run_folder(name)
    if latest is not None:
        return new_run_folder(latest.name)
    return Path("reports") / f"run-{datetime.now(UTC):%Y%m%dT%H%M%SZ}"


def _fail_on_strict_misses(out: Path, cases: int, shown: int = 10) -> None:
    """A strict replay that missed means a stale cassette, not an outage: the run fails whatever
    --max-error-rate says, naming each case and where its request differs. Running the cases
    again would miss again; recording them again is the fix."""
    from ragspine.evals.run.records import iter_results
    from ragspine.llm.cassette import STALE_ADVICE

    misses = [r for r in iter_results(out) if r.error_kind == "cassette_miss"]
    if not misses:
        return
    click.echo(
        f"error: strict replay missed {len(misses)} of {cases} cases, whatever --max-error-rate "
        "says:",
        err=True,
    )
    for r in sorted(misses, key=lambda r: r.key)[:shown]:
        detail = (r.error or "").partition(": ")[2].partition(" — ")[0]
        click.echo(f"  {detail.removeprefix('strict replay missed ')}", err=True)
    if len(misses) > shown:
        click.echo(f"  … and {len(misses) - shown} more (results.jsonl in {out})", err=True)
    click.echo(f"{STALE_ADVICE[0].upper()}{STALE_ADVICE[1:]}.", err=True)
    sys.exit(1)


# What a run's options are called on the command line, for --resume's "which option differs"
# (one given by its environment variable is named by the variable).
_RECORDED_FLAGS = {
    "golden": "--golden",
    "provider": "--provider",
    "filter_expr": "--filter",
    "limit": "--limit",
    "repeat": "--repeat",
    "db": "--db",
    "corpus": "--corpus",
    "profile": "--profile",
    "base_url": "--base-url",
    "timeout": "--timeout",
    "max_retries": "--max-retries",
    "cassette": "--cassette",
    "cassette_mode": "--cassette-mode",
    "prices": "--prices",
    "faq": "--faq",
}


def _recorded_options(
    ctx: click.Context,
    folder: Path,
    kwargs: dict[str, Any],
    live: Any,
    concurrency: int,
    budget: float | None,
) -> Any:
    """The run's own options from its run.json; one given again (by its flag or its environment
    variable) must say the same."""
    from click.core import ParameterSource

    from ragspine.evals.run.runner import options_of

    opts = options_of(folder, concurrency=concurrency, budget=budget)
    recorded = {
        "golden": opts.golden,
        "provider": opts.provider,
        "filter_expr": opts.filter,
        "limit": opts.limit,
        "repeat": opts.repeat,
        "db": opts.db,
        "corpus": opts.corpus,
        "profile": opts.profile,
        "base_url": opts.live.base_url,
        "timeout": opts.live.timeout,
        "max_retries": opts.live.max_retries,
        "cassette": opts.live.cassette,
        "cassette_mode": opts.live.cassette_mode,
        "prices": opts.prices,
        "faq": opts.faq,
    }
    given = kwargs | vars(live)
    envvars = {p.name: p.envvar for p in ctx.command.params}
    for name, flag in _RECORDED_FLAGS.items():
        source = ctx.get_parameter_source(name)
        if source not in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT):
            continue
        if given[name] == recorded[name]:
            continue
        if source == ParameterSource.ENVIRONMENT:
            raise RecordError(
                f"{folder}: {envvars[name]}={given[name]} ({flag}) differs from the run's "
                f"{recorded[name]}; unset it to continue the run with its own options"
            )
        raise RecordError(
            f"{folder}: {flag} {given[name]} differs from the run's {recorded[name]}; "
            "leave it out to continue the run with its own options"
        )
    return opts
