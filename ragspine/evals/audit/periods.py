"""The audit's own period reader: FY2024, FY24, 2024财年, 24财年, 2024年(度), fiscal 2024, 2024H1,
H1 2024, 1H24, 2024年上半年, 2024Q3, Q3 2024, 3Q24, 2024年第三季度, a bare year used as a label,
and the relative 上年 / 去年 / prior year (one year before the statement's own period).

A period is a code: "2024" (a fiscal year), "2024H1", "2024Q3", the forms the fact table uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_QUARTER = {"一": "1", "二": "2", "三": "3", "四": "4"}


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    code: str | None  # an absolute period; None for a relative one
    shift: int = 0  # a relative one: years before the statement's own period
    part: str = ""  # a half or quarter with no year of its own (上半年, Q3): "H1", "Q3"


_YEAR = r"((?:19|20)\d{2})"
_Y2 = r"(\d{2})"
_ABSOLUTE = re.compile(
    "|".join(
        [
            # 2024年第三季度, 2024年Q3, 2024Q3, 2024H1, 2024年上半年, 2024上半年
            rf"(?P<yq>{_YEAR})\s*年?\s*(?:第?(?P<qzh>[一二三四1-4])季度|(?P<half>[上下])半年"
            r"|Q(?P<q>[1-4])|H(?P<h>[12]))",
            # the first half of 2024, the third quarter of fiscal 2024
            r"(?<![A-Za-z])(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+"
            rf"(?P<unit>half|quarter)\s+(?:of\s+)?(?:FY|fiscal(?:\s+year)?\s*)?{_YEAR}",
            # Q3 2024, H1 2024, Q3 FY24
            rf"(?<![A-Za-z])(?P<qh>[QH])(?P<n>[1-4])\s*(?:FY|fiscal\s*)?(?:{_YEAR}|'?{_Y2})(?!\d)",
            # 3Q24, 1H24
            r"(?<![\dA-Za-z])(?P<n2>[1-4])(?P<qh2>[QH])(?P<y2>\d{2})(?!\d)",
            # FY2024, FY24, fiscal 2024, CY2024
            rf"(?<![A-Za-z])(?:FY|CY|fiscal(?:\s+year)?\s*)\s*(?:{_YEAR}|'?{_Y2})(?!\d)",
            # 2024财年, 24财年, 2024年度, 2024年, 2024 财政年度
            rf"(?<!\d)(?:{_YEAR}|{_Y2}(?=\s*财年))\s*(?:财年|财政年度|年度|年)",
            # a bare year: in 2024, by 2030, 2024 revenue (a value of 2024 stores is not one)
            rf"(?<![\d.,A-Za-z_]){_YEAR}(?![\d%‰]|[.,]\d|\s*(?:家|个|人|名|间|元|美元|港元|百万|万|亿"
            r"|stores?|shops?|employees|people|million|billion|dollars))",
        ]
    ),
    re.I,
)
_RELATIVE = re.compile(
    r"上一?财?年度?末?|去年末?|上一财年|上个财年|前一年|上年同期|去年同期|(?<![A-Za-z])"
    r"(?:prior|previous|last)\s+(?:fiscal\s+)?year|the\s+year\s+before|a\s+year\s+(?:earlier|ago)"
    r"|(?P<two>前年)",
    re.I,
)
_PART = re.compile(
    r"(?P<half>[上下])半年|第?(?P<qzh>[一二三四])季度|(?<![A-Za-z\d])(?P<qh>[QH])(?P<n>[1-4])(?![\d])",
)


def find_periods(text: str) -> list[Mention]:
    """Every period expression in ``text``, in order; overlaps resolved to the longest."""
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for m in _ABSOLUTE.finditer(text):
        found.append(Mention(m.start(), m.end(), _code(m)))
        taken.append((m.start(), m.end()))
    for m in _RELATIVE.finditer(text):
        if not _inside(m.start(), m.end(), taken):
            found.append(Mention(m.start(), m.end(), None, shift=-2 if m.group("two") else -1))
            taken.append((m.start(), m.end()))
    for m in _PART.finditer(text):
        if not _inside(m.start(), m.end(), taken):
            part = _part(m.group("half"), m.group("qzh"), m.group("qh"), m.group("n"))
            found.append(Mention(m.start(), m.end(), None, part=part))
    return sorted(found, key=lambda p: p.start)


def _inside(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(a < end and start < b for a, b in spans)


def _part(half: str | None, qzh: str | None, qh: str | None, n: str | None) -> str:
    if half:
        return "H1" if half == "上" else "H2"
    if qzh:
        return f"Q{_QUARTER.get(qzh, qzh)}"
    return f"{(qh or 'Q').upper()}{n}"


_ORDINALS = ("first", "second", "third", "fourth")


def _code(m: re.Match[str]) -> str:
    years = [g for g in m.groups() if g and len(g) in (2, 4) and g.isdigit()]
    year = years[0] if years else ""
    year = f"20{year}" if len(year) == 2 else year
    if m.group("yq"):
        half, quarter = m.group("h"), m.group("q")
        return year + _part(m.group("half"), m.group("qzh"), "H" if half else None, quarter or half)
    if m.group("qh"):
        return f"{year}{m.group('qh').upper()}{m.group('n')}"
    if m.group("ord"):
        word = m.group("ord").lower()
        n = int(word[0]) if word[0].isdigit() else _ORDINALS.index(word) + 1
        return f"{year}{'H' if m.group('unit').lower() == 'half' else 'Q'}{n}"
    if m.group("qh2"):
        return f"20{m.group('y2')}{m.group('qh2').upper()}{m.group('n2')}"
    return year


def shifted(code: str | None, years: int) -> str | None:
    """The period ``years`` before or after; None where it cannot be told."""
    if not code or not code[:4].isdigit():
        return None
    return f"{int(code[:4]) + years:04d}{code[4:]}"


def with_part(code: str | None, part: str) -> str | None:
    """上半年 in a statement about 2024: 2024H1."""
    if not code or not code[:4].isdigit():
        return None
    return f"{code[:4]}{part}"


def period_code(period_type: str, period: str) -> str | None:
    """A fact's period as a code: FY 2024 → "2024", H 2024H1 → "2024H1"."""
    text = str(period).strip()
    m = re.fullmatch(r"(?:FY)?((?:19|20)\d{2})((?:[HQ])[1-4])?", text, re.I)
    return f"{m.group(1)}{(m.group(2) or '').upper()}" if m else None
