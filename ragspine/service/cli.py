"""`ragspine faq …`: thin commands over the FAQ cache.

Imports happen inside the commands, so `ragspine --help` stays fast.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import click

from ragspine.cli_errors import known_errors
from ragspine.cli_options import (
    LEVEL,
    STORE,
    corpus_option,
    db_option,
    profile_option,
    say,
    shown_default,
    store_default,
)
from ragspine.sensitivity import Clearance

FAQ_OPTION = click.option(
    "--faq",
    "faq_path",
    type=STORE,
    default=store_default("faq", Path("data/faq.db")),
    show_default=shown_default("faq", Path("data/faq.db")),
    envvar="RAGSPINE_FAQ",
    help="the FAQ cache: a SQLite file or a postgresql:// URL",
)


@click.group()
def faq() -> None:
    """The FAQ cache: vetted answers served before the engine is asked."""


def _cache(path: Path) -> Any:
    from ragspine.faq.faq_cache import FaqCache

    cache = FaqCache(path)
    cache.init_schema()
    return cache


@faq.command("add")
@click.option("--question", "questions", multiple=True, required=True, help="repeat for variants")
@click.option("--answer", required=True)
@click.option("--source", "sources", multiple=True, required=True, help="DOC#LOCATOR")
@click.option("--valid-from", type=click.DateTime(formats=["%Y-%m-%d"]), default=None)
@click.option("--valid-until", type=click.DateTime(formats=["%Y-%m-%d"]), default=None)
@click.option("--sensitivity", type=LEVEL, default=Clearance.INTERNAL, show_default=True)
@profile_option("checks the question can be served")
@FAQ_OPTION
@db_option()
@corpus_option()
@known_errors
def faq_add(
    questions: tuple[str, ...],
    answer: str,
    sources: tuple[str, ...],
    valid_from: datetime | None,
    valid_until: datetime | None,
    sensitivity: str,
    profile: Path | None,
    faq_path: Path,
    db: Path,
    corpus: Path,
) -> None:
    """Add a vetted item (refused if the cache could never serve its question)."""
    from ragspine.faq.faq_cache import FaqError, FaqItem

    refs = []
    for s in sources:
        doc, sep, locator = s.partition("#")
        if not sep:
            raise FaqError(f"--source {s!r}: write DOC#LOCATOR")
        refs.append({"doc": doc, "locator": locator})
    item = _item(
        FaqItem,
        {
            "questions": list(questions),
            "answer": answer,
            "sources": refs,
            "valid_from": valid_from.date() if valid_from else None,
            "valid_until": valid_until.date() if valid_until else None,
            "sensitivity": sensitivity,
        },
        "--",
    )
    item_id = _store_items([item], _profile(profile, db), faq_path, db, corpus)[0]
    click.echo(f"added FAQ item {item_id} ({len(questions)} question(s)) to {faq_path}")


@faq.command("list")
@FAQ_OPTION
@known_errors
def faq_list(faq_path: Path) -> None:
    """The items: id, state, validity, sensitivity, questions."""
    from tabulate import tabulate

    with _cache(faq_path) as cache:
        rows = [
            [
                s.id,
                "enabled" if s.item.enabled else "disabled",
                f"{s.item.valid_from or '—'} … {s.item.valid_until or '—'}",
                s.item.sensitivity,
                " | ".join(s.item.questions),
            ]
            for s in cache.items()
        ]
    headers = ["id", "state", "valid", "sensitivity", "questions"]
    click.echo(tabulate(rows, headers=headers, tablefmt="github") if rows else "no items")


@faq.command("disable")
@click.argument("item_id", type=int)
@FAQ_OPTION
@known_errors
def faq_disable(item_id: int, faq_path: Path) -> None:
    """Stop serving an item (kept, so it can be enabled again)."""
    _toggle(faq_path, item_id, False)


@faq.command("enable")
@click.argument("item_id", type=int)
@FAQ_OPTION
@known_errors
def faq_enable(item_id: int, faq_path: Path) -> None:
    """Serve a disabled item again."""
    _toggle(faq_path, item_id, True)


def _toggle(path: Path, item_id: int, on: bool) -> None:
    from ragspine.faq.faq_cache import FaqError

    with _cache(path) as cache:
        if not cache.set_enabled(item_id, on):
            raise FaqError(f"{path}: no FAQ item {item_id}")
    click.echo(f"{'enabled' if on else 'disabled'} FAQ item {item_id}")


@faq.command("import")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@profile_option("checks the questions can be served")
@FAQ_OPTION
@db_option()
@corpus_option()
@known_errors
def faq_import(file: Path, profile: Path | None, faq_path: Path, db: Path, corpus: Path) -> None:
    """Add every item of a YAML file (a list of items): all of them, or none."""
    import yaml

    from ragspine.faq.faq_cache import FaqError, FaqItem

    try:
        data = yaml.safe_load(file.read_text("utf-8"))
    except yaml.YAMLError as exc:
        raise FaqError(f"{file}: not valid YAML: {' '.join(str(exc).split())}") from exc
    if not isinstance(data, list):
        raise FaqError(f"{file}: expected a list of items")
    items = [_item(FaqItem, raw, f"{file}: item {i + 1}: ") for i, raw in enumerate(data)]
    try:
        ids = _store_items(items, _profile(profile, db), faq_path, db, corpus)
    except FaqError as exc:
        raise FaqError(f"{file}: {exc}") from exc
    click.echo(f"imported {len(ids)} FAQ item(s) from {file} into {faq_path}")


def _store_items(items: list[Any], profile: Any, faq_path: Path, db: Path, corpus: Path) -> Any:
    """Items held to the stores they cite (sources that exist, a label at least each source's,
    numbers the sources state), then stored: all or none. The stores are opened only for items
    the cache could serve."""
    from datetime import date

    from ragspine.faq.faq_cache import screen
    from ragspine.faq.vetting import Library
    from ragspine.retrieval.chunking.chunk_store import ChunkStore
    from ragspine.storage.fact_store import FactStore

    screen(items, profile, date.today())
    with FactStore(db, create=False) as facts:
        facts.init_schema()
        held = not isinstance(corpus, Path) or corpus.is_file()  # a database, or a file there
        chunks = ChunkStore(corpus, create=False) if held else None
        try:
            if chunks is not None:
                chunks.init_schema()
            with _cache(faq_path) as cache:
                return cache.add_many(items, profile, library=Library(facts, chunks))
        finally:
            if chunks is not None:
                chunks.close()


def _item(model: Any, raw: object, where: str) -> Any:
    from pydantic import ValidationError

    from ragspine.errors import first_problem
    from ragspine.faq.faq_cache import FaqError

    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise FaqError(f"{where}{first_problem(exc)}") from exc


def _profile(path: Path | None, db: Path) -> Any:
    """The profile given, else the one the fact store remembers (said once if they differ)."""
    from ragspine.engine import profile_in, profile_override
    from ragspine.profile import load_profile

    say(profile_override(db, path))
    return profile_in(db, load_profile(path) if path else None)
