"""Scripted attacks: hostile replies written in a YAML file, not in Python.

A file holds entries, each written for one case (a question of the pack's cases file, or of the
files it names) and each one of three edits of the honest model's synthesis:

* ``add``: lines appended to the honest reply;
* ``rewrite``: ``find`` → ``to`` replacements in the honest reply (each ``find`` must be there);
* ``text``: the whole synthesis, ``{reply}`` standing for the honest one.

Text may cite the passages the engine actually retrieved for the case, so a citation is real:
``{cite1}`` is ``(来源:DOC LOCATOR)`` of the first passage given to the model, ``{src1}`` its bare
``DOC LOCATOR``; ``{cite:DOC LOCATOR}`` and ``{src:DOC LOCATOR}`` name a passage, which must be
among those retrieved. ``{{`` and ``}}`` are literal braces. An entry whose placeholders or
``find`` strings do not resolve in its case is not applied, and says why.

An ``attack`` lists its **tells**: the spans it fabricated, as the pack judges them (held: none
in the final answer; caught: the audit flags a number inside one). A ``control`` is a correct
restatement and lists none: the audit may flag nothing and the guard may remove nothing.

::

    cases: [cases.yaml, fresh_cases.yaml]   # optional, relative to this file
    attacks:
      - id: respectively-swapped
        case: fresh-cn-store-plan
        what: the two targets of a 分别 list given to the wrong halves
        rewrite:
          - {find: 新开约20家、关闭约35家, to: 新开约35家、关闭约20家}
        tells: [新开约35家、关闭约20家]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragspine.errors import AttackFileError, GoldenError
from ragspine.evals.audit.attacks.base import Attack, Hostile
from ragspine.evals.golden.suite import GoldenCase, load_golden
from ragspine.evals.yaml_errors import child, explain, item, line_of, parse
from ragspine.llm.prompts import Snippet

__all__ = ["Entry", "Rewrite", "Script", "ScriptedMutation", "load_script", "placeholders"]

_ENTRY_ID = r"^[a-z0-9][a-z0-9_-]{0,63}$"
# {cite3} {src3} {cite:DOC LOCATOR} {src:DOC LOCATOR} {reply}, and {{ }} for literal braces
_TOKEN = re.compile(r"\{\{|\}\}|\{(?P<body>[^{}]*)\}|[{}]")
_PLACEHOLDER = re.compile(r"^(?P<kind>cite|src)(?:(?P<n>[1-9]\d*)|:(?P<named>.*\S.*))$|^reply$")
_BODIES = ("text", "add", "rewrite")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Rewrite(_Strict):
    find: str = Field(min_length=1)
    to: str


class Entry(_Strict):
    id: str = Field(pattern=_ENTRY_ID)
    case: str = Field(min_length=1)
    kind: Literal["attack", "control"] = "attack"
    what: str = Field(min_length=1)
    text: str | None = Field(default=None, min_length=1)
    add: str | None = Field(default=None, min_length=1)
    rewrite: list[Rewrite] | None = Field(default=None, min_length=1)
    tells: list[str] = Field(default_factory=list)


class _FileSpec(_Strict):
    cases: str | list[str] | None = None
    attacks: list[Entry] = Field(min_length=1)


def placeholders(text: str) -> list[str]:
    """The placeholders ``text`` uses (``cite1``, ``src:DOC LOC``, ``reply``); ValueError on a
    brace that is none of them."""
    out: list[str] = []
    for m in _TOKEN.finditer(text):
        if m.group() in ("{{", "}}"):
            continue
        body = m.group("body")
        if body is None or not _PLACEHOLDER.match(body):
            raise ValueError(
                f"{m.group()!r} is no placeholder: use {{cite1}}, {{src1}}, "
                "{cite:DOC LOCATOR}, {src:DOC LOCATOR}, {reply} (in text), or {{ }} for braces"
            )
        out.append(body)
    return out


class _Unresolved(Exception):
    """A placeholder or a find string that this case's passages or reply do not give."""


def _fill(text: str, snippets: list[Snippet], reply: str) -> str:
    def one(m: re.Match[str]) -> str:
        token = m.group()
        if token in ("{{", "}}"):
            return token[0]
        body = m.group("body") or ""
        if body == "reply":
            return reply
        p = _PLACEHOLDER.match(body)
        assert p is not None  # checked when the file was loaded
        if p.group("n"):
            n = int(p.group("n"))
            if n > len(snippets):
                raise _Unresolved(f"{token}: the model was given {len(snippets)} passage(s)")
            snippet = snippets[n - 1]
        else:
            named = " ".join(p.group("named").split())
            found = [s for s in snippets if " ".join(s.cite.split()) == named]
            if not found:
                given = "; ".join(s.cite for s in snippets) or "none"
                raise _Unresolved(f"{token}: not among the passages retrieved ({given})")
            snippet = found[0]
        return f"(来源:{snippet.cite})" if p.group("kind") == "cite" else snippet.cite

    return _TOKEN.sub(one, text)


@dataclass
class ScriptedMutation:
    """One entry as a mutation; it remembers why it could not apply (``missed``)."""

    entry: Entry
    missed: list[str] = field(default_factory=list)

    def __call__(self, reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
        e = self.entry
        try:
            if e.text is not None:
                text = _fill(e.text, snippets, reply)
            elif e.add is not None:
                text = f"{reply}\n{_fill(e.add, snippets, reply)}"
            else:
                text = reply
                for r in e.rewrite or []:
                    find = _fill(r.find, snippets, reply)
                    if find not in text:
                        raise _Unresolved(f"rewrite: {find!r} is not in the model's reply")
                    text = text.replace(find, _fill(r.to, snippets, reply), 1)
            tells = tuple(_fill(t, snippets, reply) for t in e.tells)
        except _Unresolved as exc:
            self.missed.append(str(exc))
            return None
        return Hostile(text, tells)


@dataclass(frozen=True)
class Script:
    """A loaded attack file: its cases (every one an entry names) and its entries as attacks."""

    path: Path
    cases: list[GoldenCase]
    entries: list[Entry]
    attacks: dict[str, Attack]

    def why_not(self, name: str) -> list[str]:
        """Why an entry did not apply (empty if it did, or if nothing said why)."""
        mutate = self.attacks[name].mutate
        return list(mutate.missed) if isinstance(mutate, ScriptedMutation) else []

    def entry(self, name: str) -> Entry:
        return next(e for e in self.entries if e.id == name)


def load_script(path: str | Path, default_cases: str | Path) -> Script:
    """The attack file, validated strictly; its cases from its own ``cases`` (relative to the
    file) or ``default_cases``. Every error names the file, line, entry and field."""
    file = Path(path)
    node, data = _read_yaml(file)
    if not isinstance(data, dict):
        raise AttackFileError(f"{file}:1: an attack file is a mapping with 'attacks'")
    try:
        spec = _FileSpec.model_validate(data)
    except ValidationError as exc:
        raise AttackFileError(_explain(file, node, data, exc)) from exc
    entry_nodes = child(node, "attacks")
    seen: dict[str, int] = {}
    for i, e in enumerate(spec.attacks):
        where = _Where(file, item(entry_nodes, i), e.id)
        if e.id in seen:
            raise where.error("id", f"duplicate of the entry on line {seen[e.id]}")
        seen[e.id] = where.line
        _check_entry(e, where)
    named = spec.cases if spec.cases is not None else None
    case_files = (
        [file.parent / p for p in ([named] if isinstance(named, str) else named)]
        if named is not None
        else [Path(default_cases)]
    )
    cases = _load_cases(file, node, case_files)
    by_id = {c.id: c for c in cases}
    for i, e in enumerate(spec.attacks):
        if e.case not in by_id:
            where = _Where(file, item(entry_nodes, i), e.id)
            known = ", ".join(sorted(by_id))
            raise where.error("case", f"no case {e.case!r} in {_names(case_files)} ({known})")
    wanted = {e.case for e in spec.attacks}
    attacks = {
        e.id: Attack(
            e.id,
            "probe" if e.kind == "control" else "attack",
            e.what,
            ScriptedMutation(e),
            only_case=e.case,
        )
        for e in spec.attacks
    }
    return Script(file, [c for c in cases if c.id in wanted], list(spec.attacks), attacks)


def _check_entry(e: Entry, where: _Where) -> None:
    given = [name for name in _BODIES if getattr(e, name) is not None]
    if len(given) != 1:
        said = f"found {', '.join(given)}" if given else "found none"
        raise where.error("text|add|rewrite", f"give exactly one of text, add, rewrite ({said})")
    if e.kind == "attack" and not e.tells:
        raise where.error("tells", "an attack lists its tells: the spans it fabricates")
    if e.kind == "control" and e.tells:
        raise where.error("tells", "a control is a correct restatement and tells nothing")
    for i, tell in enumerate(e.tells):
        if not tell.strip():
            raise where.error(f"tells.{i}", "an empty tell would match every answer")
    fields: list[tuple[str, str]] = [(name, getattr(e, name)) for name in ("text", "add")]
    for i, r in enumerate(e.rewrite or []):
        fields += [(f"rewrite.{i}.find", r.find), (f"rewrite.{i}.to", r.to)]
    fields += [(f"tells.{i}", t) for i, t in enumerate(e.tells)]
    for name, value in fields:
        if value is None:
            continue
        try:
            used = placeholders(value)
        except ValueError as exc:
            raise where.error(name, str(exc)) from None
        if "reply" in used and name != "text":
            raise where.error(name, "{reply} stands only in text (add and rewrite keep the reply)")


def _load_cases(file: Path, node: Any, case_files: list[Path]) -> list[GoldenCase]:
    cases: list[GoldenCase] = []
    seen: dict[str, str] = {}
    for path in case_files:
        try:
            loaded = load_golden(path).cases
        except GoldenError as exc:
            raise AttackFileError(f"{file}:{line_of(child(node, 'cases'))}: cases: {exc}") from exc
        for c in loaded:
            if c.id in seen:
                raise AttackFileError(
                    f"{file}:{line_of(child(node, 'cases'))}: cases: case {c.id} is in both "
                    f"{seen[c.id]} and {path}"
                )
            seen[c.id] = str(path)
            cases.append(c)
    return cases


def _names(paths: list[Path]) -> str:
    return ", ".join(str(p) for p in paths)


# -- where an error is -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Where:
    file: Path
    node: Any
    entry_id: str

    @property
    def line(self) -> int:
        return line_of(self.node)

    def error(self, field_name: str, message: str) -> AttackFileError:
        at = child(self.node, field_name.split(".")[0].split("|")[0]) or self.node
        for part in field_name.split(".")[1:]:
            nxt = item(at, int(part)) if part.isdigit() else child(at, part)
            at = nxt if nxt is not None else at
        return AttackFileError(
            f"{self.file}:{line_of(at)}: attack {self.entry_id}: {field_name}: {message}"
        )


def _read_yaml(file: Path) -> tuple[Any, Any]:
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        raise AttackFileError(f"{file}: no such attack file") from None
    return parse(file, raw, AttackFileError)


def _explain(file: Path, node: Any, data: dict[str, Any], exc: ValidationError) -> str:
    return explain(file, node, data, exc, entries="attacks", noun="attack")
