"""A percentage asked is never answered with levels only.

A question that asks for a percentage (百分之几, 百分之多少, 百分比, what percent(age), what
share, what proportion) asks a ratio. Where the reading found a held ratio (a share, a margin, a
growth rate, X吃掉了Y的百分之几 as X / Y), it answers; where it found only levels (收入, 门店数),
the level is another quantity than asked, whatever the question's words around it say (有百分之几
不是在实体店卖出的, 前10%门店贡献了收入的百分之几). The question is then declined, naming the
words no part of the reading explains: the part whose share is asked.
"""

from __future__ import annotations

import re

from ragspine.agent.shape_lookup import is_percent
from ragspine.profile import DomainProfile

_PERCENT = re.compile(
    r"百分之\s*(?:几|多少)|百分比|(?<![a-z])(?:what|which)\s+(?:percent(?:age)?|share|"
    r"proportion|fraction)(?![a-z])|(?<![a-z])how\s+(?:much|many)\s+percent(?![a-z])"
)
# What splits the unexplained words into runs, and what a run's edges shed (particles).
_BREAK = re.compile(r"[,,。??;;::!!\s]+")
_EDGES = "的了有是在里裡中呢吗嗎啊,,、 "


def _ratio(code: str, profile: DomainProfile) -> bool:
    spec = profile.any_metric(code)
    return is_percent(spec, profile) or "/" in (getattr(spec, "formula", None) or "")


def percent_of_levels(
    text: str,
    metrics: list[str],
    explained: list[tuple[int, int]],
    profile: DomainProfile,
    growth: bool,
) -> tuple[int, int] | None:
    """The span naming what a percentage asks of, where the reading holds levels only; None
    where no percentage is asked, a growth rate is (``growth``: 增长了百分之几), or a metric read
    is a ratio. ``explained``: spans of the folded ``text`` the reading accounts for (its
    entities, periods, metric words); the longest run of the rest names the part asked."""
    cue = _PERCENT.search(text)
    if cue is None or growth or not metrics or any(_ratio(c, profile) for c in metrics):
        return None
    covered = [False] * len(text)
    for start, end in [*explained, cue.span()]:
        for i in range(max(start, 0), min(end, len(text))):
            covered[i] = True
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(text):
        if covered[i]:
            i += 1
            continue
        j = i
        while j < len(text) and not covered[j]:
            j += 1
        for piece in _pieces(text, i, j):
            runs.append(piece)
        i = j
    return max(runs, key=lambda r: r[1] - r[0], default=None)


def _pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A run cut at punctuation, each piece shed of particles at its edges; none left empty."""
    out, at = [], start
    for b in [*_BREAK.finditer(text, start, end), None]:
        stop = b.start() if b else end
        s, e = at, stop
        while s < e and text[s] in _EDGES:
            s += 1
        while e > s and text[e - 1] in _EDGES:
            e -= 1
        if e - s >= 2:
            out.append((s, e))
        at = b.end() if b else end
    return out
