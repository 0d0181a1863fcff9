"""`ragspine keys new|disable|enable|list`: API keys, each with a clearance, only their hashes
kept. A running service re-reads the file, so a change counts from the next request.

When --db (or RAGSPINE_DB) is a PostgreSQL URL the keys are that database's (``keys_pg``),
shared by every replica; --file is then not read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ragspine.cli_errors import known_errors
from ragspine.cli_options import LEVEL, STORE, shown_default, store_default
from ragspine.store_location import PgLocation

_FILE_OPTION = click.option(
    "--file",
    "path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=store_default("keys", Path("data/keys.yaml")),
    show_default=shown_default("keys", Path("data/keys.yaml")),
)
_DB_OPTION = click.option(
    "--db",
    type=STORE,
    default=None,
    envvar="RAGSPINE_DB",
    show_envvar=True,
    help="a postgresql:// URL: the keys are that database's (a file path here is ignored)",
)


def KEYS_FILE(command: Any) -> Any:
    return _FILE_OPTION(_DB_OPTION(command))


def _in_db(db: object) -> Any:
    """The database's keys when ``db`` is PostgreSQL, else None (the keys file)."""
    if not isinstance(db, PgLocation):
        return None
    from ragspine.service.keys_pg import PgKeys

    store = PgKeys(db)
    store.init_schema()
    return store


@click.group()
def keys() -> None:
    """API keys: each carries a clearance; only its hash is kept."""


@keys.command("new")
@click.argument("name")
@click.option(
    "--clearance",
    type=LEVEL,
    required=True,
    help="what the key may see (never from RAGSPINE_CLEARANCE: a key's clearance is chosen)",
)
@KEYS_FILE
@known_errors
def keys_new(name: str, clearance: str, path: Path, db: object) -> None:
    """Make a key for NAME; it is printed once, only its hash is stored."""
    from ragspine.service.keys import new_key

    store = _in_db(db)
    if store is not None:
        with store:
            key, path = store.new_key(name, clearance), store.path
    else:
        key = new_key(path, name, clearance)
    click.echo(key)
    click.echo(f"stored the hash of {name}'s {clearance} key in {path}; keep the key", err=True)


@keys.command("disable")
@click.argument("name")
@KEYS_FILE
@known_errors
def keys_disable(name: str, path: Path, db: object) -> None:
    """Refuse NAME's key (401) from its next request on (on PostgreSQL, once the replicas hear
    of it: milliseconds); a running service needs no restart."""
    _set_disabled(path, db, name, True)


@keys.command("enable")
@click.argument("name")
@KEYS_FILE
@known_errors
def keys_enable(name: str, path: Path, db: object) -> None:
    """Accept a disabled key again."""
    _set_disabled(path, db, name, False)


def _set_disabled(path: Path, db: object, name: str, disabled: bool) -> None:
    from ragspine.service.keys import set_disabled

    store = _in_db(db)
    if store is not None:
        with store:
            store.set_disabled(name, disabled)
        click.echo(f"{'disabled' if disabled else 'enabled'} {name}'s key in {store.path}")
        return
    set_disabled(path, name, disabled)
    click.echo(f"{'disabled' if disabled else 'enabled'} {name}'s key in {path}")


@keys.command("list")
@KEYS_FILE
@known_errors
def keys_list(path: Path, db: object) -> None:
    """The keys: name, clearance, state (never a key or its hash)."""
    from tabulate import tabulate

    from ragspine.service.keys import load_keys

    store = _in_db(db)
    if store is not None:
        with store:
            ring = store.ring()
    else:
        ring = load_keys(path, environ={})
    rows = [[e.name, e.clearance, "disabled" if e.disabled else "enabled"] for e in ring.entries]
    headers = ["name", "clearance", "state"]
    click.echo(tabulate(rows, headers=headers, tablefmt="github") if rows else "no keys")
