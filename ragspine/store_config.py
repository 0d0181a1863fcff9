"""Where the stores live, named once for every command instead of on each.

A path a command needs (``db``, ``corpus``, ``faq``, ``keys``, ``profile``) comes from the first
of these that names it:

    1. its flag (``--db``)
    2. its environment variable (``RAGSPINE_DB``)
    3. ``ragspine.toml``: the one in the current folder, else the one in ``$RAGSPINE_HOME``
    4. ``$RAGSPINE_HOME``: a folder holding facts.db, chunks.db (its index, chunks.index/,
       beside it), faq.db, keys.yaml and, if there, profile.yaml
    5. the built-in default (data/fact_metric.db, data/chunks.db, …)

Click does 1, 2 and 5; this module does 3 and 4 (``configured``). A relative path in the file is
read from the file's folder, so the file can move with its stores; ``db``, ``corpus`` and ``faq``
may be a ``postgresql://`` URL instead (``store_location``), kept as written. A key the file
does not know is an error naming the file and the key: a misspelt ``dbb`` must not fall back to
another store.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from ragspine.errors import ConfigError
from ragspine.store_location import PgLocation, parse_location

HOME_ENV = "RAGSPINE_HOME"
CONFIG_FILE = "ragspine.toml"
# The stores' file names in RAGSPINE_HOME; profile.yaml counts only when it is there (a store
# remembers its profile, so a home needs none).
HOME_FILES = {
    "db": "facts.db",
    "corpus": "chunks.db",
    "faq": "faq.db",
    "keys": "keys.yaml",
    "profile": "profile.yaml",
}


class StoreConfig(BaseModel):
    """``ragspine.toml``: every key optional, no other key allowed."""

    model_config = ConfigDict(extra="forbid")

    db: Path | PgLocation | None = None
    corpus: Path | PgLocation | None = None
    faq: Path | PgLocation | None = None
    keys: Path | None = None
    profile: Path | None = None


def home() -> Path | None:
    """``$RAGSPINE_HOME``; an empty variable counts as unset."""
    value = os.environ.get(HOME_ENV)
    return Path(value).expanduser() if value else None


def config_file() -> Path | None:
    """The ``ragspine.toml`` in force: the current folder's, else ``$RAGSPINE_HOME``'s."""
    folder = home()
    for candidate in (Path(CONFIG_FILE), folder / CONFIG_FILE if folder else None):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


def read_config(path: Path) -> StoreConfig:
    """A config file, its relative paths read from its own folder."""
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    for name in ("db", "corpus", "faq"):  # a URL stays one; a path stays a path
        if isinstance(data.get(name), str):
            data[name] = parse_location(data[name], flag=f"{path}: {name}")
    try:
        config = StoreConfig.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = str(first["loc"][0])  # the key itself, not the union member it failed as
        if first["type"] == "extra_forbidden":
            known = ", ".join(StoreConfig.model_fields)
            raise ConfigError(f"{path}: unknown key {key!r} (known: {known})") from exc
        raise ConfigError(f"{path}: {key}: a path is a string, got {first['input']!r}") from exc
    base = path.parent
    return config.model_copy(
        update={
            name: base / value.expanduser()
            for name, value in config.model_dump().items()
            if isinstance(value, Path)
        }
    )


def configured(name: str, *, only_if_there: bool = False) -> Path | PgLocation | None:
    """The path ``ragspine.toml`` gives ``name``, else ``$RAGSPINE_HOME``'s file for it, else
    None (the command's built-in default). ``only_if_there``: a path to a file that does not
    exist yet counts as none (a FAQ cache a command only consults, which `faq add` creates)."""
    path = config_file()
    found = getattr(read_config(path), name) if path is not None else None
    folder = home()
    if found is None and folder is not None:
        found = folder / HOME_FILES[name]
        if name == "profile" and not found.is_file():
            found = None
    if isinstance(found, Path) and only_if_there and not found.exists():
        return None
    return found
