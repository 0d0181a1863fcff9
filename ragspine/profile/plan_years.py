"""A year named by its place in China's five-year plans (十三五收官之年, 十四五开局之年), rewritten
in place into the year it is, character for character, so every span keeps its place.

The plans run five calendar years each from the sixth (1981–85): the n-th covers 1981 + 5(n-6)
to four years later, so 十一五 is 2006–10, 十三五 2016–20, 十四五 2021–25. 收官之年 (the closing
year) is the plan's last year, 开局之年 (the opening year) its first. A plan named without such
a year (十三五规划, 十三五期间) is a span of years, not one, and is left alone; 十五 alone reads
as the number fifteen and is never a plan.
"""

from __future__ import annotations

import re

_FIRST_PLAN_YEAR = 1981  # the sixth plan's first year
_FIRST_PLAN = 6
_PLAN_LENGTH = 5
_UNITS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5}
# 十三五, "十三五", 十三五规划的: the plan, then its closing or opening year.
_PLAN_YEAR = re.compile(
    r"(?<![一二三四五六七八九十百千万零〇两])十([一二三四五])五(?![年])[”\"'’」』]?\s*"
    r"(?:规划|计划)?\s*(?:的)?\s*(收官|开局)\s*之?\s*年"
)


def _year(m: re.Match[str]) -> str:
    plan = 10 + _UNITS[m[1]]
    first = _FIRST_PLAN_YEAR + _PLAN_LENGTH * (plan - _FIRST_PLAN)
    year = str(first if m[2] == "开局" else first + _PLAN_LENGTH - 1)
    # The year first, 年 last, spaces between: the period rules read "2020   年" as one span.
    return year + " " * (len(m.group()) - len(year) - 1) + "年"


def plan_years(folded: str) -> str:
    """Folded text with each five-year plan's closing or opening year rewritten as that year, at
    the same length."""
    if "五" not in folded:
        return folded
    return _PLAN_YEAR.sub(_year, folded)
