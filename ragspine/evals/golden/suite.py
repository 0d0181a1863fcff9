"""Golden sets: YAML suites of cases, validated strictly, with errors that say where.

Each file is one suite: ``defaults`` (reference date, clearance, tags) and ``cases``. Every
expectation is optional: only what a case states is checked. A bad file is reported as
``file:line: case ID: field.path: message``; duplicate ids across files are errors too.
"""

from __future__ import annotations

import fnmatch
import gc
import hashlib
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ragspine.errors import FilterError as FilterError
from ragspine.evals.golden.spec import (
    _TAG,
    CaseSpec,
    Expect,
    GoldenCase,
    GoldenError,
    Mode,
    Route,
    SourceRef,
    Status,
    SuiteDefaults,
    SuiteSpec,
)
from ragspine.evals.yaml_errors import child, explain, item, line_of, parse
from ragspine.parallel import ordered_map, pool_size
from ragspine.sensitivity import Clearance

__all__ = [
    "CaseSpec",
    "Clearance",
    "Expect",
    "FilterError",
    "GoldenCase",
    "GoldenError",
    "GoldenScan",
    "GoldenSet",
    "Mode",
    "Route",
    "SourceRef",
    "Status",
    "SuiteDefaults",
    "SuiteSpec",
    "compile_filter",
    "golden_files",
    "load_golden",
    "scan_golden",
]

# libyaml when present (about 5x faster); the pure-Python safe loader otherwise. Both are safe.
_BaseLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TAGS: dict[tuple[str, Any], str] = {}


class _Loader(_BaseLoader):  # type: ignore[misc]
    """Safe loading, with each short plain scalar's implicit tag looked up once.

    Resolving a tag runs YAML 1.1's regexes in Python for every key and value; a golden set
    repeats the same keys and values thousands of times, and that was a third of its parse.
    """

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is not yaml.ScalarNode or len(value) > 40:
            return super().resolve(kind, value, implicit)
        key = (value, implicit)
        tag = _TAGS.get(key)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if len(_TAGS) < 20_000:
                _TAGS[key] = tag
        return tag


@dataclass(frozen=True)
class GoldenSet:
    cases: list[GoldenCase]
    digest: str  # sha256 over every file's path and bytes: which golden set a run used
    files: list[str]


def golden_files(path: str | Path) -> list[Path]:
    root = Path(path)
    if root.is_dir():
        files = sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml"))
    elif root.is_file():
        files = [root]
    else:
        raise GoldenError(f"{root}: no such golden file or folder")
    if not files:
        raise GoldenError(f"{root}: no golden files (*.yaml) found")
    return files


def load_golden(path: str | Path) -> GoldenSet:
    """Every ``*.yaml`` / ``*.yml`` under ``path`` (or the one file), validated, ids unique."""
    scan = scan_golden(path)
    return GoldenSet(scan.cases, scan.digest, scan.files)


@dataclass
class GoldenScan:
    """A golden set read once: the chosen cases, their reference dates, the set's digest."""

    digest: str
    files: list[str]
    cases: list[GoldenCase]  # chosen by --filter / --limit, in file order

    @property
    def count(self) -> int:
        return len(self.cases)

    @property
    def reference_dates(self) -> set[date]:
        return {c.reference_date for c in self.cases}


def scan_golden(
    path: str | Path, *, filter_expr: str | None = None, limit: int | None = None
) -> GoldenScan:
    """Parse and validate every file once (ids unique across files) and choose the cases."""
    root = Path(path)
    files = golden_files(root)
    predicate = compile_filter(filter_expr) if filter_expr else None
    digest = hashlib.sha256()
    seen: dict[str, str] = {}
    chosen: list[GoldenCase] = []
    with _collector_paused():
        _scan_files(root, files, predicate, limit, digest, seen, chosen)
    return GoldenScan("sha256:" + digest.hexdigest(), [str(f) for f in files], chosen)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Parsing makes hundreds of thousands of short-lived containers and no cycles; each
    collection they trigger sweeps every case loaded so far (measured: half of a 10k-case load)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _scan_files(
    root: Path,
    files: list[Path],
    predicate: Callable[[GoldenCase], bool] | None,
    limit: int | None,
    digest: Any,
    seen: dict[str, str],
    chosen: list[GoldenCase],
) -> None:
    raws = [(file, file.read_bytes()) for file in files]
    for file, raw in raws:
        rel = file.relative_to(root).as_posix() if root.is_dir() else file.name
        digest.update(rel.encode() + b"\0" + raw + b"\0")
    for cases in ordered_map(_load_pair, raws, _parse_workers(raws)):
        for case in cases:
            where = f"{case.file}:{case.line}"
            if case.id in seen:
                raise GoldenError(f"{where}: case {case.id}: id: duplicate of {seen[case.id]}")
            seen[case.id] = where
            if (predicate is None or predicate(case)) and (limit is None or len(chosen) < limit):
                chosen.append(case)


PARALLEL_FROM = 1_000_000  # bytes of YAML: below this, starting processes costs more


def _parse_workers(raws: list[tuple[Path, bytes]]) -> int:
    """Several large files parse in parallel (a file is a unit: its lines and errors are its
    own); one file, or a small set, parses here."""
    if len(raws) < 2 or sum(len(r) for _, r in raws) < PARALLEL_FROM:
        return 0
    return pool_size(limit=len(raws))


def _load_pair(pair: tuple[Path, bytes]) -> list[GoldenCase]:
    return _load_file(*pair)


def _load_file(file: Path, raw: bytes) -> list[GoldenCase]:
    node, data = parse(file, raw, GoldenError, _Loader)
    if not isinstance(data, dict):
        raise GoldenError(f"{file}:1: a golden file is a mapping with 'cases'")
    try:
        spec = SuiteSpec.model_validate(data)
    except ValidationError as exc:
        raise GoldenError(_explain(file, node, data, exc)) from exc
    defaults = spec.defaults
    suite = spec.suite or re.sub(r"[^a-z0-9_-]", "-", file.stem.lower())
    out = []
    where = str(file)  # one string for all the file's cases
    case_nodes = child(node, "cases")
    for i, case in enumerate(spec.cases):
        line = line_of(item(case_nodes, i))
        ref = case.reference_date or defaults.reference_date
        if ref is None:
            raise GoldenError(
                f"{file}:{line}: case {case.id}: reference_date: missing "
                "(set it on the case or in defaults, so the run is reproducible)"
            )
        # Interned: a run holds every chosen case, and most share their tags.
        tags = tuple(sys.intern(t) for t in dict.fromkeys([suite, *defaults.tags, *case.tags]))
        for tag in tags:
            if not re.match(_TAG, tag):
                raise GoldenError(f"{file}:{line}: case {case.id}: tags: {tag!r} is not a tag")
        out.append(
            GoldenCase(
                id=case.id,
                question=case.question,
                tags=tags,
                reference_date=ref,
                clearance=case.clearance or defaults.clearance,
                expectation=case.expect,
                suite=suite,
                file=where,
                line=line,
            )
        )
    return out


def _explain(file: Path, node: Any, data: dict[str, Any], exc: ValidationError) -> str:
    return explain(file, node, data, exc, entries="cases", noun="case")


# -- selecting cases --------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(\(|\)|and\b|or\b|not\b|[A-Za-z0-9_.:*?\[\]-]+)")


def compile_filter(expr: str) -> Any:
    """A predicate over cases from ``zh and not (restricted or id:st-*)``.

    Words are tags; ``id:GLOB`` matches case ids, ``suite:NAME`` a suite. No eval(): the
    expression is parsed by hand, so a filter cannot run code.
    """
    tokens: list[str] = []
    pos = 0
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m:
            if expr[pos:].strip() == "":
                break
            raise FilterError(f"--filter: unexpected {expr[pos:].strip()[:20]!r}")
        tokens.append(m.group(1))
        pos = m.end()
    if not tokens:
        raise FilterError("--filter: empty expression")
    index = 0

    def peek() -> str | None:
        return tokens[index] if index < len(tokens) else None

    def take() -> str:
        nonlocal index
        index += 1
        return tokens[index - 1]

    def parse_or() -> Any:
        left = parse_and()
        while peek() == "or":
            take()
            right = parse_and()
            left = (lambda a, b: lambda c: a(c) or b(c))(left, right)
        return left

    def parse_and() -> Any:
        left = parse_not()
        while peek() == "and":
            take()
            right = parse_not()
            left = (lambda a, b: lambda c: a(c) and b(c))(left, right)
        return left

    def parse_not() -> Any:
        if peek() == "not":
            take()
            inner = parse_not()
            return lambda c: not inner(c)
        if peek() == "(":
            take()
            inner = parse_or()
            if peek() != ")":
                raise FilterError("--filter: missing ')'")
            take()
            return inner
        word = peek()
        if word is None or word in ("and", "or", ")"):
            raise FilterError(f"--filter: expected a tag, got {word or 'the end'}")
        take()
        if word.startswith("id:"):
            pattern = word[3:]
            return lambda c: fnmatch.fnmatchcase(c.id, pattern)
        if word.startswith("suite:"):
            name = word[6:]
            return lambda c: c.suite == name
        return lambda c: word in c.tags

    predicate = parse_or()
    if index != len(tokens):
        raise FilterError(f"--filter: unexpected {tokens[index]!r}")
    return predicate
