"""Sensitivity levels of documents and clearances of callers, ordered from least to most."""

from __future__ import annotations

from enum import StrEnum


class Clearance(StrEnum):
    """The one spelling of the levels: a document's sensitivity and a caller's clearance.

    A ``StrEnum``: each member is its plain string (``Clearance.INTERNAL == "INTERNAL"``), so
    YAML, JSON and SQLite keep the plain strings. Declared from least to most.
    """

    PUBLIC = "PUBLIC"
    INTERNAL = "INTERNAL"
    RESTRICTED = "RESTRICTED"


PUBLIC = Clearance.PUBLIC
INTERNAL = Clearance.INTERNAL
RESTRICTED = Clearance.RESTRICTED
LEVELS: tuple[str, ...] = tuple(Clearance)  # the members, typed as the strings they are
DEFAULT_CLEARANCE = INTERNAL  # a staff member: everything but RESTRICTED


def check_level(level: str) -> Clearance:
    """The level, or ValueError naming the valid ones."""
    if level not in LEVELS:
        raise ValueError(f"unknown sensitivity {level!r}: use one of {', '.join(LEVELS)}")
    return Clearance(level)


def allowed_levels(clearance: str) -> tuple[str, ...]:
    """Every sensitivity a caller with this clearance may see."""
    return LEVELS[: LEVELS.index(check_level(clearance)) + 1]
