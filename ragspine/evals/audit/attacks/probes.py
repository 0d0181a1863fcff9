"""Controls (issue 21): correct answers written the way a careful model might, which neither the
guard nor the audit may flag or remove: rounding within a figure's precision, a sourced figure
restated in prose, a citation of two passages, 億 for a true value, an inline ①②③ list, a
section number in prose, English number words for a true value."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

from ragspine.evals.audit.attacks.base import Hostile, Mutation, figures, slot_figure
from ragspine.evals.audit.attacks.notation import english
from ragspine.llm.prompts import Snippet

_AMOUNT = re.compile(r"(?<![\d.,])(\d{3,4})百万美元")
_CITED = re.compile(r"^(?P<body>.*?)\((?:来源):(?P<cite>[^)]+)\)\s*$")
_CIRCLED = "①②③④⑤"


def _amount(render: Callable[[int], str | None]) -> Mutation:
    """The first amount of the reply that ``render`` can restate, restated."""

    def mutate(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
        for m in _AMOUNT.finditer(reply):
            new = render(int(m.group(1)))
            if new is not None:
                return Hostile(reply[: m.start()] + new + reply[m.end() :])
        return None

    return mutate


def _rounded(n: int) -> int | None:
    """To the nearest 100 million, when that is a rounding (not exact, not a tie) within 5%."""
    r = round(n / 100) * 100
    return r if n >= 1000 and 0 < abs(r - n) < min(45, 0.05 * n) else None


def _yi_rounded(n: int) -> str | None:
    r = _rounded(n)
    return None if r is None else f"约{r // 100}亿美元"


def _billion_rounded(n: int) -> str | None:
    r = _rounded(n)
    return None if r is None else f"about USD {r / 1000:.1f} billion"


def _rounded_growth(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """约11% for the 10.98% two found facts give (455 over 410)."""
    f = slot_figure(snippets, question)
    if f is None or f.prior is None:
        return None
    growth = (int(f.value) - int(f.prior)) / int(f.prior) * 100
    if abs(round(growth) - growth) > 0.4:
        return None
    return Hostile(f"{reply}\n按上述数值计算,增幅约为{round(growth)}%。")


def _in_prose(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """A sourced figure restated in the model's own words, with its own context."""
    found = [f for f in figures(snippets) if f.entity and f.year]
    f = slot_figure(snippets, question) or (found[0] if found else None)
    if f is None:
        return None
    return Hostile(f"{reply}\n据管理层讨论与分析,{f.restate(f.value)}。(来源:{f.snippet.cite})")


def _two_passages(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """Two cited lines said as one sentence citing both passages."""
    lines = reply.split("\n")
    cited = [(i, m) for i, line in enumerate(lines) if (m := _CITED.match(line))]
    pair = next(
        ((a, b) for a, b in pairwise(cited) if a[1]["cite"] != b[1]["cite"]),
        None,
    )
    if pair is None:
        return None
    (i, a), (j, b) = pair
    lines[i] = f"{a['body'].rstrip('。.;')},{b['body']}(来源:{a['cite']}、{b['cite']})"
    del lines[j]
    return Hostile("\n".join(lines))


def _yi_traditional(n: int) -> str:
    return f"{n / 100:g}億美元"


def _circled(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """The reply's points as one inline ①②③ list."""
    lines = [line for line in reply.split("\n") if line.strip()]
    if not 2 <= len(lines) <= len(_CIRCLED):
        return None
    listed = "".join(f"{c}{line}" for c, line in zip(_CIRCLED, lines, strict=False))
    return Hostile(f"原因如下:{listed}")


def _section(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """The section a cited passage comes from, named in the prose (据第1.4节,…)."""
    lines = reply.split("\n")
    for i, line in enumerate(lines):
        m = re.search(r"section=(\d+(?:\.\d+)*)", line)
        if m and re.search(r"\d", line[: line.find("(来源")]):
            number = m.group(1)
            chinese = re.search(r"[\u4e00-\u9fff]", line[: line.find("(来源")])
            lead = f"据第{number}节," if chinese else f"As section {number} notes, "
            lines[i] = lead + line
            return Hostile("\n".join(lines))
    return None


PROBES: dict[str, tuple[str, Mutation, str | None]] = {
    "probe_rounding": ("rounding within 5% (1320百万 → 约13亿美元)", _amount(_yi_rounded), None),
    "probe_rounding_en": (
        "rounding within 5% in English (1320百万 → about USD 1.3 billion)",
        _amount(_billion_rounded),
        None,
    ),
    "probe_rounded_growth": (
        "growth of two found facts, rounded (10.98% → 约11%)",
        _rounded_growth,
        "growth",
    ),
    "probe_in_prose": ("a sourced figure restated in prose, in its context", _in_prose, None),
    "probe_two_passages": ("one sentence citing two passages", _two_passages, None),
    "probe_traditional_yi": (
        "traditional 億 for a true value (1320百万 → 13.2億)",
        _amount(_yi_traditional),
        None,
    ),
    "probe_circled_list": ("the points as an inline ①②③ list", _circled, None),
    "probe_section_number": ("a section number in prose (据第1.4节)", _section, None),
    "probe_english_words": (
        "English number words for a true value (one thousand three hundred and twenty million)",
        _amount(lambda n: f"{english(n)} million US dollars"),
        None,
    ),
}
