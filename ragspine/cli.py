"""The `ragspine` command. Thin: parse, call the library, turn known errors into one line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import date, datetime
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from ragspine.errors import RagSpineError

DEFAULT_DB = "data/fact_metric.db"
F = TypeVar("F", bound=Callable[..., Any])


def _known_errors(func: F) -> F:
    """RagSpineError becomes `error: …` on stderr and exit 1, never a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except RagSpineError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def _to_date(value: datetime | None) -> date | None:
    return value.date() if value else None


@click.group()
@click.version_option(package_name="ragspine")
def main() -> None:
    """RAGSpine: answers about a company's numbers and documents, never an invented number."""


@main.command()
@click.argument("question")
@click.option(
    "--provider",
    default="mock",
    show_default=True,
    help="mock, anthropic, or anthropic:MODEL",
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_DB,
    show_default=True,
    envvar="RAGSPINE_DB",
    help="fact store (SQLite)",
)
@click.option(
    "--reference-date",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="the day 'last year' is relative to [default: today]",
)
@click.option("--json", "as_json", is_flag=True, help="print the whole result as JSON")
@_known_errors
def ask(
    question: str, provider: str, db: Path, reference_date: datetime | None, as_json: bool
) -> None:
    """Answer QUESTION, with the source of every number."""
    from ragspine.agent.agent import answer_question
    from ragspine.agent.llm_provider import make_provider
    from ragspine.agent.question import validate_question
    from ragspine.storage.fact_store import FactStore

    question = validate_question(question)
    ref = _to_date(reference_date)
    llm = make_provider(provider, reference_date=ref)
    with FactStore(db, create=False) as store:
        store.init_schema()
        result = answer_question(question, store, llm, reference_date=ref)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return
    click.echo(result.answer)
    if result.sources:
        click.echo("\n来源 / sources:")
        for src in result.sources:
            click.echo(f"  - {src['doc']} · {src['locator']}")


@main.command()
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_DB,
    show_default=True,
    help="where to write the demo fact store",
)
@_known_errors
def fixtures(db: Path) -> None:
    """Build the ACME demo fact store (replaced atomically if it exists)."""
    from ragspine.demo.facts import build_demo_store

    n = build_demo_store(db)
    click.echo(f"wrote {n} demo facts to {db}")


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
)


@main.command()
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_DB,
    show_default=True,
)
@click.option(
    "--reference-date",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default="2025-06-30",
    show_default=True,
)
@_known_errors
def demo(db: Path, reference_date: datetime) -> None:
    """Run the demo questions end to end with the offline MockProvider."""
    from ragspine.agent.agent import answer_question
    from ragspine.agent.llm_provider import MockProvider
    from ragspine.storage.fact_store import FactStore

    ref = reference_date.date()
    with FactStore(db, create=False) as store:
        store.init_schema()
        for i, q in enumerate(DEMO_QUESTIONS, start=1):
            r = answer_question(q, store, MockProvider(reference_date=ref), reference_date=ref)
            click.echo(f"[{i}/{len(DEMO_QUESTIONS)}] {q}")
            click.echo(
                f"  route={r.route} clarification={r.clarification.mode} "
                f"guard={r.trace.fabrication_guard_triggered}"
            )
            for line in r.answer.splitlines():
                click.echo(f"  | {line}")


if __name__ == "__main__":  # pragma: no cover
    main()
