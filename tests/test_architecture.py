"""Boundaries the layout promises: the engine never imports the eval harness."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "ragspine"
HARNESS = "ragspine.evals"
# The top-level command registers the `eval` group; it is the app, not the engine.
ALLOWED = {PACKAGE / "cli.py"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_engine_never_imports_the_eval_harness() -> None:
    offenders = [
        str(path.relative_to(PACKAGE.parent))
        for path in PACKAGE.rglob("*.py")
        if HARNESS not in str(path.relative_to(PACKAGE.parent).with_suffix("")).replace("/", ".")
        and path not in ALLOWED
        and any(name == HARNESS or name.startswith(HARNESS + ".") for name in _imports(path))
    ]
    assert offenders == []


def test_the_check_can_see_an_import() -> None:
    """The scan itself works: the harness's own modules do import each other."""
    assert any(n.startswith(HARNESS) for n in _imports(PACKAGE / "evals" / "runner.py"))
