"""A distance to a threshold the user writes: 资产负债率距离50%的警戒线还有多少个百分点, how many
percentage points below 50% was the gearing.

The threshold is the user's number, not a fact and not a second period: the question asks the
held level (the one period's), and the distance is the user's own subtraction from it. Points
asked towards a written percentage are therefore no change between periods (``points_asked``
alone would read 多少个百分点 as one). Only a distance word right before the number counts
(距离 / 离 / 距 / 相距 / 低于 / 高于 / 超过 / 超出 / 差; below / above / short of / away from /
under / over): 从15%提高了几个百分点 states a starting level and stays a change.
"""

from __future__ import annotations

import re

_TO_NUMBER = re.compile(
    r"(?:距离|相距|距|离|低于|高于|超过|超出|还差|差)\s*\d+(?:\.\d+)?\s*%|"
    r"(?<![a-z])(?:below|above|short\s+of|away\s+from|under|over|off)\s+(?:the\s+|a\s+)?"
    r"\d+(?:\.\d+)?\s*%"
)


def threshold_asked(text: str) -> re.Match[str] | None:
    """The written percentage a distance is asked to (距离50%), in folded ``text``, or None."""
    return _TO_NUMBER.search(text)
