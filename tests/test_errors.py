"""The exception tree drawn in errors.py's docstring is the package's: every RagSpineError
subclass is drawn under its own base, and nothing drawn is gone."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import ragspine
from ragspine import errors
from ragspine.errors import RagSpineError

_NAME = re.compile(r"[A-Z]\w*Error\b")


def drawn_tree(doc: str) -> dict[str, str | None]:
    """Each class of the drawing and the class it hangs from (None for the root), read from the
    indentation: every level of the tree is four characters deeper."""
    parents: dict[str, str | None] = {}
    path: list[str] = []
    block = doc.split("::", 1)[1]
    for line in block.splitlines():
        match = _NAME.search(line)
        if match is None or line[: match.start()].strip(" │├└─") != "":
            continue  # a blank line, a wrapped comment, or the prose after the drawing
        depth = match.start() // 4 - 1  # the root is indented by four
        del path[depth:]
        parents[match.group()] = path[-1] if path else None
        path.append(match.group())
    return parents


def package_errors() -> list[type[RagSpineError]]:
    """Every RagSpineError subclass defined in the package, every module imported first."""
    modules = [info.name for info in pkgutil.walk_packages(ragspine.__path__, "ragspine.")]
    for name in modules:
        importlib.import_module(name)
    files = [p for p in Path(ragspine.__file__).parent.rglob("*.py") if p.name != "__init__.py"]
    assert len(modules) >= len(files)  # the walk reached every module, packages too
    found: list[type[RagSpineError]] = []
    todo: list[type[RagSpineError]] = [RagSpineError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return [c for c in found if c.__module__.split(".")[0] == "ragspine"]


def problems(classes: list[type[RagSpineError]], tree: dict[str, str | None]) -> list[str]:
    out = []
    names = {c.__name__ for c in classes}
    for cls in classes:
        base = next((b.__name__ for b in cls.__bases__ if issubclass(b, RagSpineError)), None)
        if cls.__name__ not in tree:
            out.append(f"{cls.__module__}.{cls.__name__} is not drawn")
        elif tree[cls.__name__] != base:
            out.append(f"{cls.__name__} is drawn under {tree[cls.__name__]}, but is a {base}")
    out += [f"{name} is drawn but no such error exists" for name in sorted(set(tree) - names)]
    return out


def test_every_error_in_the_package_is_drawn_in_the_tree_under_its_base() -> None:
    classes = package_errors()
    assert problems(classes, drawn_tree(errors.__doc__ or "")) == []


class UndrawnError(errors.ConfigError):
    pass


class MisplacedError(errors.StoreError):
    pass


TREE = """
::

    RagSpineError
    ├── ConfigError              a file
    │   └── MisplacedError       drawn under the wrong base
    └── StoreError               the store
        │                        (a wrapped comment line)
        └── GoneError            drawn, but deleted from the code
"""


def test_the_tree_is_read_from_its_indentation() -> None:
    assert drawn_tree(TREE) == {
        "RagSpineError": None,
        "ConfigError": "RagSpineError",
        "MisplacedError": "ConfigError",
        "StoreError": "RagSpineError",
        "GoneError": "StoreError",
    }


@pytest.mark.parametrize(
    "problem",
    [
        "tests.test_errors.UndrawnError is not drawn",  # a new error nobody drew
        "MisplacedError is drawn under ConfigError, but is a StoreError",  # under the wrong base
        "GoneError is drawn but no such error exists",  # a drawn error that was deleted
    ],
)
def test_the_check_catches_a_stale_drawing(problem: str) -> None:
    classes = [RagSpineError, errors.ConfigError, errors.StoreError, UndrawnError, MisplacedError]
    assert problem in problems(classes, drawn_tree(TREE))
