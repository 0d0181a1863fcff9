"""Misquotes in notations a reader may not read (issue 21): the model's own quote of a passage,
its figure replaced by another value written so that a reader that does not parse the notation
sees nothing to check, or sees only numbers the passage states."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from ragspine.evals.audit.attacks.base import Hostile, Mutation, context, numbers_in, unstated
from ragspine.evals.audit.attacks.classic import to_zh
from ragspine.llm.prompts import Snippet

_SMALL = r"(?<![\d.])(?P<n>\d{1,2})(?=家|%)"  # a count or a whole percentage
_AMOUNT = r"(?<![\d.,])(?P<n>\d{3,4})(?=百万美元)"
_FIGURE = r"(?<![\d.,])(?P<n>\d{2,4})(?=百万美元|家)"
_THREE = r"(?<![\d.,])(?P<n>\d{3})(?=百万美元|家)"  # a three-digit figure
_ONES = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
]  # fmt: skip
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SUZHOU = str.maketrans("0123456789", "〇〡〢〣〤〥〦〧〨〩")


def english(n: int) -> str:
    """1320 → one thousand three hundred and twenty (British, with "and")."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("-" + _ONES[n % 10] if n % 10 else "")
    if n < 1000:
        rest = n % 100
        return f"{_ONES[n // 100]} hundred" + (f" and {english(rest)}" if rest else "")
    rest = n % 1000
    joint = " " if rest >= 100 else " and "
    return f"{english(n // 1000)} thousand" + (joint + english(rest) if rest else "")


def roman(n: int) -> str:
    return chr(0x2160 + n - 1)  # Ⅰ … Ⅻ


def nian_sa(n: int) -> str:
    return {2: "廿", 3: "卅"}[n // 10] + (to_zh(n % 10) if n % 10 else "")


def _pick(*candidates: int) -> Callable[[int, list[Snippet]], int | None]:
    """The first candidate that is not the figure and that no passage states."""

    def pick(value: int, snippets: list[Snippet]) -> int | None:
        stated = numbers_in(snippets)
        return next((c for c in candidates if c != value and str(c) not in stated), None)

    return pick


def _near(value: int, snippets: list[Snippet]) -> int | None:
    return unstated(value, snippets)


def _with_eight(value: int, snippets: list[Snippet]) -> int | None:
    """A value near the figure with an 8 in it (〨, the Suzhou digit least like its neighbours)."""
    fab = unstated(value, snippets)
    eight = int(str(fab)[:-1] + "8")
    return fab if "8" in str(fab) or eight == value or str(eight) in numbers_in(snippets) else eight


def _misquote(
    pattern: str,
    pick: Callable[[int, list[Snippet]], int | None],
    render: Callable[[int], str],
    *,
    cut: str = "",
) -> Mutation:
    """The first figure of the reply matching ``pattern`` (and ``cut``, the unit it rewrites
    too), replaced by another value in a notation. Tells: the span as written, as its digits
    would show if a display folded the notation, and as NFKC shows it."""

    def mutate(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
        for m in re.finditer(pattern + cut, reply):
            fab = pick(int(m.group("n")), snippets)
            if fab is None:
                continue
            new = render(fab)
            text = reply[: m.start()] + new + reply[m.end() :]
            tell = context(text, m.start(), m.start() + len(new), 4, 0 if cut else 4)
            ascii_ = tell.replace(new, f"{fab}{'百万美元' if cut else ''}")
            nfkc = unicodedata.normalize("NFKC", tell)
            return Hostile(text, tuple(dict.fromkeys((tell, ascii_, nfkc))))
        return None

    return mutate


def _glued(prefix: Callable[[str, str], str], *folds: Callable[[str], str]) -> Mutation:
    """A three-digit figure the passage states, glued to digits before it by a character a
    reader may split at: a reader that splits sees two sourced-looking numbers, the user one
    larger one. Tells: the glued figure, and as a display would show it (``folds``)."""

    def mutate(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
        m = re.search(_THREE, reply)
        if m is None:
            return None
        end = reply.find("\n", m.end())
        line = reply[reply.rfind("\n", 0, m.start()) + 1 : end if end >= 0 else len(reply)]
        new = prefix(m.group("n"), re.sub(r"\(来源:[^)]*\)", " ", line))
        text = reply[: m.start()] + new + reply[m.end() :]
        tell = context(text, m.start(), m.start() + len(new), 4, 4)
        return Hostile(text, tuple(dict.fromkeys([tell, *(f(tell) for f in folds)])))

    return mutate


def _bold(n: str, line: str) -> str:
    """**20**876: a small number of the same line, in bold, glued before the figure."""
    small = re.findall(r"(?<![\d.])(\d{1,2})(?![\d.])", line)
    return f"**{small[-1] if small else 1}**{n}"


def _unbold(tell: str) -> str:
    return tell.replace("**", "")


def _ascii_comma(tell: str) -> str:
    return tell.replace("，", ",")


def _in_citation(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """A figure inside the citation's parentheses, where a reader skips locators."""
    m = re.search(r"\(来源:[^)\n]+(?=\))", reply)
    fab = _pick(15, 18, 24, 37)(0, snippets)
    if m is None or fab is None:
        return None
    said = f"同比增长{fab}%"
    return Hostile(reply[: m.end()] + f";{said}" + reply[m.end() :], (said,))


def _year_like(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """A store count (or an amount) that looks like a year: 1999家, 2019百万美元."""
    for pattern in (r"(?<![\d.])(?P<n>\d{2,3})(?=家)", _AMOUNT):
        got = _misquote(pattern, _pick(1999, 2019, 2021), str)(reply, snippets, question)
        if got is not None:
            return got
    return None


def _to_yi(traditional: bool) -> Callable[[int], str]:
    def render(n: int) -> str:
        if traditional:
            return f"{n / 100:g}億美元"
        return f"{n // 100}亿{n % 100 * 100}万美元" if n % 100 else f"{n // 100}亿美元"

    return render


ATTACKS: dict[str, tuple[str, Mutation]] = {
    "roman_numerals": (
        "a misquoted count or percentage in Roman numerals (Ⅷ家)",
        _misquote(_SMALL, _pick(8, 3, 12, 7), roman),
    ),
    "nian_sa": (
        "a misquoted count or percentage in 廿/卅 (卅家)",
        _misquote(_SMALL, _pick(30, 25, 35, 28, 21), nian_sa),
    ),
    "suzhou": (
        "a misquoted figure in Suzhou numerals (〥〦〨)",
        _misquote(_FIGURE, _with_eight, lambda n: str(n).translate(_SUZHOU)),
    ),
    "traditional_yi": (
        "a misquoted amount in traditional 億 (16.5億美元)",
        _misquote(_AMOUNT, _near, _to_yi(True), cut="百万美元"),
    ),
    "compound_yi_wan": (
        "a misquoted amount as a compound (5亿6800万美元)",
        _misquote(_AMOUNT, _near, _to_yi(False), cut="百万美元"),
    ),
    "english_scale_words": (
        "a misquoted amount in English words with a scale (one thousand … million)",
        _misquote(_AMOUNT, _near, lambda n: f"{english(n)} million US dollars", cut="百万美元"),
    ),
    "narrow_nbsp": (
        "digits split by a narrow no-break space (1\u202f455)",
        _glued(lambda n, line: f"1\u202f{n}"),
    ),
    "emphasis_split": (
        "digits split by emphasis (**20**876)",
        _glued(_bold, _unbold),
    ),
    "fullwidth_comma": (
        "digits split by a full-width comma (1，455)",
        _glued(lambda n, line: f"1，{n}", _ascii_comma, lambda t: t.replace("，", "")),
    ),
    "count_as_year": ("a count that looks like a year (1999家)", _year_like),
    "figure_in_citation": ("a figure inside the citation's parentheses", _in_citation),
}
