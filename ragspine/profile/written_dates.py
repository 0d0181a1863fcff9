"""Years and quarters written in another calendar or a shorthand, rewritten in place into the
forms the period rules read, character for character, so every span keeps its place:

- a year of the Republic of China calendar (民國113年, 中華民國99年: Taiwan's official usage) is
  that year plus 1911 (民國113年 is 2024年); only before 年, so 民国 in a name is left alone;
- a year end written YE and a year (YE23, YE 2023: an analyst's shorthand) is the fiscal year
  that ends there, as FY23 reads; never inside a word (bye23, YEN);
- 首季 (the first quarter, as the Hong Kong press writes it) is the first quarter, as 1季 reads,
  so 2024年首季 is 2024Q1;
- a calendar year written CY or "calendar (year)" and a year (CY2024, calendar year 2024) is
  that fiscal year: profiles hold calendar fiscal years (Q1 ends in March, month_quarters), so
  the two name one period; never inside a word (cyan) nor calendar without a year;
- a year named by its five-year plan (十三五收官之年) is that year (plan_years);
- a year with A after it (2020A: a broker's actual, reported year) is that year; never a year
  with E (2025E: an estimate, which no reported figure answers) nor one inside a code (2020AB).
"""

from __future__ import annotations

import re

from ragspine.profile.plan_years import plan_years

_ROC_OFFSET = 1911  # 民國元年 is 1912
# Folded text: 民國 reads 民国, 中華 reads 中华.
_ROC = re.compile(r"(?:中华)?民国\s*(\d{1,3})(?=\s*(?:年|财年|财政年度))")
_YE = re.compile(r"(?<![a-z0-9_])ye(?=\s*'?(?:(?:19|20)\d{2}|\d{2})(?!\d))")
_CY = re.compile(r"(?<![a-z0-9_])cy(?=\s*'?(?:(?:19|20)\d{2}|\d{2})(?!\d))")
_CALENDAR = re.compile(r"(?<![a-z])calendar(?=\s+(?:year\s+)?(?:19|20)\d{2}(?!\d))")
_FIRST_QUARTER = re.compile(r"首季")
_ACTUAL = re.compile(r"(?<![0-9a-z_])((?:19|20)\d{2})a(?![a-z0-9])")


def _roc(m: re.Match[str]) -> str:
    year = str(int(m[1]) + _ROC_OFFSET)
    written = m.group()
    if len(year) > len(written):
        return written  # 民国9年 (1920): no room for four digits, and no year a report holds
    return year + " " * (len(written) - len(year))  # the year first, so 年 follows it


def written_dates(folded: str) -> str:
    """Folded text with each ROC year, YE year, 首季 and actual year rewritten as the Gregorian
    year, FY, 1季 and the bare year, a calendar year as the fiscal year and a plan's year as the
    year, at the same length."""
    if "民国" in folded:
        folded = _ROC.sub(_roc, folded)
    if "ye" in folded:
        folded = _YE.sub("fy", folded)
    if "cy" in folded:
        folded = _CY.sub("fy", folded)
    if "calendar" in folded:
        folded = _CALENDAR.sub("fiscal  ", folded)
    folded = plan_years(folded)
    if "首季" in folded:
        folded = _FIRST_QUARTER.sub("1季", folded)
    return _ACTUAL.sub(lambda m: m[1] + " ", folded)
