"""A store as an older version of ragspine left it, on either backend: the store's first N
migrations (both dialects) copied into a package of their own, applied by the product's own
migration runner, so a test can fill the old schema and watch the current version upgrade it."""

from __future__ import annotations

import itertools
import os
import shutil
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

_PACKAGES = itertools.count()


def _copy_first(package: str, upto: int, into: Path) -> None:
    into.mkdir(parents=True)
    (into / "__init__.py").write_text("", "utf-8")
    names = sorted(e.name for e in resources.files(package).iterdir() if e.name[:4].isdigit())
    for name in names[:upto]:
        with resources.as_file(resources.files(package) / name) as source:
            shutil.copy(source, into / name)


def store_at(kind: Any, upto: int, folder: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``kind`` (a Store class) as it was after its migration ``upto``: a subclass whose
    migrations are the first ``upto`` shipped ones, the same files (so the same checksums)."""
    name = f"old_migrations_{os.getpid()}_{next(_PACKAGES)}"
    root = folder / "old-packages"
    _copy_first(kind.MIGRATIONS, upto, root / name)
    _copy_first(kind.MIGRATIONS + ".postgresql", upto, root / name / "postgresql")
    monkeypatch.syspath_prepend(str(root))
    return type(f"Old{kind.__name__}", (kind,), {"MIGRATIONS": name})


def toy_store(migrations: dict[str, str], folder: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A Store class whose migrations are ``migrations`` (file name → SQL, the same for both
    dialects), in its own schema: the migration runners tested on a schema of the test's own."""
    from ragspine.storage.store import Store

    name = f"toy_migrations_{os.getpid()}_{next(_PACKAGES)}"
    root = folder / "toy-packages"
    for package in (root / name, root / name / "postgresql"):
        package.mkdir(parents=True)
        (package / "__init__.py").write_text("", "utf-8")
        for file, sql in migrations.items():
            (package / file).write_text(sql, "utf-8")
    monkeypatch.syspath_prepend(str(root))
    attrs = {
        "MIGRATIONS": name, "KIND": "toy store", "HOW_TO_BUILD": "a test makes it",
        "SCHEMA": "ragspine_toy", "TABLES": (),
    }  # fmt: skip
    return type("Toy", (Store,), attrs)
