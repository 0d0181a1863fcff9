"""Domain profiles: the demo profile ships inside the package; another is a file away."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import yaml
from pydantic import ValidationError

from ragspine.errors import ProfileError, first_problem
from ragspine.profile.model import (
    ChannelSpec,
    DomainProfile,
    EntitySpec,
    ExternalEntitySpec,
    MetricSpec,
)

__all__ = [
    "ChannelSpec",
    "DomainProfile",
    "EntitySpec",
    "ExternalEntitySpec",
    "MetricSpec",
    "default_profile",
    "load_profile",
]

DEMO_PROFILE = "acme.yaml"


def load_profile(path: str | Path | None = None) -> DomainProfile:
    """Load and validate a profile; ``None`` loads the packaged ACME demo profile."""
    if path is None:
        name = f"<package>/ragspine/profile/{DEMO_PROFILE}"
        text = resources.files("ragspine.profile").joinpath(DEMO_PROFILE).read_text("utf-8")
    else:
        name = str(path)
        try:
            text = Path(path).read_text("utf-8")
        except FileNotFoundError:
            raise ProfileError(f"{name}: profile file not found") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ProfileError(f"{name}: cannot read profile: {exc}") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ProfileError(f"{name}: invalid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise ProfileError(f"{name}: a profile is a YAML mapping, got {type(data).__name__}")
    try:
        return DomainProfile.model_validate(data)
    except ValidationError as exc:
        raise ProfileError(f"{name}: {first_problem(exc)}") from exc


@cache
def default_profile() -> DomainProfile:
    """The packaged demo profile, loaded once per process."""
    return load_profile()
