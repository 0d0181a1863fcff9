"""`ragspine keys new|disable|enable|list`: API keys, each with a clearance, only their hashes
kept. A running service re-reads the file, so a change counts from the next request.
"""

from __future__ import annotations

from pathlib import Path

import click

from ragspine.cli_errors import known_errors
from ragspine.cli_options import LEVEL, shown_default, store_default

KEYS_FILE = click.option(
    "--file",
    "path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=store_default("keys", Path("data/keys.yaml")),
    show_default=shown_default("keys", Path("data/keys.yaml")),
)


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
def keys_new(name: str, clearance: str, path: Path) -> None:
    """Make a key for NAME; it is printed once, only its hash is stored."""
    from ragspine.service.keys import new_key

    key = new_key(path, name, clearance)
    click.echo(key)
    click.echo(f"stored the hash of {name}'s {clearance} key in {path}; keep the key", err=True)


@keys.command("disable")
@click.argument("name")
@KEYS_FILE
@known_errors
def keys_disable(name: str, path: Path) -> None:
    """Refuse NAME's key (401) from its next request on; a running service needs no restart."""
    _set_disabled(path, name, True)


@keys.command("enable")
@click.argument("name")
@KEYS_FILE
@known_errors
def keys_enable(name: str, path: Path) -> None:
    """Accept a disabled key again."""
    _set_disabled(path, name, False)


def _set_disabled(path: Path, name: str, disabled: bool) -> None:
    from ragspine.service.keys import set_disabled

    set_disabled(path, name, disabled)
    click.echo(f"{'disabled' if disabled else 'enabled'} {name}'s key in {path}")


@keys.command("list")
@KEYS_FILE
@known_errors
def keys_list(path: Path) -> None:
    """The keys: name, clearance, state (never a key or its hash)."""
    from tabulate import tabulate

    from ragspine.service.keys import load_keys

    rows = [
        [e.name, e.clearance, "disabled" if e.disabled else "enabled"]
        for e in load_keys(path, environ={}).entries
    ]
    headers = ["name", "clearance", "state"]
    click.echo(tabulate(rows, headers=headers, tablefmt="github") if rows else "no keys")
