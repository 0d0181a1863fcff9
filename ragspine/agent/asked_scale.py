"""The scale a question asks a figure in (多少千元, 以亿元计, in RMB million, USD thousands): the
answer states the stored figure as held and, beside it, the same figure converted exactly into
that scale, so the reader gets the number asked for without a figure the source does not imply.

A scale is a power of ten before a currency word (千元, 万元, 百万美元, 亿元; thousand, million,
billion beside RMB / USD / yuan / dollars, or "in millions"), never a figure: a number written
before it (超过1亿元, over 5 million yuan) is a stated amount, and 几千元 is an estimate. A scale
is not a currency: the converted figure keeps the unit's own currency word (a currency the
facts do not hold is another rule's). Only an amount unit whose display names its scale (元,
百万美元) is converted; a percentage, a count or a ratio never is.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import NamedTuple

from ragspine.profile import DomainProfile
from ragspine.text import fold

_ZH_FACTORS = {"千": 10**3, "万": 10**4, "十万": 10**5, "百万": 10**6, "千万": 10**7, "亿": 10**8,
               "十亿": 10**9}  # fmt: skip
_EN_FACTORS = {"thousand": 10**3, "k": 10**3, "million": 10**6, "mn": 10**6, "m": 10**6,
               "billion": 10**9, "bn": 10**9}  # fmt: skip
_EN_WORDS = {10**3: "thousand", 10**4: "ten thousand", 10**5: "hundred thousand",
             10**6: "million", 10**7: "ten million", 10**8: "hundred million",
             10**9: "billion"}  # fmt: skip
_ZH_WORDS = {v: k for k, v in _ZH_FACTORS.items()}
_NUMERALS = r"\d.,一二三四五六七八九十百千万亿两几零〇"
_ZH = re.compile(
    rf"(?<![{_NUMERALS}])(十亿|千万|百万|十万|千|万|亿)\s*(?:元|美元|港元|港币|人民币|块|新台币)"
)
_CURRENCY_EN = r"(?:rmb|cny|usd|hkd|twd|us\$|hk\$|yuan|dollars?)"
_SCALE_EN = r"(thousands?|millions?|billions?|mn|bn|k|m)"
_EN = re.compile(
    rf"(?<!\d)(?<!\d\s)(?:"
    rf"{_CURRENCY_EN}\s*{_SCALE_EN}(?![a-z])"
    rf"|(?<![a-z])in\s+(thousands|millions|billions)(?![a-z])"
    rf"|(?<![a-z]){_SCALE_EN}\s+(?:of\s+)?{_CURRENCY_EN}(?![a-z])"
    rf")"
)


class AskedScale(NamedTuple):
    """A power of ten the question asks the figure in."""

    factor: int


def asked_scale(question: str) -> AskedScale | None:
    """The one scale the question asks its figure in, else None (none, or two different)."""
    folded = fold(question)
    found = {_ZH_FACTORS[m[1]] for m in _ZH.finditer(folded)}
    for m in _EN.finditer(folded):
        word = next(g for g in m.groups() if g)
        found.add(_EN_FACTORS[word.removesuffix("s")])
    return AskedScale(found.pop()) if len(found) == 1 else None


def _base_word(shown: str, scale: int, words: dict[int, str]) -> str | None:
    """The unit's currency word without its scale (百万美元 → 美元, million USD → USD)."""
    if scale == 1:
        return shown
    prefix = words.get(scale)
    if prefix and shown.startswith(prefix):
        return shown[len(prefix) :].strip() or None
    return None


def in_asked_scale(
    value_text: str, unit_code: str, asked: AskedScale, prof: DomainProfile, english: bool
) -> tuple[Decimal, str] | None:
    """The stored value in the asked scale and the unit word that goes after it (千元, million
    yuan), or None when the unit is not an amount, already at that scale, or does not say its
    own scale in its name."""
    unit = prof.unit(unit_code)
    scale = int(unit.scale) if float(unit.scale).is_integer() else 0
    if unit.kind != "amount" or scale <= 0 or scale == asked.factor:
        return None
    if english:
        base = _base_word(unit.name_en or unit.display, scale, _EN_WORDS)
        word = f"{_EN_WORDS[asked.factor]} {base}" if base else None
    else:
        base = _base_word(unit.display, scale, _ZH_WORDS)
        word = f"{_ZH_WORDS[asked.factor]}{base}" if base else None
    if word is None or asked.factor not in (_EN_WORDS if english else _ZH_WORDS):
        return None
    return Decimal(value_text) * scale / asked.factor, word
