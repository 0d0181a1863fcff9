"""What modifies a metric word: the words written beside it (growth, share, per unit, margin, a
ratio to another metric, a head noun that makes it another quantity), and the cues a question
gives once for all its metrics (by what percentage, how fast, per store written apart).

``modifier_at`` reads the words around one metric match (a ratio or a share written after it:
``ratios.py``); ``quantity.py`` maps what it finds to
the profile's derived metric of that formula shape, or declines the quantity by name.
"""

from __future__ import annotations

import re

from ragspine.agent.head_nouns import head_after, head_before, paid_to
from ragspine.agent.line_qualifiers import qualified_after, qualified_before
from ragspine.agent.modifier_base import (
    COMPOUND,
    GROWTH,
    GROWTH_VERB,
    MARGIN,
    PER,
    SHARE,
    Modifier,
)
from ragspine.agent.part_shares import part_share_after
from ragspine.agent.per_amount import per_amount_ratio
from ragspine.agent.ratios import asked_share, ratio_after, share_after
from ragspine.agent.sub_items import sub_item_after, sub_item_before
from ragspine.agent.windows import window_at
from ragspine.profile.glossary import AliasMatch

_GAP = r"\s*(?:的)?\s*"
# 按年 is Hong Kong's 同比 (year on year) and 升幅 its 增幅 (the rise); y/y is yoy with a slash.
_GROWTH_AFTER = re.compile(  # the gap before any of them: net margin growth, 收入的增速
    _GAP + r"(?:(?P<explicit>(?:同比|环比|按年)?(?:增长率|增长速度|增速|增幅|增长幅度|涨幅|升幅|"
    r"降幅|跌幅|下降幅度|下降率|下滑幅度|变动率|变化率|变动幅度|变化幅度|增减率|增减幅度|增长比例|"
    r"增长百分比)|"
    r"(?<![a-z])(?:growth\s+rate|yoy|y-o-y|y/y|year[\s-]+on[\s-]+year(?:\s+(?:growth|change|increase))?|"
    r"year[\s-]+over[\s-]+year(?:\s+(?:growth|change))?|(?:percentage|percent|%)\s+change|"
    r"rate\s+of\s+change)(?![a-z]))|"
    r"(?P<yoy>同比(?:增长|增加|增减|变动|变化|下降|减少|下滑)?)|"
    r"(?P<bare>增长(?![了率速幅])|(?<![a-z])(?:growth|change)(?![a-z])))"
)
# 收入相比2023年的增长率, 收入在2024年的增速: periods between the metric and its growth word.
_GROWTH_GAPPED = re.compile(
    r"(?:\s*(?:在|于|相比|相较|较|比|对比|和|与|同)?\s*(?:(?:19|20)\d{2}\s*年度?|fy\s*\d{2,4}|"
    r"上年同期|上一?年度?|去年|同期)\s*(?:末|底)?)+\s*(?:的)?\s*(?:同比|环比)?(?:增长率|增长速度|增速|"
    r"增幅|增长幅度|涨幅|降幅|变动率|变化率)"
)
_GROWTH_BEFORE = re.compile(
    r"(?<![a-z])(?:(?:yoy|y/y|year[\s-]+on[\s-]+year|year[\s-]+over[\s-]+year)(?:\s+growth)?"
    r"(?:\s+(?:in|of))?|growth\s+rate\s+(?:of|in)|(?:percentage|percent|%)\s+change\s+in|"
    r"(?P<bare>growth\s+(?:in|of)))\s+(?:the\s+)?$"
)
_SHARE_BEFORE = re.compile(
    r"(?<![a-z])(?:share|percentage|proportion|portion|fraction|contribution|%)\s+(?:of|to)\s+"
    r"(?P<whole>(?:[a-z0-9'&-]+\s+){0,3}?)$"
)
# "What proportion of employees were R&D staff": the part, after the whole.
_PART = re.compile(
    r"[^,?.;]{0,40}?(?<![a-z])(?:was|were|is|are|came\s+from|comes\s+from)\s+"
    r"(?:made\s+up\s+(?:of|by)\s+)?(?:the\s+)?(?P<part>[a-z&'-]+(?:\s+[a-z&'-]+)?)"
)
# "What percentage of revenue did selling expenses take up": the part as the subject of did.
_PART_DID = re.compile(
    r"[^,?.;]{0,40}?(?<![a-z])(?:did|do|does)\s+(?:the\s+)?(?P<part>[a-z&'-]+(?:\s+[a-z&'-]+)?)"
)
UNITS = {
    "store": r"(?:门店|店铺|店|stores?|shops?|outlets?)",
    "employee": r"(?:员工|职工|雇员|employees?|heads?|staff|workers?|capita)",
    "area": r"(?:面积|平方米|平米|square\s+(?:metres?|meters?|feet|foot)|sq\.?\s*m|sqm|m2)",
    "share": r"(?:股(?!东|本|权|份)|shares?(?!\s*holders?)(?![a-z]))",
    "other": r"(?:交易|订单|顾客|客户|会员|客人|人次|transactions?|orders?|customers?|members?|"
    r"visits?|visitors?|tickets?|baskets?|users?|subscribers?|units?|products?|items?|skus?)",
}
_PER_BEFORE = [
    ("store", re.compile(r"(?:单店|店均|(?:平均)?每(?:家|间|个)?门?店(?:的)?(?:平均)?|(?<![a-z])"
                         r"(?:per[\s-](?:store|shop|outlet)|average\s+store))\s*$")),
    ("employee", re.compile(r"(?:人均|平均每人|每人|每(?:名|位|个)?(?:员工|职工)(?:的)?|(?<![a-z])"
                            r"per[\s-](?:employee|head|capita))\s*$")),
    ("area", re.compile(r"(?:每平方米|每平米|单位面积)(?:的)?\s*$")),
    ("share", re.compile(r"(?:每股|(?<![a-z])per[\s-]share)(?:的)?\s*$")),
    ("other", re.compile(r"(?:单笔|笔均|(?:平均)?每(?:笔|单|位|名|个)(?:交易|订单|顾客|客户|会员)?"
                         r"(?:的)?(?:平均)?)\s*$")),
]  # fmt: skip
_PER_AFTER = [
    (unit, re.compile(rf"\s*(?:per|/|每|for\s+each)\s*(?:家|间|个|名|位|笔|单)?\s*(?:the\s+)?"
                      rf"(?:average\s+)?{pattern}(?![a-z])"))
    for unit, pattern in UNITS.items()
]  # fmt: skip
# A unit no profile counts (per vaccine dose, 每剂, 每头, 单位成本): a per-unit quantity the profile
# cannot give, never the level. Not a rate word (per cent, per annum, per year), not "per the
# report" (according to), nor its own period (每年, 每季度: the level's own period).
_MEASURE_ZH = r"(?:剂|头|支|吨|件|瓶|只|份|羽|千克|公斤|台|辆|套|盒|袋|箱|批|针|升|克)"
_UNKNOWN_PER_AFTER = re.compile(
    r"\s*(?:的)?\s*每"
    + _MEASURE_ZH
    + r"[\u4e00-\u9fff]{0,4}?(?=(?:的|是|为|有|在|约|多少|几|\s|[,,。??;;]|$))|"
    r"\s+(?:per|for\s+each)\s+(?!(?:cent|annum|year|yr|quarter|month|se|the|its|their|our|"
    r"company'?s?)(?![a-z]))[a-z-]+(?:\s+(?!(?:in|for|at|during|of|and|or|on|by|from|as|over|"
    r"between|was|were|is|are)(?![a-z]))[a-z-]+){0,2}(?![a-z])"
)
_UNKNOWN_PER_BEFORE = re.compile(
    r"(?:(?:平均)?每"
    + _MEASURE_ZH
    + r"[\u4e00-\u9fff]{0,4}?(?:的)|(?<![\u4e00-\u9fff])单位|(?<=[年末的度])单位|"
    r"(?:平均)?每" + _MEASURE_ZH + r"|(?<![a-z])unit)\s*$"
)
# A count metric before 人均 / 每人 is the unit: 研发人员人均研发费用 is R&D spend per R&D staff.
_PER_HEAD = re.compile(r"\s*(?:的)?\s*(?:人均|平均每人|每人|每名|每位|per[\s-]capita)")
_MARGIN_AFTER = re.compile(r"率|\s+(?:margin|ratio|rate)(?![a-z])")
_TO_BEFORE = re.compile(r"(?<![a-z'’])[a-z][a-z&]*[\s-]+to[\s-]+$")
_RATIO_WORD = re.compile(r"[\s-]+(?:ratio|multiple|coverage|cover)(?![a-z])")
# Question-wide cues: a change asked as a percentage, how fast, a per-unit phrase written apart.
_RATE_ASKED = re.compile(
    r"(?:增长|增加|上升|下降|减少|下滑|变化|变动|增减|提高|提升|降低|上涨|下跌)(?:了|的)?\s*(?:约|大约)?"
    r"\s*(?:多少|几)\s*(?:个)?\s*(?:百分比|比例|%|成)(?!点)|百分之\s*(?:多少|几)|"
    r"(?:以|用)百分比(?:表示|计|列示|来表示)|"
    # any direction's percentage (下降的百分比, 上升的百分比) asks the rate, as 增长的百分比 does
    r"(?:增长|变动|下降|上升|减少|增加|下滑|提高|提升|降低|上涨|下跌)(?:的)?百分比|"
    # an analyst's column head: % chg, pct change (the percentage change, i.e. the growth)
    r"(?:%|(?<![a-z])pct\.?|(?<![a-z])percent)\s*(?:chg|change)(?![a-z])|"
    r"(?<![a-z])(?:by\s+(?:what|how\s+many|which)\s+(?:percent(?:age)?|%)|"
    r"what\s+(?:percent(?:age)?|%)\s+(?:increase|decrease|growth|change|rise|decline|drop|fall|gain)|"
    r"how\s+(?:many|much)\s+percent|in\s+percent(?:age)?(?:\s+terms)?|in\s+%\s*terms|"
    r"as\s+a\s+percentage(?!\s+of)|percentage\s+(?:increase|decrease|growth|change|rise|decline|"
    r"drop|fall|gain)|(?:increase|decrease|growth|change|rise|decline|drop|fall|gain)\s+in\s+"
    r"percent(?:age)?)(?![a-z])|"
    # two growths' paces compared (grew faster than its sales, 比收入增长得快): each one's rate
    r"(?<![a-z])(?:faster|slower|quicker|more\s+(?:quickly|slowly|rapidly))\s+than(?![a-z])|"
    r"(?:增长|增加|上升|下降|减少|下滑|上涨|下跌)得?(?:更|比较)?(?:快|慢)(?:于|过)?|(?:快|慢)于"
)
# 同比增长多少: 同比 names a rate; asked with 多少 it is the year-on-year growth rate where the
# profile holds it (else the two levels and their difference).
_YOY_HOW_MUCH = re.compile(
    r"同比\s*(?:增长|增加|上升|提高|提升|下降|减少|下滑|降低|变化|变动|增减)?\s*(?:了)?\s*(?:是|有)?\s*多少"
)
# A change asked in points: only a difference of two percentages is in points.
_POINTS = re.compile(
    r"(?:几|多少)\s*个?\s*百分点|百分点|(?<![a-z])(?:percentage[\s-]+points?|basis\s+points?|"
    r"pp|bps|how\s+many\s+points?)(?![a-z&-])"
)
_HOW_FAST = re.compile(r"(?<![a-z])how\s+fast|增长(?:得)?(?:有)?多快|增速如何|增长速度如何")
_PER_ANYWHERE = [
    ("store", re.compile(r"(?:平均)?每(?:家|间|个)门?店(?:平均)?|单店|店均|(?<![a-z])"
                         r"(?:per|each)[\s-](?:store|shop|outlet)(?![a-z])")),
    ("employee", re.compile(r"人均|每(?:名|位|个)(?:员工|职工)|(?<![a-z])per[\s-]"
                            r"(?:employee|head|capita)(?![a-z])")),
]  # fmt: skip
_OWNER = re.compile(r"\s*(?:'s|’s)?\s*(?:的)?\s*(?:the\s+)?")


# Kinds of growth no formula of a profile expresses (formulas know one period back, no powers
# nor logarithms): a compound annual rate over several years, a rate against the period just
# before (环比, a quarter on the quarter before), a part's contribution to the whole's growth, a
# log (continuously compounded) growth, a geometric mean of growths. Read anywhere in the
# question; declined by a name built from the metric's, never answered with the simple growth.
CAGR, SEQUENTIAL, CONTRIBUTION = "cagr", "sequential", "contribution"
LOG, GEOMETRIC = "log", "geometric"
_UNHELD_GROWTH = [
    (LOG, re.compile(r"对数(?:增长率|增长|增速|收益率|变化)|对数差|连续复利|(?<![a-z])(?:(?:in\s+)?"
                     r"(?:natural\s+)?log(?:arithmic)?(?:\s+|-)(?:terms|growth|change|difference|"
                     r"returns?)|continuous(?:ly)?[\s-]+compound(?:ed|ing)?)(?![a-z])")),
    (GEOMETRIC, re.compile(r"几何平均|(?<![a-z])geometric(?:\s+(?:mean|average))?(?![a-z])")),
    (CAGR, re.compile(r"(?:年均|年化|平均)?(?:年)?复合(?:年)?(?:均)?(?:增长率|增长|增速|增幅)|"
                      r"(?<![a-z])(?:cagr|compound(?:ed)?\s+(?:annual\s+)?(?:growth|rate)(?:\s+rate)?)"
                      r"(?![a-z])")),
    (SEQUENTIAL, re.compile(r"环比|(?<![a-z])(?:qoq|q-o-q|mom|m-o-m|(?:quarter|month)[\s-]+"
                            r"(?:on|over)[\s-]+(?:quarter|month)|sequential(?:ly)?)(?![a-z])")),
    (CONTRIBUTION, re.compile(r"(?:增长|增量|增加)[^,,。??;;]{0,12}?贡献|贡献[^,,。??;;]{0,12}?"
                              r"(?:增长|增量)|(?<![a-z])contribut\w*\s+(?:to|towards?)\s+"
                              r"(?:[a-z'&-]+\s+){0,4}?(?:growth|increase)(?![a-z])")),
]  # fmt: skip


def unheld_growth(text: str) -> tuple[str, int, int] | None:
    """A compound annual, sequential (环比) or contribution-to-growth ask: its kind and span."""
    for kind, pattern in _UNHELD_GROWTH:
        m = pattern.search(text)
        if m:
            return kind, m.start(), m.end()
    return None


def rate_asked(text: str) -> re.Match[str] | None:
    """A change asked as a percentage (增长了百分之多少, by what percentage did it grow)."""
    cue = _RATE_ASKED.search(text)
    return cue if cue and (GROWTH_VERB.search(text) or _RISE_FALL.search(text)) else None


# The colloquial verbs of a move (跌了, 涨了, 跌幅): with 百分之几 they ask the rate as 下跌 does.
_RISE_FALL = re.compile(r"[跌涨]")


# A unit a figure is expressed in (expressed in basis points, 以基点表示): a held percentage's
# level read in that unit, no change of it.
_UNIT_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:expressed|measured|stated|given|shown|quoted|converted)\s+(?:in|as|to|into)"
    r"|(?<![a-z])in\s+terms\s+of|(?<![a-z])(?:in|as)|以|用|换算成|换算为|折合|折算成?)\s*$"
)

_COMPARED = re.compile(
    r"高|低|差|比|(?<![a-z])(?:higher|lower|more|less|than|differ\w*|gap|wider|narrower|"
    r"widen\w*|narrow\w*|improv\w*|worsen\w*|expand\w*)(?![a-z])"
)


def points_asked(text: str) -> re.Match[str] | None:
    """A change asked in percentage points (提高了几个百分点, by how many percentage points): the
    two periods' levels and their difference, never one level. Points named only as the unit a
    figure is expressed in (operating margin, expressed in basis points), with no word of change
    in the question, ask the level in that unit: 7.67% is 767 bp, not a change."""
    found = _POINTS.search(text)
    moved = GROWTH_VERB.search(text) or _COMPARED.search(text)
    if found and _UNIT_BEFORE.search(text, 0, found.start()) and not moved:
        return None
    return found


def yoy_how_much(text: str) -> re.Match[str] | None:
    """同比增长多少: the year-on-year rate, where the profile holds it."""
    return _YOY_HOW_MUCH.search(text)


def how_fast(text: str) -> re.Match[str] | None:
    return _HOW_FAST.search(text)


def per_anywhere(text: str) -> list[tuple[str, int, int]]:
    """Per-unit phrases wherever they stand (平均每家门店赚了多少净利润)."""
    return [(unit, m.start(), m.end()) for unit, p in _PER_ANYWHERE for m in p.finditer(text)]


def is_denominator(text: str, m: AliasMatch, following: AliasMatch | None) -> bool:
    """A count metric written before 人均 and another metric: the unit, not a figure asked."""
    head = _PER_HEAD.match(text, m.end)
    return bool(head and following is not None and following.start == head.end())


_WHOLE_BEFORE = re.compile(r"占\s*(?:了)?\s*$")
_WHOLE_AFTER = re.compile(r"\s*(?:的)?\s*(?:比重|比例|百分比|份额|占比|比率|几成)")
_CLAUSE_START = re.compile(r"[,,。??;;:: ]")


_AMONG_SHARE = re.compile(
    r"\s*(?:的)?\s*(?:中|当中|之中|里|里面)\s*[^,,。??;;]{0,12}?占\s*(?:了)?\s*(?:多少|几)?\s*"
    r"(?:的)?\s*(?:比重|比例|百分比|份额|几成|成|%)"
)


def whole_of_share(text: str, m: AliasMatch) -> tuple[int, int] | None:
    """拥有硕士学历的员工占职工总数的比例, 销售额中会员占多少比例: the metric is the whole of a
    share whose part no metric names; the span of the whole phrase (from its clause's start)."""
    among = _AMONG_SHARE.match(text, m.end)
    if among is not None:
        return m.start, among.end()
    before = _WHOLE_BEFORE.search(text, 0, m.start)
    after = _WHOLE_AFTER.match(text, m.end)
    if before is None or after is None:
        return None
    start = max((c.end() for c in _CLAUSE_START.finditer(text, 0, before.start())), default=0)
    return start, after.end()


# Between a share's whole and its part: 职工中研发人员, 净利润中用于分红 (the part the whole is
# used for, put into).
_AMONG = re.compile(
    r"\s*(?:的)?\s*(?:中|当中|之中|里|里面)\s*(?:的)?\s*(?:(?:被)?(?:用于|用来|用作|用在|花在|投入到?|"
    r"拿出来?|拿来)(?:了)?\s*(?:的)?)?\s*"
)


def whole_before(text: str, m: AliasMatch, metrics: list[AliasMatch]) -> AliasMatch | None:
    """职工中研发人员的占比, 净利润中用于分红的比例: the metric written before 中 is the whole of
    the share."""
    return next((w for w in metrics if w.end <= m.start and _AMONG.fullmatch(text, w.end, m.start)),
                None)  # fmt: skip


def share_word_after(text: str, end: int) -> re.Match[str] | None:
    """The share word right after a part (分红的比例, 研发人员占比)."""
    return _WHOLE_AFTER.match(text, end)


def part_after(text: str, m: AliasMatch, metrics: list[AliasMatch]) -> tuple[list[str], int]:
    """What proportion of employees were R&D staff: the part named after the whole, as a metric
    match's code, or else the words that may name it with the whole's noun ('current', 'current
    at'), and where it ends."""
    p = _PART.match(text, m.end) or _PART_DID.match(text, m.end)
    if p is None:
        return [], m.end
    at = next((w for w in metrics if w.start == p.start("part")), None)
    if at is not None:
        return [at.code], at.end
    words = p.group("part").split()
    return [" ".join(words[:n]) for n in range(1, len(words) + 1)], p.end("part")


def _attributive(text: str, m: AliasMatch, entities: list[AliasMatch], floor: int) -> list[int]:
    """An entity written as an attribute right before the metric, a space between (Hong Kong
    revenue): a growth word before it is the metric's (the yoy growth in Hong Kong revenue)."""
    return [
        e.start
        for e in entities
        if floor <= e.start and e.end < m.start and not text[e.end : m.start].strip()
    ]


def modifier_at(
    text: str, m: AliasMatch, metrics: list[AliasMatch], entities: list[AliasMatch],
    change: bool, floor: int = 0, counted: bool = False, parts: list[AliasMatch] | None = None,
) -> Modifier | None:  # fmt: skip
    """The modifier right after the metric word, or right before it (after ``floor``);
    ``metrics`` and ``entities`` are the question's matches of each (a ratio's other metric,
    the owner between a modifier and its metric: growth rate of Southeast Asia's store count);
    ``counted``: the metric counts people or things (who is paid is not what is paid).
    A line qualifier (``line_qualifiers``: 归属于少数股东的, payable, 跌价准备) is read first:
    a growth or a rate after it is of the qualified line, named with it."""
    q = qualified_before(text, m, entities, floor, parts or []) or qualified_after(
        text, m, entities
    )
    if q is not None:
        start, end, whose = q
        tail = _GROWTH_AFTER.match(text, end) or _MARGIN_AFTER.match(text, end)
        return Modifier(COMPOUND, start, tail.end() if tail else end, whole=whose)
    w = window_at(text, m, floor)  # trailing-twelve-month revenue: a sum no fact gives
    if w is not None:
        return Modifier(COMPOUND, *w)
    g = _GROWTH_AFTER.match(text, m.end)
    if g and not (change and not g.group("explicit")):
        return Modifier(GROWTH, g.start(), g.end(), bare=g.group("bare") is not None)
    g = _GROWTH_GAPPED.match(text, m.end)
    if g:
        return Modifier(GROWTH, g.start(), g.end(), remote=True)
    owners = [  # Southeast Asia's store count, 金宇生物的营业收入: whose, not which metric
        e.start
        for e in entities
        if floor <= e.start
        and (o := _OWNER.fullmatch(text, e.end, m.start))
        and (o.group().strip() or text[e.start : e.end].endswith(("'s", "’s")))
    ]
    leads = [*owners, m.start]
    for lead in [*leads, *_attributive(text, m, entities, floor)]:
        g = _GROWTH_BEFORE.search(text, floor, lead)
        if g and not change:
            return Modifier(GROWTH, g.start(), g.end(), bare=g.group("bare") is not None)
    r = per_amount_ratio(text, m, metrics) or ratio_after(text, m, metrics)  # 每100元Y…多少X
    if r is not None:
        return r
    share = (
        share_after(text, m, metrics)
        or part_share_after(text, m, parts or [])
        or asked_share(text, m, metrics)
    )
    if share is not None:
        return share
    for lead in leads:
        s = _SHARE_BEFORE.search(text, floor, lead)
        if s:
            whole = s.span("whole") if s.group("whole") else None
            return Modifier(SHARE, s.start(), s.end(), whole=whole)
    for unit, pattern in _PER_AFTER:
        p = pattern.match(text, m.end)
        if p:
            return Modifier(PER, p.start(), p.end(), unit=unit)
    for unit, pattern in _PER_BEFORE:
        p = pattern.search(text, floor, m.start)
        if p:
            count = next((c for c in metrics if c.end <= p.start() and
                          _PER_HEAD.fullmatch(text, c.end, m.start)), None)  # fmt: skip
            start = count.start if count else p.start()
            return Modifier(PER, start, p.end(), unit=unit, other=count)
    p = _UNKNOWN_PER_AFTER.match(text, m.end) or _UNKNOWN_PER_BEFORE.search(text, floor, m.start)
    if p:
        return Modifier(PER, min(p.start(), m.start), max(p.end(), m.end), unit="unknown")
    h = head_after(text, m)  # 研发费用加计扣除, sales return rate: another quantity
    if h:
        return Modifier(COMPOUND, h.start(), h.end())
    taken = [(x.start, x.end) for x in [*metrics, *entities, *(parts or [])] if x is not m]
    sub = sub_item_after(text, m, taken) or next(  # 销售费用中的广告宣传费: the part, not the line
        (y for lead in leads if (y := sub_item_before(text, m, lead, taken, floor))), None
    )
    if sub:
        return Modifier(COMPOUND, *sub)
    for lead in leads:
        b = head_before(text, lead, floor)  # return on sales
        paid = paid_to(text, m, lead, floor) if counted else None  # cash paid to employees
        if b or paid:
            start, end = (b.start(), b.end()) if b else paid  # type: ignore[misc]
            return Modifier(COMPOUND, start, end)
    to = _TO_BEFORE.search(text, floor, m.start)
    ratio = _RATIO_WORD.match(text, m.end) if to else None
    if to and ratio:  # rent-to-sales ratio: a ratio of something no metric names
        return Modifier(COMPOUND, to.start(), ratio.end())
    r2 = _MARGIN_AFTER.match(text, m.end)
    if r2:
        return Modifier(MARGIN, r2.start(), r2.end())
    return None
