"""An instruction on the answer's FORM: 只要金额,别给百分比; 请给金额,不是增长率; as an amount, not
a percentage. A change asked so is the difference in money (1,400 → 1,320: 80), never the rate:
a growth read (降幅, 增速, growth rate) is replaced by its base metric asked as a change (where the
profile holds the growth as a formula over one base), and a level compared across two periods
(2020年比2019年多花了多少) is asked as that change, not as the two levels with a change line.
An instruction alone, on a level of one period with no comparison, changes nothing.
"""

from __future__ import annotations

import re
from datetime import date

from ragspine.agent.quantity import Reading
from ragspine.profile import DomainProfile
from ragspine.profile.periods import find_periods
from ragspine.profile.vocabulary import derived_shapes

_MONEY = r"(?:金额|绝对额|绝对值|绝对金额|数额|钱数)"
_RATE = r"(?:百分比|百分数|增长率|增速|增幅|降幅|比率|比例|变动率|幅度)"
_AMOUNT = re.compile(
    rf"(?:只要|只需要?|只给|请给出?|给我|要的是)\s*(?:变动|变化|差额|增加|减少)?的?\s*{_MONEY}|"
    rf"(?<!是)(?:别给|不要给?|不是|不用给?|而非|并非)\s*(?:我)?\s*(?:一个)?{_RATE}|"
    r"(?<![a-z])(?:as\s+(?:an?\s+)?(?:absolute\s+)?(?:amount|figure\s+in\s+money|sum\s+of\s+money)|"
    r"in\s+(?:absolute|money|monetary|currency)\s+terms|(?:as\s+an?\s+amount|in\s+money)|"
    r"not\s+(?:as\s+)?(?:a|the)\s+(?:percentage|percent|rate|growth\s+rate))(?![a-z])"
)
_AGAINST = re.compile(r"比|相比|相较|较|(?<![a-z])(?:than|compared|versus|vs|over)(?![a-z])")


def without_form(text: str) -> tuple[str, bool]:
    """``text`` with the amount instruction's words blanked (how the answer is given, no name of
    a quantity, no percentage asked), and whether it wrote one. Positions are kept."""
    chars, found = list(text), False
    for m in _AMOUNT.finditer(text):
        chars[m.start() : m.end()] = " " * (m.end() - m.start())
        found = True
    return "".join(chars), found


def as_amount(amount: bool, text: str, reading: Reading, prof: DomainProfile, ref: date) -> bool:
    """Apply an amount instruction (``amount``) to ``reading`` (see the module): True where the
    question now asks a change."""
    if not amount or not reading.metrics:
        return False
    bases = {c: shape[1] for shape, c in derived_shapes(prof).items() if shape[0] == "growth"}
    if any(c in bases for c in reading.metrics):
        reading.metrics = list(dict.fromkeys(bases.get(c, c) for c in reading.metrics))
        reading.spans = [(bases.get(c, c), s, e) for c, s, e in reading.spans]
        return True
    periods = {pm.period for pm in find_periods(text, ref) if pm.period is not None}
    return len(periods) == 2 and len(reading.metrics) == 1 and _AGAINST.search(text) is not None
