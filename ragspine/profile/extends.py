"""A company's profile over a base: ``extends: cas`` and only the company's own names.

A base is a shipped one (``cas``: ``ragspine/profile/base/cas.yaml``) or a YAML file named by
its path, relative to the profile that names it. A base may extend another; a cycle, an unknown
base or a base that is not a profile's vocabulary is one error naming the file and the field.

How the company's profile lays over its base (the company wins per code):

* ``units``, ``metrics``, ``derived_metrics``, ``entities``, ``channels`` (by ``code``) and
  ``external_entities`` (by ``name``): an item of the company's with a code the base has is laid
  over the base's item field by field, its ``aliases`` ADDED to the base's (a union: a base word
  is never taken away, so every report's printed variant stays known); an item with a new code
  is added after the base's. A metric the company declares in ``metrics`` replaces a derived
  metric of that code in the base, and the other way round.
* ``unsupported_terms`` and ``synonyms``: the base's, then the company's; a term the merged
  profile names as a metric is no longer unsupported.
* anything else (``name``, ``coverage``, ``version``…): the company's value, else the base's.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragspine.errors import ProfileError
from ragspine.profile.model import DerivedMetricSpec, MetricSpec, UnitSpec, compact

BASES = ("cas",)  # ragspine/profile/base/<name>.yaml
_KEYED = {
    "units": "code",
    "metrics": "code",
    "derived_metrics": "code",
    "entities": "code",
    "channels": "code",
    "external_entities": "name",
}
_TWINS = {"metrics": "derived_metrics", "derived_metrics": "metrics"}


class BaseSpec(BaseModel):
    """What a base may hold: the vocabulary a class of companies shares, no company of its own."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    extends: str | None = None
    version: int = Field(default=2, ge=1, le=2)
    units: list[UnitSpec] = Field(default_factory=list)
    metrics: list[MetricSpec] = Field(default_factory=list)
    derived_metrics: list[DerivedMetricSpec] = Field(default_factory=list)
    unsupported_terms: list[str] = Field(default_factory=list)
    synonyms: list[list[str]] = Field(default_factory=list)


def resolve(data: dict[str, Any], name: str, path: Path | None) -> dict[str, Any]:
    """The profile's mapping with its base (and the base's base) laid under it; as it is when it
    extends nothing."""
    here = str(path.resolve()) if path is not None else name
    return _resolve(data, name, path, ((here, name),))


def _resolve(
    data: dict[str, Any], name: str, path: Path | None, chain: tuple[tuple[str, str], ...]
) -> dict[str, Any]:
    """``chain``: (identity, name) of each profile on the way here, this one last."""
    if "extends" not in data:
        return data
    ref = data["extends"]
    own = {k: v for k, v in data.items() if k != "extends"}
    if not isinstance(ref, str) or not ref.strip():
        raise ProfileError(f"{name}: extends: name a base profile ({', '.join(BASES)}) or a file")
    base_name, base_path, text = _find(ref.strip(), name, path)
    identity = str(base_path) if base_path is not None else base_name
    if identity in (i for i, _ in chain):
        cycle = " → ".join([*(n for _, n in chain), base_name])
        raise ProfileError(f"{name}: extends: {ref!r} makes a cycle: {cycle}")
    data = mapping_of(text, base_name)
    base = _resolve(data, base_name, base_path, (*chain, (identity, base_name)))
    _check_base(base, base_name)  # as laid over its own base: a group's base may add aliases
    return merge(base, own)


def _find(ref: str, name: str, path: Path | None) -> tuple[str, Path | None, str]:
    """(the base's name for messages, its resolved path when a file, its text)."""
    if ref in BASES:
        text = resources.files("ragspine.profile.base").joinpath(f"{ref}.yaml").read_text("utf-8")
        return f"<package>/ragspine/profile/base/{ref}.yaml", None, text
    if not ref.endswith((".yaml", ".yml")):
        raise ProfileError(
            f"{name}: extends: unknown base profile {ref!r}: the shipped bases are "
            f"{', '.join(BASES)}; a file is named by its path (base.yaml)"
        )
    base_path = Path(ref) if path is None else path.parent / ref
    try:
        return str(base_path), base_path.resolve(), base_path.read_text("utf-8")
    except FileNotFoundError:
        raise ProfileError(f"{name}: extends: base profile {base_path} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"{name}: extends: cannot read {base_path}: {exc}") from None


class DuplicateKey(yaml.YAMLError):
    """A key written twice in one mapping: ``line N: key 'metrics' appears twice``."""


class _UniqueKeys(yaml.SafeLoader):
    """``yaml.safe_load``'s loader, but a key written twice in one mapping is an error: YAML
    would keep the second silently (a `metrics:` appended to a drafted profile would drop the
    drafted one)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, str | int) and key in seen:
                line = key_node.start_mark.line + 1
                raise DuplicateKey(
                    f"line {line}: key {key!r} appears twice in one mapping (YAML would keep "
                    "the second and drop the first)"
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def safe_load(text: str) -> Any:
    """YAML as ``yaml.safe_load`` reads it (plain data, no tags that run code), a key twice in
    one mapping refused."""
    return yaml.load(text, Loader=_UniqueKeys)  # a SafeLoader: plain data only


def mapping_of(text: str, name: str, what: str = "a base profile") -> dict[str, Any]:
    """A profile's (or a base's) YAML mapping; an error names its file (``name``)."""
    try:
        data = safe_load(text)
    except DuplicateKey as exc:
        raise ProfileError(f"{name}: {exc}") from None
    except yaml.YAMLError as exc:
        raise ProfileError(f"{name}: invalid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise ProfileError(f"{name}: {what} is a YAML mapping, got {type(data).__name__}")
    return data


def _check_base(data: dict[str, Any], name: str) -> None:
    """A base holds vocabulary only (``BaseSpec``), checked on its own so an error names it."""
    try:
        BaseSpec.model_validate(data)
    except ValidationError as exc:
        from ragspine.profile import _problem

        raise ProfileError(f"{name}: {_problem(exc, data)}") from exc


def merge(base: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """``own`` laid over ``base`` by the rules in the module's docstring."""
    out = {k: v for k, v in base.items() if k != "extends"}
    for key, value in own.items():
        if key in _KEYED and isinstance(value, list):
            out[key] = _merge_items(out.get(key) or [], value, _KEYED[key])
        elif key in ("unsupported_terms", "synonyms") and isinstance(value, list):
            out[key] = [*(out.get(key) or []), *(v for v in value if v not in (out.get(key) or []))]
        else:
            out[key] = value
    for key, twin in _TWINS.items():  # a code the company declares in one list leaves the other
        mine = {i.get("code") for i in own.get(key) or [] if isinstance(i, dict)}
        if mine and isinstance(out.get(twin), list):
            out[twin] = [
                i for i in out[twin] if not (isinstance(i, dict) and i.get("code") in mine)
            ]
    named = {
        compact(str(a))
        for key in ("metrics", "derived_metrics")
        for item in out.get(key) or []
        if isinstance(item, dict)
        for a in item.get("aliases") or []
    }
    if isinstance(out.get("unsupported_terms"), list):
        out["unsupported_terms"] = [
            t for t in out["unsupported_terms"] if compact(str(t)) not in named
        ]
    return out


def _merge_items(base: list[Any], own: list[Any], key: str) -> list[Any]:
    out = list(base)
    where = {item.get(key): i for i, item in enumerate(out) if isinstance(item, dict)}
    for item in own:
        if not isinstance(item, dict) or item.get(key) not in where:
            out.append(item)  # a new item, or a malformed one the profile's own check names
            continue
        i = where[item[key]]
        merged = {**out[i], **item}
        if isinstance(out[i].get("aliases"), list) and isinstance(item.get("aliases"), list):
            known = {compact(str(a)) for a in out[i]["aliases"]}
            merged["aliases"] = [
                *out[i]["aliases"],
                *(a for a in item["aliases"] if compact(str(a)) not in known),
            ]
        out[i] = merged
    return out
