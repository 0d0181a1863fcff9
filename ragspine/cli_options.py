"""The options several commands share, declared once: each with its environment variable and
its default, so a command that takes one takes it the same way and the variable works for it too.

    --db            RAGSPINE_DB            data/fact_metric.db (the demo's: data/demo/facts.db)
    --corpus        RAGSPINE_CORPUS        data/chunks.db (the demo's: data/demo/chunks.db);
                                           --db's database when that is a PostgreSQL URL

--db and --corpus take a path, ``sqlite:PATH`` or ``postgresql://USER@HOST/DATABASE``
(``store_location``): one PostgreSQL database holds every store, so a corpus not named
(flag or variable) is the --db database when --db is one.
    --profile       RAGSPINE_PROFILE       the one the fact store remembers, else the ACME demo's
    --faq           RAGSPINE_FAQ           none (``faq`` commands: data/faq.db)
    --clearance     RAGSPINE_CLEARANCE     INTERNAL
    --provider      RAGSPINE_PROVIDER      mock
    --index-dir     RAGSPINE_INDEX_DIR     a PostgreSQL corpus's index folder on this host
    --base-url      RAGSPINE_BASE_URL      the SDK's (which reads ANTHROPIC_BASE_URL)
    --timeout       RAGSPINE_TIMEOUT       the SDK's (60 s)
    --max-retries   RAGSPINE_MAX_RETRIES   the SDK's (2)
    --max-file-mb, --max-pages, --max-unzipped-mb, --max-ratio, --max-seconds: a file's limits
                    RAGSPINE_MAX_FILE_MB … (for `ingest` and `worker`), declared the same way
                    beside their defaults, in ``ingestion.limit_options``

A flag on the command line wins over its variable; an empty variable counts as unset. Between
the variable and the built-in default come ragspine.toml and RAGSPINE_HOME (``store_config``):
the stores' paths are named once, for every command but the demo's (``demo=True``: its own
stores, ``data/demo/``, never the user's). The
cassette options are one run's and have no variable. ``keys new --clearance`` (the clearance a
new key carries) is not this ``--clearance`` and never comes from the environment: a shell's
``RAGSPINE_CLEARANCE`` must not mint a RESTRICTED key. Nor is ``serve --timeout`` (its HTTP
limit) this ``--timeout``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ragspine.errors import ConfigError
from ragspine.sensitivity import DEFAULT_CLEARANCE, LEVELS
from ragspine.store_config import HOME_FILES, configured
from ragspine.store_location import INDEX_ENV, Location, PgLocation, parse_location

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_DB = Path("data/fact_metric.db")
DEFAULT_CORPUS = Path("data/chunks.db")
# The ACME demo's stores (`fixtures`, `demo`), apart from the user's: a folder laid out as a
# RAGSPINE_HOME, so `RAGSPINE_HOME=data/demo` points every command at the demo.
DEMO_HOME = Path("data/demo")
DEMO_DB = DEMO_HOME / HOME_FILES["db"]
DEMO_CORPUS = DEMO_HOME / HOME_FILES["corpus"]

LEVEL = click.Choice(LEVELS)  # a sensitivity or a clearance: PUBLIC, INTERNAL or RESTRICTED
_FILE = click.Path(dir_okay=False, path_type=Path)


if TYPE_CHECKING:  # generic from click 8.2 on; the base at run time on 8.1 too
    _ParamType = click.ParamType[Location]
else:
    _ParamType = click.ParamType


class StoreLocation(_ParamType):
    """A store's location: a path, ``sqlite:PATH`` or a PostgreSQL URL. A bad one is the one
    ``error:`` line naming the flag (and never the URL's password)."""

    name = "path|url"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Location:
        flag = f"--{param.name}" if param is not None and param.name else "--db"
        try:
            return parse_location(value, flag=flag)
        except ConfigError as exc:
            raise ConfigFileError(str(exc)) from None


STORE = StoreLocation()


def _corpus_of(ctx: click.Context, param: click.Parameter, value: Location) -> Location:
    """A corpus not named (flag or variable) is --db's database when that is PostgreSQL: one
    database holds both stores."""
    from click.core import ParameterSource

    source = ctx.get_parameter_source(param.name or "corpus")
    named = source in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)
    db = ctx.params.get("db")
    if not named and isinstance(db, PgLocation):
        return db
    return value


def db_option(*, demo: bool = False) -> Callable[[F], F]:
    """``demo=True``: the demo's own store (data/demo/), never the user's default, ragspine.toml's
    or RAGSPINE_HOME's (the demo builder replaces its store whole, so it must never land on a
    store the user fills)."""
    return click.option(
        "--db",
        type=STORE,
        default=DEMO_DB if demo else store_default("db", DEFAULT_DB),
        show_default=True if demo else shown_default("db", DEFAULT_DB),
        envvar="RAGSPINE_DB",
        show_envvar=True,
        is_eager=True,  # read before --corpus, which may be its database
        help="the fact store: a SQLite file (or sqlite:PATH) or a postgresql:// URL",
    )


def corpus_option(*, demo: bool = False, read: bool = False) -> Callable[[F], F]:
    """``demo=True`` as for ``db_option``. ``read``: a command that reads the corpus (``ask``,
    ``serve``, ``eval run``…). A corpus it is given by name (the flag or RAGSPINE_CORPUS) must
    exist: a mistyped path is one ``error:`` line and exit 1, never an answer without documents.
    The default may be absent, and so may the one ragspine.toml or RAGSPINE_HOME names (as their
    FAQ cache counts once it exists): a store of facts alone, or a home or a service set up
    before the first ``ingest``, whose engine wires the corpus at the first question after it is
    built (``Engine.open``); a document question meanwhile says there is none."""
    default = DEMO_CORPUS if demo else store_default("corpus", DEFAULT_CORPUS)
    shown = True if demo else shown_default("corpus", DEFAULT_CORPUS)
    if not read:
        return click.option(
            "--corpus", type=STORE, default=default, show_default=shown,
            envvar="RAGSPINE_CORPUS", show_envvar=True, callback=_corpus_of,
            help="the document chunk store (its index beside it; a PostgreSQL corpus's in a "
            "local folder); --db's database when that is a postgresql:// URL",
        )  # fmt: skip
    return click.option(
        "--corpus", type=STORE, default=default, show_default=shown,
        envvar="RAGSPINE_CORPUS", show_envvar=True, callback=_named_corpus_exists,
        help="the document chunk store (its index beside it); one this flag or its variable "
        "names must exist; the default (or ragspine.toml's, $RAGSPINE_HOME's), missing: "
        "document questions say there is none; --db's database when that is a postgresql:// "
        "URL",
    )  # fmt: skip


def _named_corpus_exists(ctx: click.Context, param: click.Parameter, value: Location) -> Location:
    from click.core import ParameterSource

    value = _corpus_of(ctx, param, value)
    if isinstance(value, PgLocation):
        return value  # a database: whether its corpus is there is known once it is opened
    source = ctx.get_parameter_source(param.name or "corpus")
    named = source in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)
    if named and not value.is_file():
        via = "--corpus" if source is ParameterSource.COMMANDLINE else "RAGSPINE_CORPUS"
        what = "a folder, not a corpus file" if value.is_dir() else "no such corpus"
        click.echo(
            f"error: {value}: {what} ({via}); `ragspine ingest FILES --corpus {value}` builds one",
            err=True,
        )
        ctx.exit(1)
    return value


PROFILE_DEFAULT = (
    "ragspine.toml's, else $RAGSPINE_HOME/profile.yaml if there, else the one the fact store "
    "remembers, else the ACME demo"
)


def profile_option(what: str = "domain profile YAML") -> Callable[[F], F]:
    """``what`` says what the profile is for in this command; the default is said after it."""
    return click.option(
        "--profile",
        type=_FILE,
        default=store_default("profile", None),
        envvar="RAGSPINE_PROFILE",
        show_envvar=True,
        help=f"{what} [default: {PROFILE_DEFAULT}]",
    )


def faq_option(what: str = "the FAQ cache") -> Callable[[F], F]:
    """A FAQ cache the engine opens: its vetted items are the ``faq`` route, tried first. One
    named by ragspine.toml or RAGSPINE_HOME counts once it exists (`faq add` creates it)."""
    return click.option(
        "--faq",
        type=STORE,
        default=store_default("faq", None, only_if_there=True),
        envvar="RAGSPINE_FAQ",
        show_envvar=True,
        help=f"{what} [default: ragspine.toml's or $RAGSPINE_HOME/faq.db once it exists, else "
        "none]",
    )


class ConfigFileError(click.ClickException):
    """A bad ragspine.toml, met while the options are read: the one ``error:`` line every
    command's errors are, exit 1."""

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def store_default(
    key: str, builtin: Path | None, *, only_if_there: bool = False
) -> Callable[[], Location | None]:
    """An option's default, looked up when the command runs: ragspine.toml's ``key``, else
    RAGSPINE_HOME's file, else ``builtin`` (``store_config.configured``). For an option with no
    variable of its own too (``faq --faq``, ``serve --keys``, ``keys --file``)."""

    def default() -> Location | None:
        try:
            return configured(key, only_if_there=only_if_there) or builtin
        except ConfigError as exc:
            raise ConfigFileError(str(exc)) from None

    return default


def shown_default(key: str, builtin: Path) -> str:
    """What ``--help`` shows as the default of an option ``store_default`` looks up."""
    return f"ragspine.toml's {key}, else $RAGSPINE_HOME/{HOME_FILES[key]}, else {builtin}"


def max_error_rate_option(help: str) -> Callable[[F], F]:
    """How many provider errors a run may hold (``eval run`` exits 1, ``eval gate`` fails)."""
    return click.option(
        "--max-error-rate",
        type=click.FloatRange(min=0, max=1),
        default=0.1,
        show_default=True,
        help=help,
    )


def clearance_option() -> Callable[[F], F]:
    return click.option(
        "--clearance",
        type=LEVEL,
        default=DEFAULT_CLEARANCE,
        show_default=True,
        envvar="RAGSPINE_CLEARANCE",
        show_envvar=True,
        help="the caller's clearance: documents above it are never retrieved",
    )


def provider_option() -> Callable[[F], F]:
    return click.option(
        "--provider",
        default="mock",
        show_default=True,
        envvar="RAGSPINE_PROVIDER",
        show_envvar=True,
        help="mock, anthropic, anthropic:MODEL or python:MODULE:ATTR",
    )


def live_options(command: F) -> F:
    """--base-url, --timeout, --max-retries, --cassette, --cassette-mode: for `ask` and `eval run`.

    The SDK's own environment variables (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY) still apply.
    """
    options = [
        click.option(
            "--base-url",
            default=None,
            envvar="RAGSPINE_BASE_URL",
            show_envvar=True,
            help="the Messages API's URL [default: the SDK's]",
        ),
        click.option(
            "--timeout",
            type=click.FloatRange(min=0, min_open=True),
            default=None,
            envvar="RAGSPINE_TIMEOUT",
            show_envvar=True,
            help="seconds per request [default: 60]",
        ),
        click.option(
            "--max-retries",
            type=click.IntRange(min=0),
            default=None,
            envvar="RAGSPINE_MAX_RETRIES",
            show_envvar=True,
            help="the SDK's retries of a failed request [default: 2]",
        ),
        click.option(
            "--cassette",
            type=click.Path(file_okay=False, path_type=Path),
            default=None,
            help="record the model's replies in this folder, or replay them",
        ),
        click.option(
            "--cassette-mode",
            type=click.Choice(["replay", "record", "strict"]),
            default="replay",
            show_default=True,
            help="replay: recorded, else call and record in place; record: call and rewrite in "
            "place; strict: recorded only, a miss fails the run (eval run: whatever "
            "--max-error-rate). After an eval run over the whole suite, replay and record "
            "delete the files no case used (repeats past --repeat are kept)",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def page_progress() -> Callable[[str, int, int], None]:
    """Pages read of pages, on stderr: rewritten in place on a terminal; in a log, the first page
    and the last (a log shows which file a long read is on without a line per page)."""
    last: dict[str, int] = {}

    def show(name: str, done: int, total: int) -> None:
        step = max(total // 20, 1)
        live = sys.stderr.isatty()
        if done == total or (done - last.get(name, 0) >= step if live else done == 1):
            last[name] = done
            end = "\n" if done == total else "\r"
            click.echo(f"  reading {name}: page {done}/{total}{end}", err=True, nl=False)

    return show


def index_dir_option() -> Callable[[F], F]:
    """Where this host keeps a PostgreSQL corpus's search index: RAGSPINE_INDEX_DIR given as a
    flag (``store_location``), exported for the process (and a service's workers) so every
    layer that finds the index reads it the same way. The command never sees the value."""

    def export(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
        if value is not None:
            os.environ[INDEX_ENV] = str(value)

    return click.option(
        "--index-dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        expose_value=False,
        callback=export,
        help=f"this host's folder for a PostgreSQL corpus's search index; overrides {INDEX_ENV} "
        "[default: $RAGSPINE_HOME/indexes/…, else ~/.cache/ragspine/indexes/…] (a SQLite "
        "corpus keeps its index beside its file)",
    )


def say(warning: str | None) -> None:
    """A warning a command has for its user (a profile that is not the store's): one line on
    stderr, as Python's own warnings are shown (``ragspine.cli.main``)."""
    if warning:
        click.echo(f"warning: {warning}", err=True)
