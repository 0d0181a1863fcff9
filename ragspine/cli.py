"""The `ragspine` command. Thin: parse, call the library, turn known errors into one line."""

from __future__ import annotations

import warnings
from datetime import date, datetime
from pathlib import Path
from typing import Any

import click

from ragspine.cli_errors import known_errors
from ragspine.cli_options import (
    DEMO_HOME,
    LEVEL,
    clearance_option,
    corpus_option,
    db_option,
    faq_option,
    index_dir_option,
    live_options,
    page_progress,
    profile_option,
    provider_option,
    say,
)
from ragspine.evals.run.cli import live_from
from ragspine.ingestion.cli_cache import cache_from, no_cache_option
from ragspine.ingestion.limit_options import file_limit_options, limits_from
from ragspine.store_location import Location, check_one_transaction


def _to_date(value: datetime | None) -> date | None:
    return value.date() if value else None


@click.group()
@click.version_option(package_name="ragspine")
def main() -> None:
    """RAGSpine: answers about a company's numbers and documents, never an invented number."""
    warnings.formatwarning = _one_line


def _one_line(message: Warning | str, category: type[Warning], *_: object, **__: object) -> str:
    """A warning as a user reads it: one ``warning:`` line, no source line or file position."""
    return f"warning: {message}\n"


@main.command()
@click.argument("question")
@provider_option()
@db_option()
@click.option(
    "--reference-date",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="the day 'last year' is relative to [default: today]",
)
@corpus_option(read=True)
@index_dir_option()
@clearance_option()
@click.option("--rerank", is_flag=True, help="let the model reorder retrieved passages")
@profile_option()
@faq_option("a FAQ cache: a vetted item answers first, as over HTTP")
@click.option("--json", "as_json", is_flag=True, help="print the answer record as JSON")
@live_options
@known_errors
def ask(
    question: str,
    provider: str,
    db: Path,
    reference_date: datetime | None,
    corpus: Path,
    clearance: str,
    rerank: bool,
    profile: Path | None,
    faq: Path | None,
    as_json: bool,
    **live_flags: Any,
) -> None:
    """Answer QUESTION, with the source of every number and passage."""
    from ragspine.agent.question import validate_question
    from ragspine.engine import Engine, profile_override

    question = validate_question(question)  # before anything is opened
    live = live_from(live_flags)
    say(profile_override(db, profile))
    with Engine.open(db, corpus, profile=profile, provider=provider, live=live, faq=faq) as engine:
        result = engine.ask(
            question, reference_date=_to_date(reference_date), clearance=clearance, rerank=rerank
        )
    if as_json:
        click.echo(result.to_record().model_dump_json(indent=2))
        return
    click.echo(result.answer)
    if result.sources:
        click.echo("\n来源 / sources:")
        for src in result.sources:
            click.echo(f"  - {src['doc']} · {src['locator']}")
    if result.faq_id is not None:
        click.echo(f"\n(FAQ item {result.faq_id}: a vetted answer)")


@main.command()
@db_option(demo=True)
@corpus_option(demo=True)
@known_errors
def fixtures(db: Location, corpus: Location) -> None:
    """Build the ACME demo fact store and document corpus (each replaced atomically), in
    data/demo/ apart from your own stores: RAGSPINE_HOME=data/demo points commands at it.

    The demo's decks and workbook are written as real .pptx/.xlsx files beside the database
    (demo_files/; data/demo/demo_files/ for a PostgreSQL one) and the fact store is built by
    ingesting them. They are the same bytes on every build (fixed dates), so a rebuild changes
    no source hash and no cassette key.
    """
    from ragspine.demo.corpus import build_demo_corpus
    from ragspine.demo.facts import build_demo_store

    files = (db.parent if isinstance(db, Path) else DEMO_HOME) / "demo_files"
    n = build_demo_store(db, files=files)
    click.echo(f"wrote {n} demo facts to {db}, ingested from the decks and workbook in {files}")
    report = build_demo_corpus(corpus)
    chunks = sum(f.chunks for f in report.files)
    click.echo(f"wrote {len(report.files)} demo documents ({chunks} chunks) to {corpus}")


@main.group()
def facts() -> None:
    """The fact table: load another company's numbers."""


@facts.command("load")
@click.argument("csv_file", type=click.Path(path_type=Path))
@db_option()
@profile_option("check codes and units against this profile; the store remembers it")
@known_errors
def facts_load(csv_file: Path, db: Path, profile: Path | None) -> None:
    """Add the facts in CSV_FILE to the fact table: all of them, or none if one is bad."""
    from ragspine.engine import load_facts

    done = load_facts(csv_file, db, profile=profile)
    say(done.note)
    click.echo(f"loaded {done.loaded} facts from {csv_file}; {done.total} facts in {db}")


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@corpus_option()
@index_dir_option()
@db_option()
@profile_option("maps table rows to metrics; the store remembers it")
@click.option(
    "--sensitivity",
    type=LEVEL,
    default=None,
    help="override the documents' own sensitivity (files without front matter are INTERNAL)",
)
@click.option(
    "--period", default=None, help="every file's period (FY2020, 2020H1, 2020Q3), over what its "
    "cover or front matter says [default: read from the cover]",
)  # fmt: skip
@click.option(
    "--report", "report_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="write every value not stored and every conflict, with locators, as JSON",
)  # fmt: skip
@file_limit_options
@no_cache_option
@known_errors
def ingest(
    paths: tuple[Path, ...],
    corpus: Path,
    db: Path,
    profile: Path | None,
    sensitivity: str | None,
    period: str | None,
    report_file: Path | None,
    no_cache: bool,
    **limit_flags: Any,
) -> None:
    """Add documents to the corpus and their tables' figures to the fact table.

    .md and .txt become passages; .pdf, .xlsx and .pptx become passages (page=N,para=M,
    slide=N,para=M) and facts (page=N,table=K,row=…,col=…), their rows mapped to metrics through
    the profile. A changed file replaces its passages and facts (the old facts are kept in the
    fact history); an unchanged one is skipped by content hash; a file that cannot be read
    changes nothing, and neither does one over a limit (--max-*: size, pages, a zip's inflated
    size and ratio, seconds to read; each file is read in a child process killed at the limit).
    Each file's line says its period and what was not stored (rows no metric names, conflicts
    with another reading); --report FILE.json lists every one with its locator.
    A file read before (the same bytes) is taken from the cache of read documents, under the
    same limits (--no-cache reads it again).
    """
    from ragspine.ingestion.doc_period import period_label
    from ragspine.ingestion.pipeline import FileReport, ingest_paths_all
    from ragspine.ingestion.report import check_report_path, details, headline, write_report
    from ragspine.profile.stored import GivenProfile, fill_profile
    from ragspine.retrieval.chunking.chunk_store import ChunkStore
    from ragspine.storage.fact_store import FactStore

    given = GivenProfile(profile) if profile is not None else None  # a bad one creates no store
    check_one_transaction(db, corpus)  # before either store is made
    label = period_label(period) if period is not None else None
    if report_file is not None:
        check_report_path(report_file)
    progress, cache = page_progress(), cache_from(no_cache)
    done: list[FileReport] = []

    def show(r: FileReport) -> None:
        done.append(r)
        for line in [headline(r), *details(r)]:
            click.echo(line)

    with ChunkStore(corpus) as chunks, FactStore(db) as facts:
        chunks.init_schema()
        facts.init_schema()
        prof, note = fill_profile(facts, given)
        say(note)
        complete = False
        try:
            report = ingest_paths_all(
                list(paths), chunks=chunks, facts=facts, profile=prof, sensitivity=sensitivity,
                progress=progress, on_file=show, limits=limits_from(limit_flags), period=label,
                cache=cache,
            )  # fmt: skip
            complete = True
        finally:  # the files stored before an error are reported too
            if report_file is not None:
                write_report(report_file, done, complete=complete)
        total = chunks.count()
    click.echo(
        f"{report.count('added')} added, {report.count('replaced')} replaced, "
        f"{report.count('unchanged')} unchanged; {total} chunks in {corpus}"
        + ("; index rebuilt" if report.index_rebuilt else "")
        + (f"; report: {report_file}" if report_file is not None else "")
    )
    if report_file is None and any(r.unmapped or r.conflicts for r in done):
        click.echo("every value not stored, with its locator: --report FILE.json")


DEMO_QUESTIONS = (
    "中国内地FY2024的REVENUE是多少",
    "中国内地FY2025的REVENUE是多少",
    "香港2023和2024年的营收分别是多少?",
    "集团的毛利率是多少?",
    "台灣2024年的門店數是多少?",
    "What was Hong Kong online revenue in FY2024?",
    "中国内地FY2024是多少?",
    "竞安中国FY2024的收入是多少?",
    "为什么中国内地FY2024收入下降?",
    "个人信息出境有什么要求?",
    "What did the board decide about Project Evergreen?",
)


@main.command()
@db_option(demo=True)
@corpus_option(demo=True, read=True)
@click.option(
    "--reference-date",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default="2025-06-30",
    show_default=True,
)
@known_errors
def demo(db: Path, corpus: Path, reference_date: datetime) -> None:
    """Run the demo questions end to end with the offline MockProvider."""
    from ragspine.engine import Engine

    ref = reference_date.date()
    with Engine.open(db, corpus) as engine:
        for i, q in enumerate(DEMO_QUESTIONS, start=1):
            r = engine.ask(q, reference_date=ref)
            click.echo(f"[{i}/{len(DEMO_QUESTIONS)}] {q}")
            click.echo(
                f"  route={r.route} clarification={r.clarification.mode} "
                f"guard={r.trace.fabrication_guard_triggered}"
            )
            for line in r.answer.splitlines():
                click.echo(f"  | {line}")


def _register_eval() -> None:
    from ragspine.evals.cli import eval_group
    from ragspine.ingestion.cli_cache import cache_group
    from ragspine.ingestion.cli_documents import documents
    from ragspine.ingestion.cli_profile import profile_group
    from ragspine.ingestion.cli_worker import worker
    from ragspine.service.cli import faq
    from ragspine.service.cli_keys import keys
    from ragspine.service.cli_serve import serve
    from ragspine.service.cli_store import store_group

    main.add_command(eval_group)
    main.add_command(store_group)
    for command in (serve, keys, faq, profile_group, worker, documents, cache_group):
        main.add_command(command)


_register_eval()

if __name__ == "__main__":  # pragma: no cover
    main()
