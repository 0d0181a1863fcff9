"""Sensitivity levels of documents and clearances of callers, ordered from least to most."""

from __future__ import annotations

PUBLIC = "PUBLIC"
INTERNAL = "INTERNAL"
RESTRICTED = "RESTRICTED"
LEVELS = (PUBLIC, INTERNAL, RESTRICTED)
DEFAULT_CLEARANCE = INTERNAL  # a staff member: everything but RESTRICTED


def check_level(level: str) -> str:
    """The level, or ValueError naming the valid ones."""
    if level not in LEVELS:
        raise ValueError(f"unknown sensitivity {level!r}: use one of {', '.join(LEVELS)}")
    return level


def allowed_levels(clearance: str) -> tuple[str, ...]:
    """Every sensitivity a caller with this clearance may see."""
    return LEVELS[: LEVELS.index(check_level(clearance)) + 1]
