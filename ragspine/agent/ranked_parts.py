"""A ranking across a breakdown the fact table does not hold: "which province generated the most
sales", "which city had the highest revenue". The parts ranked (provinces, cities, customers,
products) are no entities of the profile, so the question is declined naming the breakdown
(province), never the metric or the rank's words (most sales). Not a breakdown: the company's own
parts (region, market, segment, channel: ``ranks.py`` ranks them), the question's own frame
(which year, which quarter, which metric, which one), a quantity's kind (which expense), other
companies (which listed company, which rival: a ranking across companies is declined as such by
the scope rule) and any word the profile knows (the caller skips those).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ragspine.agent.subject_words import COMMON_EN

_WHICH = re.compile(
    r"(?<![a-z])which\s+(?:of\s+(?:the|its|their|our)\s+)?(?P<noun>[a-z]+)(?![a-z'’-])"
)
# Other companies, ranked: the scope rule's, never a breakdown of this one.
_COMPANIES = re.compile(
    r"(?:compan(?:y|ies)|firms?|peers?|competitors?|rivals?|brands?|retailers?|chains?|"
    r"groups?|enterprises?|corporations?|issuers?|stocks?)(?![a-z])"
)
_RANK = re.compile(
    r"(?<![a-z])(?:most|least|highest|lowest|largest|smallest|biggest|best|worst|top|bottom|"
    r"greatest|fewest)(?![a-z])"
)
_NOT_A_BREAKDOWN = frozenset(
    (  # noqa: SIM905
        "region regions market markets segment segments business businesses area areas country "
        "countries subsidiary subsidiaries geography geographies channel channels entity entities "
        "year years quarter quarters month months period periods half halves day days date "
        "metric metrics measure measures figure figures number numbers one ones kpi kpis item "
        "items line lines ratio ratios margin margins expense expenses cost costs item way ways"
    ).split()
)


def breakdown_subjects(text: str, add: Callable[[int, int, str, bool], None]) -> None:
    """Add (to ``add``, with the folded ``text``'s span) the breakdown a ranking question ranks
    across when the profile holds no such parts: the noun after "which", a rank word after it."""
    for m in _WHICH.finditer(text):
        noun = m.group("noun")
        if noun in _NOT_A_BREAKDOWN or noun in COMMON_EN or _COMPANIES.fullmatch(noun):
            continue
        if _COMPANIES.match(text[m.end() :].lstrip()):  # which listed company
            continue
        clause = re.split(r"[?？。!！;；]", text[m.end() :], maxsplit=1)[0]
        if _RANK.search(clause):
            add(m.start("noun"), m.end("noun"), noun, True)
