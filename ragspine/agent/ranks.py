"""Rank questions inside the company: "which region had the highest operating margin", 哪个地区的
收入最高. The answer is never the group's figure: each part the question ranks (the entities it
names, else every entity of the profile but the company itself) is queried, each sourced figure
is stated, and the top one is named from those figures (no other number).

A ranking across listed companies is another matter (scope.py declines it).
"""

from __future__ import annotations

import re
from decimal import Decimal

from ragspine.agent.names import entity_name, metric_name
from ragspine.agent.query_tools import FoundResult, ToolResult
from ragspine.agent.render import distinct_found, fact_amount, period_label
from ragspine.agent.wording import ZH, Language, say
from ragspine.profile import DomainProfile

HIGH, LOW = "high", "low"

# Which of the company's parts: a region, a market, a segment.
_WHICH = re.compile(
    r"(?:哪个|哪一个|哪些|哪)\s*(?:地区|区域|市场|分部|板块|业务|国家|子公司)|"
    r"(?<![a-z])which\s+(?:of\s+the\s+)?(?:regions?|markets?|segments?|business(?:es)?|areas?|"
    r"countr(?:y|ies)|subsidiar(?:y|ies)|geograph(?:y|ies))(?![a-z])"
)
_LOW = re.compile(
    r"(?:最|更)(?:低|小|少|差|弱)|(?<![a-z])(?:lowest|smallest|least|worst|weakest|bottom|lower|"
    r"smaller|fewer|less|weaker|worse)(?![a-z])"
)
_HIGH = re.compile(
    r"(?:最|更)(?:高|大|多|好|强)|(?<![a-z])(?:highest|largest|biggest|most|best|strongest|top|"
    r"greatest|higher|larger|bigger|greater|more|stronger|better)(?![a-z])"
)


def rank_asked(text: str) -> str | None:
    """HIGH or LOW when the question asks which of the company's parts ranks first."""
    if _WHICH.search(text) is None:
        return None
    low, high = _LOW.search(text), _HIGH.search(text)
    if low and (high is None or low.start() < high.start()):
        return LOW
    return HIGH if high else None


def rank_words(text: str, metric_ends: list[int]) -> tuple[int, int] | None:
    """The words asking the rank: from 'which region' to the superlative or the last metric
    named after it, whichever ends later (哪个地区的收入最高, which segment had the highest
    revenue)."""
    which = _WHICH.search(text)
    if which is None:
        return None
    words = [
        m.end() for m in (_LOW.search(text, which.end()), _HIGH.search(text, which.end())) if m
    ]
    end = max([which.end(), *words, *(e for e in metric_ends if e > which.end())])
    return which.start(), end


def unrankable(profile: DomainProfile, entities: list[str]) -> bool:
    """A rank of parts with nothing to rank: the profile holds no entity but the company, and
    the question names none. Its answer would be the company's own figure: it is declined."""
    home = profile.home_entity_code
    return not parts(profile) and all(e == home for e in entities)


def parts(profile: DomainProfile) -> list[str]:
    """The entities a rank compares when the question names none: all but the company."""
    return [c for c in profile.entity_codes if c != profile.home_entity_code]


def rank_lines(
    results: list[ToolResult], direction: str, prof: DomainProfile, lang: Language = ZH
) -> list[str]:
    """For each metric and period found for two entities or more: the first of them, its figure
    as stated above it (FY2024 经营利润率最高:香港 14.20% / FY2024 highest operating margin:
    Hong Kong 14.20%)."""
    groups: dict[tuple[str, str, str, str], list[FoundResult]] = {}
    for r in distinct_found(results):
        key = (r["metric_code"], r["period_type"], r["period"], r["channel"])
        groups.setdefault(key, []).append(r)
    lines = []
    for (metric, period_type, period, _), found in groups.items():
        if len({r["entity"] for r in found}) < 2:
            continue
        pick = max if direction == HIGH else min
        top = pick(found, key=lambda r: Decimal(r["value_text"]))
        word = (
            ("rank.highest" if direction == HIGH else "rank.lowest")
            if len(found) > 2
            else ("rank.higher" if direction == HIGH else "rank.lower")
        )
        lines.append(
            say(
                "rank",
                lang,
                period=period_label(period_type, period),
                metric=metric_name(metric, prof, lang),
                word=say(word, lang),
                entity=entity_name(top["entity"], prof, lang),
                amount=fact_amount(top, prof, lang=lang),
            )
        )
    return lines
