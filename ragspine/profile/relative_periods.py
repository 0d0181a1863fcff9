"""Periods written relative to another, and points in a year no period holds.

- **a period counted from a named one**: 2024年第一季度的前一个季度, the quarter before Q1 2024,
  the half after 2024H1 is the named period moved by one of its own kind, by arithmetic
  (2024Q1 back one quarter is 2023Q4; 2024H1 on one half is 2024H2). The named period is then
  no period asked: only the one counted to is queried, and declined where not held. A step of
  another kind than the period it counts from (the quarter before 2024, 2024年的前一个季度)
  names no one period: it is kept as written, with no period, and declined by its words.
  Years counted from a year (2021年的上一年度) are ``anchored_years``'.
- **a point inside a year**: 2024年年中, mid-year 2024, the middle of 2024 is a moment no
  fiscal year, half or quarter figure is: kept as written, with no period, so it is declined by
  its words and never read as the year-end figure.
- **a year named by an event or description** (the pandemic year, the record year, 疫情那年,
  上市那一年): which year it is the profile cannot tell, so it is kept as written with no period
  and declined by its words, never replaced by an assumed latest year. Words that name a period
  themselves (the fiscal year, the same year, the prior year) are no description.
- **a period restated as its months**: 6月到8月这三个月, 第一季度这三个月 is the period written
  before it; the count of months names no entity nor quantity, so it is read into that period.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragspine.profile.periods import Period, PeriodMatch

_YEAR = r"(?:19|20)\d{2}"
# Folded text: 個 reads 个. A step needs 一 or 个 (上季度 alone compares, it counts nothing).
_ZH_STEP = re.compile(
    r"\s*(?:的\s*)?(?:(前|上)|(后|下))\s*(?:一\s*个|一|个)\s*"
    r"(?:(季度|季)|(半年度?|半财年|半个?年度?))"
)
_EN_KIND = r"(?:(?P<quarter>quarter)|(?P<half>half(?:[\s-]+year)?))"
_EN_BEFORE = (
    rf"(?<![a-z])the\s+{_EN_KIND}\s+"
    r"(?:(?P<back>before|preceding|prior\s+to)|(?P<on>after|following))\s+$"
)
_EN_PRIOR = (
    rf"(?<![a-z])the\s+(?:(?P<back>previous|prior|preceding)|(?P<on>next|following))\s+{_EN_KIND}\s+"
    r"(?:of|to|before|after)\s+$"
)
_EN_LEFT = [re.compile(_EN_BEFORE), re.compile(_EN_PRIOR)]
_MONTHS_RESTATED = re.compile(
    r"\s*(?:的|这|这些|共|合计|总共)?\s*(?:[一二三四五六七八九十]+|两|\d{1,2})\s*个\s*月(?:份)?"
    r"(?:里|内|中|间|期间)?"
)
_PERIOD_WORDS = (
    "fiscal|financial|calendar|current|last|previous|prior|next|following|preceding|same|whole|"
    "full|latest|first|second|third|fourth|final|past|this|reporting|base|comparable|"
    "corresponding|entire|recent|single|one|two|three|given|specific|particular|earlier|later|"
    "a|an|each|every|that|which|what"
)
_DESCRIBED_YEAR = re.compile(
    rf"(?<![a-z])the\s+(?!(?:{_PERIOD_WORDS})\s)([a-z]+)\s+year(?![a-z\s]*(?:19|20)\d{{2}})"
    rf"(?![a-z-])|(?<![\u4e00-\u9fff])?([\u4e00-\u9fff]{{2}})(?:的)?那一?年(?!度|[\u4e00-\u9fff]*年)"
)
_MID_YEAR = re.compile(
    rf"(?<!\d)({_YEAR})\s*年\s*(?:的\s*)?(?:年中|年\s*中|中)(?:时|的时候|之时)?(?![国期报华部旬东西南北小])"
    rf"|(?<![a-z])(?:mid[\s-]?year(?!\s*(?:reports?|results?|review|accounts?|statements?))|the\s+middle\s+of(?:\s+the\s+year)?)(?:\s+(?:of\s+)?({_YEAR}))?"
    rf"(?![a-z])"
)


def _moved(period: Period, step: int, kind: str) -> Period | None:
    """``period`` moved ``step`` periods of ``kind`` (Q or H); None where it is of another kind."""
    from ragspine.profile.periods import Period

    if period.period_type != kind:
        return None
    per_year = 4 if kind == "Q" else 2
    index = period.year * per_year + int(period.period[5]) - 1 + step
    year, part = divmod(index, per_year)
    return Period(kind, f"{year:04d}{kind}{part + 1}")


def _left_step(folded: str, pm: PeriodMatch) -> tuple[int, int, str] | None:
    """An English step written before the period: (its start, step, kind)."""
    head = folded[: pm.start]
    for pattern in _EN_LEFT:
        m = pattern.search(head)
        if m is not None:
            return m.start(), -1 if m["back"] else 1, "Q" if m["quarter"] else "H"
    return None


def with_relative_periods(found: list[PeriodMatch], folded: str) -> list[PeriodMatch]:
    """``found`` with each period counted from a named one read as the period counted to, and
    each point inside a year kept as written with no period (the module's rules)."""
    out: list[PeriodMatch] = []
    steps: list[tuple[int, int]] = []  # the words of each step read: no period of their own
    for pm in found:
        restated = _MONTHS_RESTATED.match(folded, pm.end)
        if restated is not None:  # 6月到8月这三个月: the months before, restated
            pm = replace(pm, end=restated.end())
        if pm.period is None:
            out.append(pm)
            continue
        zh = _ZH_STEP.match(folded, pm.end)
        left = _left_step(folded, pm) if zh is None else None
        if zh is not None:
            step, kind, start, end = (
                (-1 if zh[1] else 1),
                ("Q" if zh[3] else "H"),
                pm.start,
                zh.end(),
            )
        elif left is not None:
            start, step, kind = left
            end = pm.end
        else:
            out.append(pm)
            continue
        raw = folded[start:end].strip()
        out.append(replace(pm, period=_moved(pm.period, step, kind), start=start, end=end, raw=raw))
        steps.append((start, end))
    # "the previous quarter" of "the previous quarter of Q1 2024" is the step, not a period
    # counted back from today
    out = [
        pm
        for pm in out
        if not any(s <= pm.start and pm.end <= e and (pm.start, pm.end) != (s, e) for s, e in steps)
    ]
    return _with_mid_years(out, folded)


def _with_mid_years(found: list[PeriodMatch], folded: str) -> list[PeriodMatch]:
    from ragspine.profile.periods import PeriodMatch

    points = list(_MID_YEAR.finditer(folded))
    points += [m for m in _DESCRIBED_YEAR.finditer(folded) if not _names_period(m)]
    if not points:
        return found
    spans = [m.span() for m in points]
    rest = [pm for pm in found if not any(s < pm.end and pm.start < e for s, e in spans)]
    # a year written apart from the words (mid-year … in 2024) is the point's, not asked alone
    if any(m.re is _MID_YEAR and m[1] is None and m[2] is None for m in points):
        rest = [pm for pm in rest if pm.period is None or pm.period.period_type != "FY"]
    mids = [PeriodMatch(None, s, e, raw=folded[s:e].strip()) for s, e in spans]
    return sorted(rest + mids, key=lambda pm: pm.start)


def _names_period(m: re.Match[str]) -> bool:
    """Two characters before 那年 that are a period's own (去年那年, 2024年那年): no event."""
    han = m[2] or ""
    return any(c in han for c in "年季月今去前后上下本")
