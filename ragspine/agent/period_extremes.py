"""An extreme across PERIODS: "in which year from 2022 to 2024 did the operating margin peak, and
at what level", 2019年到2021年哪一年净利润最高. Each period's figure is stated with its own
source, and the period at the top (bottom) is named from those figures, with its figure; a tie
names every tied period; a period without a figure is said as such by its own line and never
ranked. The words asking it (which year, peak, 最高) are the rank's cue, never a subject.

A rank of the company's parts (which region) is ranks.py; a rank of a year's quarters (哪个季度)
asks its quarters (period_spans.py) and is named here too.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ragspine.agent.names import entity_name, metric_name
from ragspine.agent.query_tools import FoundResult, ToolResult
from ragspine.agent.render import distinct_found, fact_amount, period_label
from ragspine.agent.wording import ZH, Language, say
from ragspine.profile import DomainProfile
from ragspine.profile.periods import Period

HIGH, LOW = "high", "low"  # as ranks.HIGH / ranks.LOW

# Which period: a year, a quarter, a half (哪一年, 哪个年度, in which year, what quarter).
_WHICH = re.compile(
    r"哪(?:一|个|几)?个?\s*(?:年度?|季度|半年度?)|(?<![a-z])(?:in\s+)?(?:which|what)\s+"
    r"(?:fiscal\s+)?(?:year|quarter|half|period)(?![a-z])"
)
_LOW = re.compile(
    r"最(?:低|少|小|差|弱)|(?:低谷|谷底)|(?<![a-z])(?:lowest|smallest|least|worst|weakest|"
    r"bottom(?:ed)?|trough(?:ed)?)(?![a-z])"
)
_HIGH = re.compile(
    r"最(?:高|多|大|好|强)|(?:峰值|顶峰|高峰)|(?<![a-z])(?:highest|largest|biggest|most|best|"
    r"strongest|greatest|peak(?:ed|s)?|top(?:ped)?)(?![a-z])"
)


def period_extreme(text: str) -> tuple[str, list[tuple[int, int]]] | None:
    """HIGH or LOW and the words asking it (which year … peak), where the question asks which
    of its periods ranks first; None where it asks no period (which region is ranks.py)."""
    which = _WHICH.search(text)
    if which is None:
        return None
    low, high = _LOW.search(text), _HIGH.search(text)
    if low is None and high is None:
        return None
    if low and (high is None or low.start() < high.start()):
        return LOW, [which.span(), low.span()]
    assert high is not None
    return HIGH, [which.span(), high.span()]


def extreme_words(text: str) -> list[tuple[int, int]]:
    """The words asking which period ranks first: the rank's cue, no name (which year, peak)."""
    asked = period_extreme(text)
    return asked[1] if asked else []


def period_rank(text: str, periods: list[Period]) -> str | None:
    """HIGH or LOW where the question asks which of its two periods or more ranks first."""
    asked = period_extreme(text)
    return asked[0] if asked and len(periods) > 1 else None


def period_extreme_lines(
    results: list[ToolResult], direction: str, prof: DomainProfile, lang: Language = ZH
) -> list[str]:
    """For each metric, entity and channel found for two periods or more: the period(s) at the
    extreme and the figure, as stated above it (经营利润率最高:FY2022 9.00% / highest operating
    margin: FY2022 9.00%). Tied periods are all named."""
    groups: dict[tuple[str, str, str], list[FoundResult]] = {}
    for r in distinct_found(results):
        groups.setdefault((r["metric_code"], r["entity"], r["channel"]), []).append(r)
    lines = []
    for (metric, entity, _), found in groups.items():
        if len({(r["period_type"], r["period"]) for r in found}) < 2:
            continue
        pick = max if direction == HIGH else min
        top = pick(Decimal(r["value_text"]) for r in found)
        tied = [r for r in found if Decimal(r["value_text"]) == top]
        line = say(
            "period_extreme",
            lang,
            entity=entity_name(entity, prof, lang),
            metric=metric_name(metric, prof, lang),
            word=say("rank.highest" if direction == HIGH else "rank.lowest", lang),
            periods=("、" if lang == ZH else ", ").join(
                period_label(r["period_type"], r["period"]) for r in tied
            ),
            amount=fact_amount(tied[0], prof, lang=lang),
        )
        lines.append(line[:1].upper() + line[1:])  # mainland China … opens a sentence
    return lines
