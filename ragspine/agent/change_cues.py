"""A change asked: the words that make a question ask how much a quantity moved, not its level.

"How much did revenue grow", 收入增长了多少, "what was the increase in revenue", 收入比上年多
多少: the answer is the change between two periods (both sourced levels and their difference),
never one level. A change is asked by

- a change verb asked as an amount: 增长 / 增加 / 减少 / 下降 / 上涨 / 下跌 … (了)多少, and a
  growth's pace: 增速放缓 / 加快了多少, how much did growth slow / accelerate; how much
  did / has / was … grow, rise, fall, go up, go down, climb, shrink, decrease …; by how much;
  by how many (percentage) points did … slow / fall / widen (a ratio's or a rate's change);
- a change named as a noun: the change / increase / decrease / rise / fall / drop / decline /
  gain / jump / reduction in X; 增加额 / 增长额 / 减少额 / 增量 / 减量 / 变动额 / 变化额 / 增减额;
- a comparative against another period: X比上年(多 / 高 / 少 / 低)(了)多少, 较2023年少了多少;
  how much more / higher / lower / less … than (in) 2023 / the year before / last year. Against
  another entity (香港比台湾多多少, how much higher than Taiwan's) it is a comparison of two
  levels, not a change: the comparative counts only where a period is what it is compared with.
  Asked in points (比集团高几个百分点, how many points higher than the group's) it stays two
  levels of one period: ``entity_comparisons`` finds the clause the caller then reads no change in.

A growth rate is not a change of this kind (增长率, 增速, by what percentage: ``modifiers``), and a
growth named by a metric's own alias (同店销售增长) is that metric: the caller drops a cue inside a
metric's words.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from ragspine.profile.glossary import AliasMatch

Span = tuple[int, int]

_VERBS_ZH = (
    r"增长|增加|减少|下降|下滑|变化|变动|上升|提高|提升|降低|上涨|下跌|增减|缩减|缩水|扩大|回落|"
    r"放缓|放慢|加快|加速|减速|减|增|涨|跌"
)
_VERBS_EN = (  # verb forms only: "how much was the gain on disposal" asks a line item
    r"grow|grew|grown|increase[sd]?|decrease[sd]?|fall|fell|fallen|decline[sd]?|drop(?:ped)?|"
    r"change[sd]?|rise|risen|rose|(?:go|goes|gone|went)\s+(?:up|down)|climb(?:ed)?|jump(?:ed)?|"
    r"shrink|shrank|shrunk|slip(?:ped)?|slide|slid|surge[sd]?|soar(?:ed)?|plunge[sd]?|"
    r"tumble[sd]?|gained|expanded|widen(?:ed)?|narrow(?:ed)?|reduced?|improved?|deteriorated?|"
    r"slow(?:ed)?|decelerated?|accelerated?"
)
_DIRECTION_ZH = r"增长|增加|减少|下降|下滑|上升|提高|提升|降低|上涨|下跌|改善|恶化|回升|回落"
_CUES = re.compile(
    rf"(?:{_VERBS_ZH})了?(?:是|有)?多少|同比(?:增长|变化|变动)?多少|(?<![多少])[多少]了多少|"
    r"增加额|增长额|减少额|增量|减量|变动额|变化额|增减额|变动金额|增加金额|减少金额|增长金额|"
    r"(?<![a-z])(?:by\s+how\s+much|(?:how\s+much|(?:by\s+)?how\s+many\s+(?:percentage\s+|basis\s+)?"
    r"points?)\s+(?:did|has|have|had|was|were|is|does|do)\b"
    rf"[^?;]*?\b(?:{_VERBS_EN})(?![a-z])|"
    r"(?:(?:the|an?|its|their|[a-z]+'s)\s+(?:year[\s-]+(?:on|over)[\s-]+year\s+|yoy\s+|annual\s+)?"
    r"(?:change|increase|decrease|rise|fall|drop|decline|jump|reduction)|change)\s+in\b)"
)
# A direction asked yes or no (did revenue grow, 收入增长了吗, 是否下降): the move shows it. Where
# the level is asked too (and to what level, 是多少) the level is what is asked.
_DIRECTION = re.compile(
    rf"^\s*(?:did|has|have|had|was|were|does|do)\b[^?;]*?\b(?:{_VERBS_EN})(?![a-z])|"
    rf"(?:{_DIRECTION_ZH})了?(?:吗|嘛|没有|与否)|(?:有没有|是否|是不是)(?:有所|有)?(?:{_DIRECTION_ZH})|"
    rf"(?:{_DIRECTION_ZH})了?还是(?:{_DIRECTION_ZH})"
)
_LEVEL_TOO = re.compile(
    r"(?<![a-z])(?:what|which)\s+level|(?:and|,)\s+(?:what|how\s+much)\s+(?:was|is|were)\b|"
    r"(?:是|为|有|达到|到了?)多少|多高|水平"
)
# A comparative, and what follows it: the other side of the comparison.
_MORE_ZH = re.compile(r"(?:比|较|相比|相较|对比)\s*(?:于|起)?\s*")
_MORE_ZH_END = re.compile(r"[^,,。??;;]{0,12}?(?:多|高|少|低)(?:出|了)?(?:是|有)?多少")
_MORE_EN = re.compile(
    r"(?<![a-z])how\s+much\s+(?:more|less|higher|lower|bigger|smaller|larger|greater)\b[^?;]*?"
    r"\bthan\s+(?:it\s+was\s+|they\s+were\s+)?(?:in\s+|during\s+|for\s+|at\s+)?(?:the\s+)?"
)
_PRIOR = re.compile(
    r"上一?年度?|去年|前一年|上一?财年|上一?期|同期|"
    r"(?<![a-z])(?:(?:the\s+)?(?:year|period)\s+before|(?:the\s+)?(?:previous|prior|preceding)\s+"
    r"(?:fiscal\s+)?(?:year|period)|last\s+year|a\s+year\s+(?:earlier|before|ago)|"
    r"(?:the\s+)?same\s+period|year[\s-]+earlier)(?![a-z])"
)


def change_cues(text: str, periods: Sequence[Span] = ()) -> list[Span]:
    """The spans of ``text`` (folded) asking for a change; ``periods``: the spans naming a period
    (``find_periods``), which a comparative must be made against to be a change."""
    spans = [c.span() for c in _CUES.finditer(text)]
    if not _LEVEL_TOO.search(text):
        spans += [c.span() for c in _DIRECTION.finditer(text)]
    for m in _MORE_ZH.finditer(text):
        end = _MORE_ZH_END.match(text, m.end())
        if end and _against_period(text, m.end(), periods):
            spans.append((m.start(), end.end()))
    for m in _MORE_EN.finditer(text):
        if _against_period(text, m.end(), periods):
            spans.append(m.span())
    return sorted(spans)


# The other side of a comparison written before the entity it names: 比集团, than the group's,
# above Taiwan's. A clause ends a comparison.
_VERSUS_EN = re.compile(r"(?<![a-z])(?:than|above|below)\s+(?:that\s+of\s+|those\s+of\s+)?")
_THE = re.compile(r"the\s+")
_CLAUSE = re.compile(r"[,,。??;;]")


def entity_comparisons(text: str, entities: Sequence[Span]) -> list[tuple[Span, int]]:
    """The clauses of ``text`` (folded) comparing two entities (香港的净利率比集团高几个百分点,
    how many points higher than the group's), each with where its other side starts:
    ``entities`` are the spans naming an entity. Such a comparison is of two levels in one
    period, never a change between periods, whatever it asks (多了多少, 几个百分点)."""
    starts = {s for s, _ in entities}
    out = []
    for m in [*_MORE_ZH.finditer(text), *_VERSUS_EN.finditer(text)]:
        the = _THE.match(text, m.end())  # than the group's: the entity's alias may hold "the"
        other = next((at for at in (m.end(), the and the.end()) if at in starts), None)
        if other is not None:
            before = [c.end() for c in _CLAUSE.finditer(text, 0, m.start())]
            after = _CLAUSE.search(text, m.end())
            clause = (before[-1] if before else 0, after.start() if after else len(text))
            out.append((clause, m.end() if m.end() in starts else other))
    return out


# A comparison of one quantity with another: X比Y高 / 超过 / 高于 Y, X exceeded Y, more than Y,
# with Y's possessive (its, 其) between the comparative and Y's words.
_VERSUS_METRIC = re.compile(
    r"(?:比|较|相比|相较|对比|超过|超出|高出|高于|低于|多于|少于|大于|小于)\s*(?:于|起)?\s*"
    r"(?:其|它的|公司的)?\s*|"
    r"(?<![a-z])(?:than|above|below|exceed(?:s|ed)?|surpass(?:es|ed)?|outstrip(?:s|ped)?|"
    r"outpace[sd]?)\s+(?:that\s+of\s+|those\s+of\s+)?(?:(?:the|its|their|[a-z]+['’]s)\s+)?"
)


# A gap between two quantities: X与Y相差 / 之差 / 的差额, the difference (gap) between X and Y.
_GAP_JOIN = re.compile(
    r"\s*(?:的)?\s*(?:与|和|跟|同)\s*(?:其|它的)?\s*|\s+and\s+(?:(?:the|its|their)\s+)?"
)
_GAP_AFTER = re.compile(r"\s*(?:之间)?\s*(?:的)?\s*(?:相差|差距|差额|差值|之差|差)")
_GAP_BEFORE = re.compile(
    r"(?<![a-z])(?:difference|gap|spread)\s+between\s+(?:(?:the|its|their|[a-z]+['’]s)\s+)?$"
)


def metric_comparisons(text: str, scan: Sequence[tuple[str, AliasMatch]]) -> list[tuple[Span, int]]:
    """The clauses of ``text`` (folded) comparing one quantity with another of the same period
    (毛利率比营业利润率高几个百分点, by how much did current assets exceed current liabilities,
    毛利率与营业利润率相差几个百分点, the gap between gross margin and operating margin), each
    with where its other side starts: ``scan`` is the glossary's reading (its metric words
    count). The other side is a different metric, written right after the comparative (or the
    gap's 与 / and): the answer is both quantities of the period asked, never a change between
    periods (比上年高, exceeded 2023's level compare a period: a change)."""
    metrics = [(m.code, m.start, m.end) for k, m in scan if k == "metrics"]
    out = []
    for m in _VERSUS_METRIC.finditer(text):
        other = next((c for c, s, _ in metrics if s == m.end()), None)
        start = _clause_start(text, m.start())
        first = next((c for c, s, e in metrics if start <= s and e <= m.start()), None)
        if other is None or first is None or first == other:
            continue
        out.append(((start, _clause_end(text, m.end())), m.end()))
    ordered = sorted(metrics, key=lambda cse: cse[1])
    for (a, a_start, a_end), (b, b_start, b_end) in itertools.pairwise(ordered):
        if a == b or not _GAP_JOIN.fullmatch(text, a_end, b_start):
            continue
        if _GAP_AFTER.match(text, b_end) or _GAP_BEFORE.search(text, 0, a_start):
            out.append(((_clause_start(text, a_start), _clause_end(text, b_end)), b_start))
    return out


def _clause_start(text: str, at: int) -> int:
    before = [c.end() for c in _CLAUSE.finditer(text, 0, at)]
    return before[-1] if before else 0


def _clause_end(text: str, at: int) -> int:
    after = _CLAUSE.search(text, at)
    return after.start() if after else len(text)


def _against_period(text: str, at: int, periods: Sequence[Span]) -> bool:
    """Does a period start the other side of a comparison (上年, 2023年, the year before)?"""
    return any(s == at for s, _ in periods) or _PRIOR.match(text, at) is not None
