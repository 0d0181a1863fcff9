"""The project's exception tree, in one place so callers can catch by layer.

::

    RagSpineError
    ├── ConfigError              a file the user wrote is wrong (names file and field)
    │   ├── ProfileError         domain profile YAML
    │   ├── ProviderConfigError  missing SDK, missing key, unknown provider name
    │   ├── CassetteMissError    a strict cassette has no recording of a request
    │   ├── KeysError            the API keys file or RAGSPINE_API_KEYS; no key at all
    │   ├── FaqError             a FAQ item that cannot be stored or would never be served
    │   ├── GoldenError          a golden file (names file, line, case and field)
    │   ├── AttackFileError      a scripted attack file (names file, line, entry and field)
    │   ├── FilterError          an eval run's --filter expression
    │   ├── RecordError          a run folder: missing, incomplete or incompatible
    │   ├── PricesError          a price table
    │   └── ThresholdsError      a gate's thresholds file
    ├── InvalidQuestionError     empty, too long, or control characters
    ├── IngestError              a document cannot be read or validated (names the file)
    │   └── ReadError            a file a reader cannot read: corrupt, encrypted, empty
    ├── FactFileError            a facts CSV is wrong (names file, line and column)
    ├── StoreError               a store (SQLite file or PostgreSQL database)
    │   ├── StoreNotFoundError   the database file (or PostgreSQL schema) does not exist
    │   ├── MigrationError       schema history is inconsistent
    │   ├── DuplicateFactError   a fact with the same dimensions already exists
    │   ├── IndexBusyError       another process is rebuilding the search index (not waited for)
    │   ├── CopyError            `store migrate`: the sides' columns differ, the target holds rows
    │   └── DatabaseError        a statement the database refused (either backend, one tree)
    │       ├── ConstraintError        a unique key, check or reference was broken
    │       └── StoreUnavailableError  locked, busy, unreachable: worth trying again later
    ├── ProviderError            network / API / timeout / malformed reply from an LLM
    │                            (.kind: rate_limit, overloaded, server, … .status: HTTP)
    └── ProviderMisuseError      a provider was called in a way it cannot serve (a bug)

``ProviderError`` is the only one the agent turns into an honest degrade; every other
error is a caller or program error and propagates. Every subclass in the package is drawn
here (``tests/test_errors.py`` checks the drawing against the classes), and defined here unless
it needs more than this module.
"""

from __future__ import annotations


def first_problem(exc: object, *, root: str = "<root>") -> str:
    """``field.path: message (and N more)`` from a pydantic ValidationError: one clear line."""
    errors = exc.errors()  # type: ignore[attr-defined]
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or root
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first['msg']}{more}"


class RagSpineError(Exception):
    """Base of every error this package raises on purpose."""


class ConfigError(RagSpineError):
    """A user-written file or setting is invalid."""


class ProfileError(ConfigError):
    """The domain profile could not be loaded or validated."""


class ProviderConfigError(ConfigError):
    """A provider cannot be built: missing SDK, missing key, unknown name."""


class CassetteMissError(ConfigError):
    """Strict mode met a request that was never recorded (names the case and the key)."""


class KeysError(ConfigError):
    """The keys file or variable is invalid, or holds no key; names the file and the entry."""


class FaqError(ConfigError):
    """A FAQ item that cannot be stored or would never be served; names the item and field."""


class GoldenError(ConfigError):
    """A golden file is invalid; the message names the file, line, case and field."""


class AttackFileError(ConfigError):
    """A scripted attack file is invalid; the message names the file, line, entry and field."""


class FilterError(ConfigError):
    """A --filter expression could not be parsed."""


class RecordError(ConfigError):
    """A run folder is missing, incomplete or written by an incompatible version."""


class PricesError(ConfigError):
    """A price table is invalid; the message names the file and the field."""


class ThresholdsError(ConfigError):
    """The thresholds file is invalid; the message names the file and the field."""


class InvalidQuestionError(RagSpineError):
    """The question is not acceptable input (empty, too long, control characters)."""


class IngestError(RagSpineError):
    """A document could not be ingested; the message names the file and the field."""


class ReadError(IngestError):
    """A file that cannot be read: corrupt, encrypted, empty. Names the file and where."""


class FactFileError(RagSpineError):
    """A facts file cannot be read or a row is invalid (names file, line and column)."""


class StoreError(RagSpineError):
    """A store failed or holds something it should not."""


class StoreNotFoundError(StoreError):
    """The database file does not exist and the caller asked not to create it."""


class MigrationError(StoreError):
    """Applied migrations disagree with the migrations shipped in the package."""


class DuplicateFactError(StoreError):
    """A fact with the same dimensions is already stored; nothing was overwritten."""


class IndexBusyError(StoreError):
    """Another process is rebuilding the search index, and the caller asked not to wait."""


class CopyError(StoreError):
    """The two sides cannot be copied between (their columns differ, the target holds rows)."""


class DatabaseError(StoreError):
    """A statement SQLite or PostgreSQL refused, converted at the storage seam
    (``ragspine.storage.db``) so the stores never catch a driver's own exceptions."""


class ConstraintError(DatabaseError):
    """A unique key, a check or a reference was broken (SQLite's IntegrityError, SQLSTATE 23)."""


class StoreUnavailableError(DatabaseError):
    """The database is locked, busy or out of reach (SQLite's OperationalError; SQLSTATE 08,
    40, 53, 57): nothing is wrong with the statement, and it may work later."""


# Why a provider call failed, as an eval run counts them: an outage is not a quality result.
PROVIDER_ERROR_KINDS = (
    "rate_limit",  # 429: slow down
    "overloaded",  # 529: the API is overloaded
    "server",  # another 5xx
    "timeout",  # no answer in time
    "connection",  # no connection
    "malformed",  # an answer that is not a message
    "other",  # anything else (400, 401, 403, 404 …)
)


class ProviderError(RagSpineError):
    """An LLM call failed for a reason outside the program: network, API, timeout, bad body.

    ``kind`` is one of ``PROVIDER_ERROR_KINDS``; ``status`` the HTTP status when there was one.
    """

    def __init__(self, message: str, *, kind: str = "other", status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind if kind in PROVIDER_ERROR_KINDS else "other"
        self.status = status


class ProviderMisuseError(RagSpineError):
    """A provider was driven in a way it does not support; a programming error, never degraded."""
