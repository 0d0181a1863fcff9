"""Years and quarters written in another calendar or a shorthand (profile/written_dates.py, read
by profile/periods.py): 民國 years, YE23, 首季, 2020A, the back / front half. Each with rows
where the same letters or characters are no period, so a shorthand never invents one."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.profile.periods import find_periods
from ragspine.profile.written_dates import written_dates
from ragspine.text import fold

REF = date(2025, 6, 30)


def _read(text: str) -> list[tuple[str | None, str]]:
    folded = fold(text)
    return [
        (pm.period.label if pm.period else None, folded[pm.start : pm.end])
        for pm in find_periods(folded, REF)
    ]


@pytest.mark.parametrize(
    ("text", "label", "span"),
    [
        ("台灣民國113年的營收", "FY2024", "民国113年"),  # ROC year + 1911, the whole span
        ("中華民國112年度營收", "FY2023", "中华民国112年度"),  # the full name of the calendar
        ("民國99年營收", "FY2010", "民国99年"),  # two digits, the same length as four
        ("民國113年第一季營收", "2024Q1", "民国113年第一季"),  # a quarter of an ROC year
        ("HK store count at YE23?", "FY2023", "ye23"),  # an analyst's year end
        ("store count at YE 2022", "FY2022", "ye 2022"),  # spaced, four digits
        ("香港2024年首季的營收", "2024Q1", "2024年首季"),  # 首季: the first quarter (HK press)
        ("金宇生物2020A的营业成本", "FY2020", "2020"),  # a broker's actual year
        ("gross profit in the back half of 2024", "2024H2", "back half of 2024"),
        ("revenue in the front half of 2024", "2024H1", "front half of 2024"),
        ("revenue in the latter half of 2024", "2024H2", "latter half of 2024"),
        ("2024年后半年的收入", "2024H2", "2024年后半年"),  # 后半年 as 下半年
        ("2024年前半年的收入", "2024H1", "2024年前半年"),  # 前半年 as 上半年
        ("台灣2024上半財年的毛利", "2024H1", "2024上半财年"),  # the fiscal year's first half
        ("2024年下半财年的毛利", "2024H2", "2024年下半财年"),  # its second half
        ("GP in the first half of the fiscal year 2024", "2024H1",
         "first half of the fiscal year 2024"),  # the fiscal year written out
        ("GP in the second half of fiscal 2024", "2024H2", "second half of fiscal 2024"),
        ("Hong Kong's operating profit in CY2024", "FY2024", "cy2024"),  # calendar year
        ("operating profit in CY 24", "FY2024", "cy 24"),  # spaced, two digits
        ("operating profit in calendar year 2024", "FY2024", "calendar year 2024"),
        ("金宇生物“十三五”收官之年的资产负债率", "FY2020", "十三五”收官之年"),  # plan's last year
        ("十四五开局之年的收入", "FY2021", "十四五开局之年"),  # a plan's first year
        ("十一五的收官之年", "FY2010", "十一五的收官之年"),  # 2006–2010
    ],
)  # fmt: skip
def test_a_shorthand_or_another_calendar_reads_as_the_period(
    text: str, label: str, span: str
) -> None:
    assert _read(text) == [(label, span)]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("民国路2号的门店", []),  # 民国 in a street's name, no 年 after the number
        ("goodbye23 and YEN 2023", [("FY2023", "2023")]),  # ye inside words: only the year
        ("金宇生物2025E的营业成本", []),  # an estimate: no reported year
        ("product 2020AB revenue", []),  # a code, not an actual year
        ("the back of 2024's report", [("FY2024", "2024")]),  # back without half: the year
        ("2024年前的收入", [("FY2024", "2024年")]),  # 前 alone: before, no half
        ("cyan 2024 ink", [("FY2024", "2024")]),  # cy inside a word: only the year
        ("十三五规划的重点项目", []),  # a plan named, no year of it asked
        ("二十三五年", []),  # numerals, no plan
        ("calendar of events", []),  # calendar without a year
    ],
)  # fmt: skip
def test_the_same_letters_elsewhere_are_no_such_period(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _read(text) == found


def test_a_rewrite_keeps_every_character_in_its_place() -> None:
    for text in ("台湾民国113年营收", "中华民国99年", "ye23 ye2023", "2024年首季", "2020a",
                 "cy2024", "calendar year 2024", "“十三五”收官之年"):  # fmt: skip
        assert len(written_dates(text)) == len(text)
