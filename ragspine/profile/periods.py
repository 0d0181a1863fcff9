"""Period expressions: FY / half / quarter, absolute or relative to a reference date.

Patterns run over folded text (lower case, simplified, half-width), most specific first, and
each claims its span so '2024年第三季度' is a quarter and never also the year 2024.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import NamedTuple

from ragspine.profile.anchored_years import anchored_years
from ragspine.profile.compared_years import compared_years
from ragspine.profile.month_quarters import quarters_by_month
from ragspine.profile.month_ranges import MonthRun, covered, month_runs
from ragspine.profile.prior_periods import with_prior_periods
from ragspine.profile.relative_periods import with_relative_periods
from ragspine.profile.written_dates import written_dates

FY = "FY"
HALF = "H"
QUARTER = "Q"


class Period(NamedTuple):
    """A controlled period: type FY/H/Q and code '2024' / '2024H1' / '2024Q3'."""

    period_type: str
    period: str

    @property
    def label(self) -> str:
        """How people write it: FY2024, 2024H1, 2024Q3."""
        return f"FY{self.period}" if self.period_type == FY else self.period

    @property
    def year(self) -> int:
        return int(self.period[:4])

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Chronological order of the period's end."""
        if self.period_type == QUARTER:
            return (self.year, int(self.period[5]) * 3, 0)
        if self.period_type == HALF:
            return (self.year, int(self.period[5]) * 6, 1)
        return (self.year, 12, 2)


@dataclass(frozen=True)
class PeriodMatch:
    """A period named in the text; ``period`` is None for one that cannot exist (2024Q5)."""

    period: Period | None
    start: int
    end: int
    raw: str = ""
    year_assumed: bool = False  # a quarter or half written without a year, with none nearby


_CN_NUM = {"一": 1, "二": 2, "三": 3, "四": 4, "1": 1, "2": 2, "3": 3, "4": 4}
_YEAR = r"(?:19|20)\d{2}"
_YY = rf"{_YEAR}|\d{{2}}"
# Years back from the reference date's calendar year (README: the day 去年 is relative to):
# 大前年 three, 前年 and 上上年 two, 去年 one. Longest first: 大前年 is never 前年.
_REL_YEAR = r"大前年|上上年|去年|前年|今年|本年|上一年"
_REL_BACK = {"大前年": -3, "上上年": -2, "前年": -2, "去年": -1, "上一年": -1, "今年": 0, "本年": 0}
_NB = r"(?<![a-z0-9_])"  # not inside a Latin word
# 单季 after a quarter's number says it is that quarter alone: 第四单季, Q4单季.
_SINGLE = r"单"  # folded: 單 reads 单
# A half-year report, the first half's figures: 中期业绩, 中报, 半年报, interim results.
_INTERIM_ZH = r"(?:(?:中期|半年度?)(?:业绩|报告|财报|报)|中报)"  # folded: 業績 reads 业绩
_INTERIM_EN = (
    r"(?:interim|half[\s-]+year(?:ly)?)\s+(?:results?|reports?|accounts?|statements?)(?![a-z])"
)
_NA = r"(?![a-z0-9_])"
# Which half a word names: the front / back half, the latter half; 前 / 后半年 as 上 / 下半年;
# 上半财年 is the fiscal year's first half, as 上半年 (fiscal years are calendar years here).
_HALF_WORDS = {"first": 1, "front": 1, "second": 2, "back": 2, "latter": 2,
               "上": 1, "前": 1, "下": 2, "后": 2}  # fmt: skip
_HALF_EN = r"(first|second|front|back|latter)\s+half"


def _year(text: str, ref: date) -> int:
    if text in _REL_BACK:
        return ref.year + _REL_BACK[text]
    value = int(text)
    return 2000 + value if value < 100 else value


def _fy(year: int) -> Period:
    return Period(FY, f"{year:04d}")


def _half(year: int, half: int) -> Period:
    return Period(HALF, f"{year:04d}H{half}")


def _quarter(year: int, quarter: int) -> Period:
    return Period(QUARTER, f"{year:04d}Q{quarter}")


def previous_period(period: Period) -> Period:
    """The same period a year earlier: what a change 'this year' is measured against."""
    return Period(period.period_type, f"{period.year - 1:04d}{period.period[4:]}")


def _previous_quarter(ref: date) -> Period:
    q = (ref.month - 1) // 3 + 1
    return _quarter(ref.year, q - 1) if q > 1 else _quarter(ref.year - 1, 4)


_Handler = Callable[[re.Match[str], date], Period]

_RULES: list[tuple[re.Pattern[str], _Handler]] = [
    # Quarters
    (
        re.compile(
            rf"(?<!\d)({_YEAR}|{_REL_YEAR})\s*年?\s*第?\s*([1-4一二三四])\s*{_SINGLE}?季度?"
        ),
        lambda m, r: _quarter(_year(m[1], r), _CN_NUM[m[2]]),
    ),
    (  # FY24 Q4, FY2024-Q4: the fiscal year's quarter, one period
        re.compile(rf"{_NB}fy\s*'?({_YY})\s*[-/]?\s*q([1-4]){_NA}"),
        lambda m, r: _quarter(_year(m[1], r), int(m[2])),
    ),
    (  # FY24 H1
        re.compile(rf"{_NB}fy\s*'?({_YY})\s*[-/]?\s*h([12]){_NA}"),
        lambda m, r: _half(_year(m[1], r), int(m[2])),
    ),
    (
        re.compile(
            rf"(?<!\d)({_YEAR}|{_REL_YEAR})\s*(?:年|财年)?\s*[-/]?\s*q([1-4]){_NA}"
            rf"(?:\s*{_SINGLE}季度?)?"
        ),
        lambda m, r: _quarter(_year(m[1], r), int(m[2])),
    ),
    (  # 2024年最后一个季度, the last quarter of 2024: a named year's fourth quarter
        re.compile(
            rf"(?<!\d)({_YEAR})\s*(?:年|财年)?\s*(?:的)?\s*(?:最后一个季度|最后一季度?|最末一季度?)|"
            rf"{_NB}(?:the\s+)?(?:last|final)\s+quarter\s+of\s+(?:fy\s*)?({_YEAR}){_NA}"
        ),
        lambda m, r: _quarter(_year(m[1] or m[2], r), 4),
    ),
    (
        re.compile(rf"{_NB}q([1-4])\s*(?:of\s*)?(?:fy)?\s*'?({_YY})(?!\d)"),
        lambda m, r: _quarter(_year(m[2], r), int(m[1])),
    ),
    (
        re.compile(rf"(?<![a-z0-9_])([1-4])q\s*'?({_YY})(?!\d)"),
        lambda m, r: _quarter(_year(m[2], r), int(m[1])),
    ),
    (
        re.compile(rf"{_NB}(first|second|third|fourth)\s+quarter\s+(?:of\s+)?(?:fy\s*)?({_YEAR})"),
        lambda m, r: _quarter(
            _year(m[2], r), ["first", "second", "third", "fourth"].index(m[1]) + 1
        ),
    ),
    # Halves; an interim report is the first half's (2024年中期业绩, 2024 interim results)
    (
        re.compile(rf"(?<!\d)({_YEAR}|{_REL_YEAR})\s*(?:年|财年)?\s*(?:的)?\s*{_INTERIM_ZH}"),
        lambda m, r: _half(_year(m[1], r), 1),
    ),
    (
        re.compile(
            rf"{_NB}(?:fy\s*)?({_YEAR})\s+{_INTERIM_EN}|"
            rf"{_NB}{_INTERIM_EN}\s+(?:for|of)\s+(?:the\s+)?(?:fy\s*)?({_YEAR})(?!\d)"
        ),
        lambda m, r: _half(_year(m[1] or m[2], r), 1),
    ),
    (
        re.compile(
            rf"(?<!\d)({_YEAR}|{_REL_YEAR})\s*(?:年|财年)?\s*(?:的)?\s*(上|下|前|后)半(?:财年|年度?)"
        ),
        lambda m, r: _half(_year(m[1], r), _HALF_WORDS[m[2]]),
    ),
    (
        re.compile(rf"(?<!\d)({_YEAR})\s*[-/]?\s*h([12]){_NA}"),
        lambda m, r: _half(_year(m[1], r), int(m[2])),
    ),
    (
        re.compile(rf"{_NB}h([12])\s*(?:of\s*)?(?:fy)?\s*'?({_YY})(?!\d)"),
        lambda m, r: _half(_year(m[2], r), int(m[1])),
    ),
    (
        re.compile(rf"(?<![a-z0-9_])([12])h\s*'?({_YY})(?!\d)"),
        lambda m, r: _half(_year(m[2], r), int(m[1])),
    ),
    (
        re.compile(
            rf"{_NB}{_HALF_EN}\s+(?:of\s+)?(?:the\s+)?(?:fy\s*|fiscal\s+(?:year\s+)?)?({_YEAR})"
        ),
        lambda m, r: _half(_year(m[2], r), _HALF_WORDS[m[1]]),
    ),
    # Fiscal years
    (
        re.compile(rf"{_NB}fy\s*'?({_YY})(?!\d)"),
        lambda m, r: _fy(_year(m[1], r)),
    ),
    (
        re.compile(rf"{_NB}fiscal\s*(?:year\s*)?'?({_YY})(?!\d)"),
        lambda m, r: _fy(_year(m[1], r)),
    ),
    (
        re.compile(rf"(?<!\d)({_YY})\s*(?:财年|财政年度|年度|年)"),
        lambda m, r: _fy(_year(m[1], r)),
    ),
    (
        re.compile(rf"(?<![0-9a-z_])({_YEAR})(?![0-9a-z])"),
        lambda m, r: _fy(_year(m[1], r)),
    ),
    # Relative to the reference date
    (re.compile(r"上一?个?季度|上季"), lambda m, r: _previous_quarter(r)),
    (
        re.compile(rf"{_NB}(?:last|previous|prior)\s+quarter{_NA}"),
        lambda m, r: _previous_quarter(r),
    ),
    (re.compile(r"上半财?年"), lambda m, r: _half(_NO_YEAR, 1)),
    (re.compile(r"下半财?年"), lambda m, r: _half(_NO_YEAR, 2)),
    (re.compile(r"大前年"), lambda m, r: _fy(r.year - 3)),
    (re.compile(r"前年|上上(?:个)?(?:财)?年"), lambda m, r: _fy(r.year - 2)),
    (re.compile(rf"{_NB}(?:the\s+)?year\s+before\s+last{_NA}"), lambda m, r: _fy(r.year - 2)),
    (re.compile(r"去年|上一?个?财年|上一年"), lambda m, r: _fy(r.year - 1)),
    (
        re.compile(rf"{_NB}(?:last|previous|prior)\s+(?:fiscal\s+|financial\s+)?year{_NA}"),
        lambda m, r: _fy(r.year - 1),
    ),
    (re.compile(r"今年|本年|本财年"), lambda m, r: _fy(r.year)),
    (re.compile(rf"{_NB}this\s+(?:fiscal\s+)?year{_NA}"), lambda m, r: _fy(r.year)),
    # Quarters and halves written without a year: the year comes from context (see below).
    # 哪一季度 asks which quarter: its 一 counts nothing (never the first quarter).
    (
        re.compile(r"(?<!哪)第?\s*([1-4一二三四])\s*季度"),
        lambda m, r: _quarter(_NO_YEAR, _CN_NUM[m[1]]),
    ),
    (re.compile(rf"{_NB}q([1-4]){_NA}"), lambda m, r: _quarter(_NO_YEAR, int(m[1]))),
    (re.compile(rf"{_NB}h([12]){_NA}"), lambda m, r: _half(_NO_YEAR, int(m[1]))),
    (
        re.compile(rf"{_NB}(first|second|third|fourth)\s+quarter{_NA}"),
        lambda m, r: _quarter(_NO_YEAR, ["first", "second", "third", "fourth"].index(m[1]) + 1),
    ),
    (
        re.compile(rf"{_NB}{_HALF_EN}{_NA}"),
        lambda m, r: _half(_NO_YEAR, _HALF_WORDS[m[1]]),
    ),
]

_NO_YEAR = 0

# Periods that cannot exist. Matched first, so '2024年第五季度' is never read as the year 2024.
_IMPOSSIBLE = re.compile(
    rf"(?:(?:{_YEAR})\s*年?\s*)?第\s*[0五六七八九十]\s*季度?"
    rf"|{_NB}(?:(?:{_YEAR})\s*(?:年|财年)?\s*[-/]?\s*)?q[05-9]\s*(?:of\s*)?(?:fy)?\s*'?(?:{_YY})?(?!\d)"
    rf"|{_NB}(?:(?:{_YEAR})\s*[-/]?\s*)?h[03-9]\s*(?:of\s*)?(?:fy)?\s*'?(?:{_YY})?(?!\d)"
)


_CANONICAL = re.compile(r"^(?:fy)?((?:19|20)\d{2})(?:([hq])([1-4]))?$")


# A year written in Chinese numerals (二〇二四年, 二零二一年, 一九九九年; ○ stands for 〇 in many
# documents): four numerals of a year of this century or the last, before 年 / 财年 / 财政年度.
_CN_DIGITS = str.maketrans("〇○零一二三四五六七八九", "000123456789")
_NUMERAL = "〇○零一二三四五六七八九十百千万两"
_CN_YEAR = re.compile(
    rf"(?<![{_NUMERAL}])(?:一九|二[〇○零])[〇○零一二三四五六七八九]{{2}}(?=\s*(?:财政年度|财年|年))"
)


def arabic_years(folded: str) -> str:
    """Folded text with each year written in Chinese numerals rewritten in digits, numeral for
    digit, so every span keeps its place: 二〇二四年 is 2024年, never a name 「二四」."""
    if not any(c in folded for c in "〇○零九"):
        return folded  # every such year holds one of these
    return _CN_YEAR.sub(lambda m: m.group().translate(_CN_DIGITS), folded)


@lru_cache(maxsize=4096)
def find_periods(folded: str, reference_date: date) -> tuple[PeriodMatch, ...]:
    """Every period named in folded text, in order of appearance, without overlaps."""
    folded = written_dates(arabic_years(folded))
    canonical = _CANONICAL.match(folded)
    if canonical and not (canonical[2] == "h" and canonical[3] not in ("1", "2")):
        year, kind, n = canonical.groups()
        if kind is None:
            period = _fy(int(year))
        else:
            period = _half(int(year), int(n)) if kind == "h" else _quarter(int(year), int(n))
        return (PeriodMatch(period, 0, len(folded)),)
    taken: list[tuple[int, int]] = []
    found: list[PeriodMatch] = []
    for m in _IMPOSSIBLE.finditer(folded):
        raw = m.group().strip()
        if raw:
            taken.append(m.span())
            found.append(PeriodMatch(None, m.start(), m.end(), raw=raw.upper()))
    for year in anchored_years(folded):  # 2021年的上一年度: 2020, never a year before today's
        taken.append((year.start, year.end))
        found.append(PeriodMatch(_fy(year.year), year.start, year.end, raw=year.raw))
    for back in compared_years(folded):  # 2021年…与上年相比: 2020, counted from the year named
        if not any(back.start < e and s < back.end for s, e in taken):
            taken.append((back.start, back.end))
            found.extend(PeriodMatch(_fy(y), back.start, back.end, back.raw) for y in back.years)
    # 2024年10-12月, the September quarter: the quarter; 2-4月, the August quarter: none held
    for run in [*month_runs(folded), *quarters_by_month(folded)]:
        if not any(run.start < e and s < run.end for s, e in taken):
            taken.append((run.start, run.end))
            found.append(PeriodMatch(_of_months(run), run.start, run.end, raw=run.raw))
    for pattern, handler in _RULES:
        for m in pattern.finditer(folded):
            start, end = m.span()
            if any(start < e and s < end for s, e in taken):
                continue
            taken.append((start, end))
            found.append(PeriodMatch(handler(m, reference_date), start, end, raw=m.group()))
    found.sort(key=lambda pm: pm.start)
    found = with_relative_periods(_same_part(_fill_years(found, reference_date), folded), folded)
    return tuple(with_prior_periods(found, folded))


def _of_months(run: MonthRun) -> Period | None:
    """The held period a run of months covers exactly, its year unset when none is written."""
    kind = covered(run)
    year = _NO_YEAR if run.year is None else run.year
    if kind is None:
        return None
    return _fy(year) if kind[0] == FY else (_half if kind[0] == HALF else _quarter)(year, kind[1])


# "2023年同期", "the same period of 2023": the year's part the question names elsewhere.
_SAME_AFTER = re.compile(r"\s*(?:的)?\s*同期")
_SAME_BEFORE = re.compile(
    r"(?<![a-z])(?:the\s+)?same\s+(?:period|half|quarter|months?)\s+(?:of|in|last)\s+$"
)


def _same_part(found: list[PeriodMatch], folded: str) -> list[PeriodMatch]:
    """A year written as the same period (2023年同期, the same period of 2023) is the half or
    quarter the question names beside it (2024年下半年 … 2023年同期: 2023H2), never the whole
    year: a change between a half and a full year is no change."""
    parts = [pm.period for pm in found if pm.period and pm.period.period_type != FY]
    if len({p.period[4:] for p in parts}) != 1:
        return found  # no part named, or two: which one is meant is not said
    part = parts[0]
    out = []
    for pm in found:
        p = pm.period
        same = _SAME_AFTER.match(folded, pm.end) or _SAME_BEFORE.search(folded, 0, pm.start)
        if p is not None and p.period_type == FY and same:
            pm = PeriodMatch(Period(part.period_type, f"{p.year:04d}{part.period[4:]}"),
                             pm.start, pm.end, pm.raw, pm.year_assumed)  # fmt: skip
        out.append(pm)
    return out


def _fill_years(found: list[PeriodMatch], ref: date) -> list[PeriodMatch]:
    """A yearless quarter or half takes the year of the period before it ('2024年第一季度和第二
    季度'); alone, the latest one already complete, flagged as an assumption. '上半年' alone is
    this year's, as people say it."""
    out: list[PeriodMatch] = []
    last_year: int | None = None
    for pm in found:
        p = pm.period
        if p is not None and p.year == _NO_YEAR:
            n = int(p.period[5]) if p.period_type != FY else 1
            if last_year is not None:
                year, assumed = last_year, False
            elif pm.raw == "上半年":
                year, assumed = ref.year, False
            else:
                months = {QUARTER: 3, HALF: 6}.get(p.period_type, 12)
                year, assumed = (ref.year if ref.month > months * n else ref.year - 1), True
            period = _quarter(year, n) if p.period_type == QUARTER else _half(year, n)
            period = _fy(year) if p.period_type == FY else period  # 1-12月: the whole year
            pm = PeriodMatch(period, pm.start, pm.end, pm.raw, year_assumed=assumed)
        elif p is not None:
            last_year = p.year
        out.append(pm)
    return out


def parse_period(folded: str, reference_date: date) -> Period | None:
    """One period that is the whole of ``folded``, else None: never a guess."""
    matches = find_periods(folded, reference_date)
    if len(matches) != 1 or matches[0].period is None:
        return None
    m = matches[0]
    leftover = folded[: m.start] + folded[m.end :]
    if any(c.isalnum() for c in leftover):
        return None
    return m.period
