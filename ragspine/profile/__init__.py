"""Domain profiles: the demo profile ships inside the package; another is a file away."""

from __future__ import annotations

import warnings
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ragspine.errors import ProfileError
from ragspine.profile.model import (
    ChannelSpec,
    DerivedMetricSpec,
    DomainProfile,
    EntitySpec,
    ExternalEntitySpec,
    MetricSpec,
    UnitSpec,
)

__all__ = [
    "ChannelSpec",
    "DerivedMetricSpec",
    "DomainProfile",
    "EntitySpec",
    "ExternalEntitySpec",
    "MetricSpec",
    "UnitSpec",
    "default_profile",
    "load_profile",
    "parse_profile",
    "read_profile",
]

DEMO_PROFILE = "acme.yaml"


def load_profile(path: str | Path | None = None) -> DomainProfile:
    """Load and validate a profile; ``None`` loads the packaged ACME demo profile. A profile that
    says ``extends: cas`` is laid over that base first (``profile.extends``)."""
    return read_profile(path)[0]


def read_profile(path: str | Path | None = None) -> tuple[DomainProfile, str]:
    """A profile and the YAML text it was read from (the text a fact store remembers)."""
    if path is None:
        name = f"<package>/ragspine/profile/{DEMO_PROFILE}"
        text = demo_profile_text()
    else:
        name = str(path)
        try:
            text = Path(path).read_text("utf-8")
        except FileNotFoundError:
            raise ProfileError(f"{name}: profile file not found") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ProfileError(f"{name}: cannot read profile: {exc}") from exc
    origin = None if path is None else Path(path)
    return parse_profile(text, name, check_aliases=path is not None, origin=origin), text


def demo_profile_text() -> str:
    """The packaged ACME demo profile's YAML."""
    return resources.files("ragspine.profile").joinpath(DEMO_PROFILE).read_text("utf-8")


def parse_profile(
    text: str, name: str, *, check_aliases: bool = True, origin: Path | None = None
) -> DomainProfile:
    """A profile from its YAML text; ``name`` says where it came from in every error.
    ``check_aliases`` warns of an alias inside a listed company's name (the packaged demo's
    are reviewed, and a stored profile's were said when it was stored); ``origin`` is the file a
    relative ``extends:`` path is read beside (none for a stored text)."""
    from ragspine.profile.extends import mapping_of, resolve

    data = mapping_of(text, name, "a profile")
    data = resolve(data, name, origin)  # extends: cas
    try:
        profile = DomainProfile.model_validate(data)
    except ValidationError as exc:
        raise ProfileError(f"{name}: {_problem(exc, data)}") from exc
    if check_aliases:
        from ragspine.profile.vocabulary import AliasCollisionWarning, alias_collisions

        for collision in alias_collisions(profile):
            warnings.warn(f"{name}: {collision.message()}", AliasCollisionWarning, stacklevel=2)
    return profile


def _problem(exc: ValidationError, data: dict[str, Any]) -> str:
    """The first error, its item named by code (``metrics[REVENUE].unit``), not by position."""
    errors = exc.errors()
    first = errors[0]
    where = _where(first["loc"], data)
    message = str(first["msg"]).removeprefix("Value error, ")
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {message}{more}" if where else f"{message}{more}"


def _where(loc: tuple[int | str, ...], data: Any) -> str:
    out = ""
    node = data
    for part in loc:
        if isinstance(part, int):
            item = node[part] if isinstance(node, list) and part < len(node) else None
            label = item.get("code") or item.get("name") if isinstance(item, dict) else None
            if label is None and isinstance(item, str):
                label = repr(item)
            out += f"[{label if isinstance(label, str) else part}]"
            node = item
        else:
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out


@cache
def default_profile() -> DomainProfile:
    """The packaged demo profile, loaded once per process."""
    return load_profile()
