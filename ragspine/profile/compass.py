"""A region's name written with its compass word abbreviated: SE Asia for Southeast Asia.

English writes a compound compass direction at the head of a region's name by its initials
(SE Asia, NE China, SW England); the abbreviation names the same region, so a profile's entity
or a shipped place named with the full word is also named with the initials. Only the compound
directions (two initials): a lone N, S, E or W before a word is too often something else.
"""

from __future__ import annotations

import re

_COMPASS = re.compile(
    r"^(?P<ns>south|north)[\s-]?(?P<ew>east|west)(?:ern)?\s+(?P<rest>\S.*)$", re.IGNORECASE
)


def abbreviated(alias: str) -> list[str]:
    """The alias with its leading compound compass word as initials, if it has one."""
    m = _COMPASS.match(alias.strip())
    if m is None:
        return []
    initials = m.group("ns")[0] + m.group("ew")[0]
    return [f"{initials.upper()} {m.group('rest')}"]
