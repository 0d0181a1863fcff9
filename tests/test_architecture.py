"""The layers the layout promises, read from every import in the package (lazy ones included).

    cli → evals → engine → faq → agent → retrieval / storage / profile / llm → foundation
    cli → ingestion → retrieval / storage / profile / readers → foundation
    cli → service → engine → …

Each part may import itself, the foundation modules and the parts listed for it; nothing but the
top-level command imports the eval harness; nothing below ``llm`` knows a provider exists.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "ragspine"
# "" is ragspine/__init__.py
FOUNDATION = {
    "errors",
    "text",
    "numbers",
    "observability",
    "sensitivity",
    "cli_errors",
    "cli_options",
    "store_config",  # where the stores live (ragspine.toml, RAGSPINE_HOME): cli_options' defaults
    "store_location",  # what a store's location is: a path, sqlite:PATH or a PostgreSQL URL
    "parallel",
    "interrupts",
    "",
}
BELOW_AGENT = {"profile", "llm", "storage", "retrieval"}
ALLOWED: dict[str, set[str]] = {
    "readers": set(),
    "profile": set(),
    "llm": set(),
    "storage": set(),
    "retrieval": {"profile", "llm", "storage"},
    "demo": {"profile", "storage", "retrieval", "ingestion"},
    "ingestion": {"readers", "profile", "storage", "retrieval"},
    "agent": BELOW_AGENT,
    "faq": {"agent", *BELOW_AGENT},  # the FAQ route: read by the agent's own parser and gateway
    "engine": {"agent", "faq", *BELOW_AGENT},
    "evals": {"engine", "agent", *BELOW_AGENT},
    "service": {"engine", "agent", "faq", *BELOW_AGENT},
    "cli": {"engine", "agent", "evals", "demo", "ingestion", "readers", "service", *BELOW_AGENT},
}


def part_of(module: str) -> str:
    """``ragspine.agent.intent`` → ``agent``; ``ragspine.engine`` → ``engine``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join(parts)


def imported(path: Path, module: str) -> set[str]:
    """Every ragspine module a file imports, at the top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the importing module's package
                base = module.split(".")[: -node.level or None]
                names.add(".".join([*base, node.module or ""]).rstrip("."))
            elif node.module:
                names.add(node.module)
    return {n for n in names if n == "ragspine" or n.startswith("ragspine.")}


def violations(root: Path) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        mine = part_of(module)
        allowed = {mine} | FOUNDATION | ALLOWED.get(mine, set())
        if mine in FOUNDATION:
            allowed = FOUNDATION
        for name in sorted(imported(path, module)):
            if part_of(name) not in allowed:
                out.append(f"{module} imports {name}")
    return out


def test_every_import_respects_the_layers() -> None:
    assert violations(PACKAGE) == []


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {part_of(module_name(p, PACKAGE)) for p in PACKAGE.rglob("*.py")}
    assert parts - FOUNDATION - set(ALLOWED) == set()


@pytest.mark.parametrize(
    ("path", "source", "bad"),
    [
        # retrieval reaching up into the agent
        ("retrieval/rerank.py", "from ragspine.agent.llm_provider import X", "agent"),
        # a lazy import inside a function counts too
        ("llm/mock.py", "def f():\n    from ragspine.agent.intent import parse_intent", "agent"),
        # the engine must never import the harness
        ("engine.py", "import ragspine.evals.run.runner", "evals"),
        # a foundation module importing a layer
        ("text.py", "from ragspine.profile import x", "profile"),
        # a relative import is resolved before it is judged
        ("storage/fact_store.py", "from ..agent import agent", "agent"),
    ],
)
def test_the_check_catches_an_import_across_layers(
    tmp_path: Path, path: str, source: str, bad: str
) -> None:
    root = tmp_path / "ragspine"
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source + "\n", "utf-8")
    found = violations(root)
    assert len(found) == 1 and f"ragspine.{bad}" in found[0]
