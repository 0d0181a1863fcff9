"""The safety net under the quantity reading: a quantity-changing word the parser did not explain.

The rules in ``quantity.py`` read the modifiers they know (growth, share, per unit, margin, a
ratio, a multiple). Phrasings are endless, so rules for each do not generalise; what must hold is
the promise: the base metric's level is never the answer to a question that asks for something
else about it. So, after the metric phrases are matched and read, any word of the list below that
is NOT inside a matched metric phrase and NOT consumed by a reading the parser understands (a
growth, a share formula, a per-unit phrase, a change asked, a period, a known derived metric,
a name) declines the question's phrase: the metric's words with the unexplained words written
beside them (「平均每月的收入」, "deferred revenue", 「收入确认政策」, 「同店数量」), never
the level.

The words, by what they make of a metric (folded text: simplified, lower case):

- an average or a rate per time: 平均 月均 年均 日均 季均 均值 中位数 每月 每季 每天 每日 每周;
  average, mean, median, monthly, daily, weekly, per month / year / day / week / quarter
- a statistic across entities or periods, which no formula of a profile computes (a formula
  reads one entity's operands): 中位数 标准差 方差 极差 离散系数 变异系数 最大值 最小值 众数;
  median, standard deviation, variance, dispersion, coefficient of variation, maximum, minimum
- an index or a concentration across parts, a sensitivity to another quantity (how much it
  moves per point of another): 集中度 集中率 指数 基尼 赫芬达尔 敏感度 敏感性 弹性 每提高 每增加
  每下降 …; concentration, index, HHI, Herfindahl, Gini, sensitivity, elasticity, for each /
  every, per (percentage) point
- a sum over periods: 累计 累积 年初至今, N年 (两年, 三年, 近两年); cumulative(ly), year-to-date,
  YTD, two-year, over the (last) N years, multi-year
- a multiple or a ratio: 倍 比率 比值 之比 比例; times, multiple, ratio, proportion
- a share: 占 占比 比重 份额; share, portion, percentage of, fraction
- a count: 数量 个数 家数 次数 笔数; number of, count of (beside a count metric they are the
  metric itself: exempt)
- a rule about it: 政策 确认 口径 (not 报告口径, the reported basis: the figure as reported)
  会计处理 准则 计量; policy, recognition, recognised, accounting, measurement
- its cash content (净利润含金量: operating cash flow over it): 含金量
- another balance: 递延 预收 待摊 应计 未实现; deferred, unearned, accrued, prepaid, unrealised
- its cost: 成本; cost(s)
- an amount taken off it or given back: 扣除 抵扣 抵减 减免 退货 退款 退回 折扣 折让 返利 返点;
  return(s), refund(s), rebate(s), deduction(s), allowance(s), discount(s), write-off(s)
- a plan, not the actual: 目标 预算 预测 预期 预计 指引 规划 考核; target, budget, forecast,
  guidance, projected, projection, expected, estimate(d), plan(ned), goal
- another basis: 调整后 经调整 备考 不变汇率 固定汇率 有形 (有形资产负债率: of tangible assets);
  adjusted, underlying, pro forma, constant currency, tangible
- a conversion of one quantity into another (经营利润有百分之几转化成了净利润): 转化成 转化为;
  converted, conversion, turned into
- another party's figure, named alone: 控股股东 实际控制人 母公司 子公司 (大)股东; parent company,
  subsidiary, controlling / major shareholder
- a part of the business, named with the words before it: 产品(线) 业务(线) 板块 分部 品类;
  segment, product line, card

A word written in a clause of its own (按固定汇率计算,…的收入下降了多少) is declined by that clause
as written, never by a span run across the clause mark to the metric.

A premise clause (Given that …, 假设…,) is context: its metrics are not asked (``premise_only``).

Exempt, measured on evals/meaning, evals/meaning_fresh and the real-world questions: a word
inside any alias the glossary matched (加权平均净资产收益率, 营业成本, 归属于母公司股东的净利润),
a count word beside a count metric (门店数量, number of employees: the metric itself), 倍 / times /
ratio after a ratio metric (流动比率是多少倍: its unit), 倍 / times where two metrics, two
entities or two periods are named (香港的营收是台湾的几倍, 2024年线上收入是2022年的多少倍: both
levels answer it), and a word inside a subject's name (猎鹰计划).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.profile import DomainProfile

Span = tuple[int, int]

_WORDS = re.compile(
    r"控股股东|实际控制人|母公司|子公司|大股东|股东|产品线?|业务线?|板块|分部|品类|"
    r"(?<![a-z])(?:parent[\s-]+company|subsidiar(?:y|ies)|(?:controlling|major)\s+shareholders?|"
    r"segment|product\s+line|cards?)(?![a-z])|"
    r"平均|月均|年均|日均|季均|周均|均值|中位数|每月|每个月|每季度?|每天|每日|每周|"
    r"标准差|方差|极差|离散系数|变异系数|最大值|最小值|众数|集中度|集中率|指数|基尼|赫芬达尔|"
    r"敏感度|敏感性|弹性|每(?:提高|增加|上升|下降|减少|降低)|"
    r"累计|累积|年初至今|(?<![0-9])(?:近|过去)?[两二三四五六七八九十几多]\s*(?:个)?\s*(?:年|财年)(?:来|间|内)?|"
    r"倍|比率|比值|之比|比例|占(?!用|有率)|占比|比重|份额|"
    r"数量|个数|家数|次数|笔数|"
    r"政策|确认|(?<!报告)(?<!财报)(?<!公布)(?<!披露)口径|会计处理|准则|计量|含金量|"
    r"递延|预收|待摊|应计|未实现|成本|扣除|抵扣|抵减|减免|退货|退款|退回|折扣|折让|返利|返点|"
    r"目标|预算|预测|预期|预计|指引|规划|考核|"
    r"调整后|经调整|备考|不变汇率|固定汇率|有形|转化(?:成|为)|"
    r"(?<![a-z])(?:average|mean|median|monthly|daily|weekly|per\s+(?:month|year|day|week|quarter)|"
    r"standard\s+deviations?|std\.?\s+dev\.?|variances?|dispersion|coefficient\s+of\s+variation|"
    r"maximum|minimum|concentration|ind(?:ex|ices)|hhi|herfindahl|gini|sensitivity|"
    r"elasticity|for\s+(?:each|every)|(?:each|every)\s+(?:percentage\s+)?point|"
    r"per\s+(?:percentage\s+)?point|"
    r"a\s+month|cumulative(?:ly)?|year[\s-]to[\s-]date|ytd|multi[\s-]?year|"
    r"(?:two|three|four|five|2|3|4|5)[\s-]years?|over\s+the\s+(?:last|past)\s+\w+\s+years|"
    r"times|multiple|ratio|proportion|share(?!holders?)|portion|percentage\s+of|fraction|"
    r"number\s+of|count\s+of|polic(?:y|ies)|recogni(?:tion|[sz]ed)|accounting|measurement|"
    r"deferred|unearned|accrued|prepaid|unreali[sz]ed|costs?|return(?:s|ed)?|refund(?:s|ed)?|"
    r"rebates?|deduct(?:ions?|ed|ible)?|allowances?|discount(?:s|ed)?|"
    r"write[\s-]?(?:offs?|downs?)|"
    r"targets?|budget(?:ed)?|forecast(?:ed)?|guidance|projected|projections?|expected|"
    r"estimated?|plan(?:ned)?|goals?|adjusted|underlying|pro[\s-]?forma|constant[\s-]currency|"
    r"tangible|conver(?:ted|sion)|turned\s+into)"
    r"(?![a-z])"
)
_TIMES_WORDS = re.compile(r"倍|比率|比值|(?<![a-z])(?:times|multiple|ratio)(?![a-z])")
_MULTIPLE_WORDS = re.compile(r"倍|(?<![a-z])times(?![a-z])")
# Another party's figure (控股股东的净利润) or a part of the business no fact is cut by
# (兽用疫苗产品的毛利率, the co-branded credit card's revenue): named by the party or the part,
# with the words before it up to what the question names otherwise.
_PARTY = re.compile(
    r"控股股东|实际控制人|母公司|子公司|大股东|股东|(?<![a-z])(?:parent[\s-]+company|"
    r"subsidiar(?:y|ies)|(?:controlling|major)\s+shareholders?)(?![a-z])"
)
_PART = re.compile(
    r"产品线?|业务线?|板块|分部|品类|(?<![a-z])(?:segment|product\s+line|cards?)(?![a-z])"
)
_NAME_CHAR = re.compile(r"[\u4e00-\u9fff]|[a-z-]|\s(?=[a-z-])")
_COUNT_WORDS = re.compile(r"数量|个数|家数|人数|(?<![a-z])(?:number|count)\s+of(?![a-z])")
# Between a metric's words and an unexplained word beside them (收入的确认政策, revenue policy).
_GAP = re.compile(r"[\s的]*|\s+(?:of|in|on|for)\s+(?:the\s+)?")
# A growth written right after the phrase belongs to it (收入累计增长: the name to decline).
_GROWTH_TAIL = re.compile(
    r"\s*(?:的)?\s*(?:增长率|增长|增幅|增速|涨幅|(?<![a-z])growth(?:\s+rate)?)"
)


def unexplained(
    text: str,
    metric_spans: Sequence[Span],
    consumed: Sequence[Span],
    count_spans: Sequence[Span] = (),
    ratio_spans: Sequence[Span] = (),
    operands: int = 1,
) -> Span | None:
    """The span naming the question's quantity when a word of the list stands outside every
    consumed span, or None. ``metric_spans``: the words of each metric the reading answers;
    ``consumed``: every span a reading explained; ``count_spans``: count metrics' words."""
    if not metric_spans:
        return None
    taken = [*metric_spans, *consumed]
    loose = [
        w.span()
        for w in _WORDS.finditer(text)
        if not any(s < w.end() and w.start() < e for s, e in taken)
        and not _counted(text, w.span(), count_spans)
        and not (ratio_spans and _TIMES_WORDS.fullmatch(text, *w.span()))
        and not (operands > 1 and _MULTIPLE_WORDS.fullmatch(text, *w.span()))
    ]
    loose = [w for w in loose if any(_one_sentence(text, w, m) for m in metric_spans)]
    if not loose:
        return None  # 收入是多少?董事会为什么出售台湾业务: another sentence, another question
    first = loose[0]
    named = _named(text, first, taken)
    if named is not None:
        return named
    near = min(metric_spans, key=lambda s: min(abs(first[0] - s[1]), abs(s[0] - first[1])))
    start, end = near
    grown = True
    while grown:
        grown = False
        for s, e in loose:
            if e <= start and _GAP.fullmatch(text, e, start):
                start, grown = s, True
            elif end <= s and _GAP.fullmatch(text, end, s):
                end, grown = e, True
    if (start, end) == near:  # written apart: from the word to the metric, in one clause
        own = _own_clause(text, first, near)
        if own is not None:  # 按固定汇率计算,…收入: the qualifier's clause, never both halves
            return own
        start, end = min(start, first[0]), max(end, first[1])
    tail = _GROWTH_TAIL.match(text, end)
    return start, tail.end() if tail else end


_SENTENCE_END = re.compile(r"[?？。!！;；]")
_CLAUSE_MARK = re.compile(r"[,，、:：;；?？。!！]")


def _own_clause(text: str, word: Span, metric: Span) -> Span | None:
    """The clause a word stands in, where a clause mark parts it from the metric (按固定汇率计算,
    中国内地收入下降了多少; at constant currency, how much did revenue fall): the decline names
    the qualifier as written, whole, never a span run across the mark (固定汇率计算,收入). None
    where the word and the metric share a clause."""
    lo, hi = min(word[1], metric[1]), max(word[0], metric[0])
    if _CLAUSE_MARK.search(text, lo, hi) is None:
        return None
    marks = [m.start() for m in _CLAUSE_MARK.finditer(text)]
    start = max((i + 1 for i in marks if i < word[0]), default=0)
    end = min((i for i in marks if i >= word[1]), default=len(text))
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# A segment word written right after an entity's name: 香港分部, Hong Kong segment.
_ENTITY_PART = re.compile(r"\s*(?:分部|板块|(?<![a-z])segments?(?![a-z]))")


def entity_parts(
    text: str, entity_spans: Sequence[Span], metric_spans: Sequence[Span] = ()
) -> list[Span]:
    """The segment words glued to an entity's name (香港分部, Hong Kong segment): a profile's
    entities are the segments its company reports, so the segment named by the entity alone is
    that entity, no part the facts are not cut by. A part named by other words (兽用疫苗业务,
    香港母婴分部) stays a part: words stand between the entity and it. 业务 / business /
    market(s) / operations are the segment only where a held metric of it follows (本港业务的
    经营利润, its ASEAN markets' stores): alone, the business itself is a thing sold or bought
    (把台湾业务卖了多少钱: its price)."""
    starts = {s for s, _ in metric_spans}
    out = []
    for _, end in entity_spans:
        m = _ENTITY_PART.match(text, end)
        if m is not None:
            out.append((end, m.end()))
            continue
        m = _ENTITY_BUSINESS.match(text, end)
        if m is not None and _before_metric(text, m.end(), starts):
            out.append((end, m.end()))
    return out


_ENTITY_BUSINESS = re.compile(
    r"\s*(?:业务|市场|(?<![a-z])(?:business|markets?|operations?)(?![a-z]))"
)
# what may stand between the business and its metric: 's, 的, a year (本港业务2024年的经营利润)
_TO_METRIC = re.compile(
    r"(?:\s*(?:fy)?\d{2,4}\s*(?:年度|财年|年)?)?\s*(?:'s|’s|的)?\s*|\s+(?:in\s+)?(?:fy)?\d{2,4}\s*"
)


def _before_metric(text: str, at: int, starts: set[int]) -> bool:
    """Whether a metric's words start after ``at``, past 's / 的 / a year and at least one of
    them or a space (业务卖了多少钱: a verb glued on is no metric of the business)."""
    gap = _TO_METRIC.match(text, at)
    return gap is not None and gap.end() > at and gap.end() in starts


def _one_sentence(text: str, a: Span, b: Span) -> bool:
    """Are the two spans in one sentence of the question?"""
    start, end = min(a[0], b[0]), max(a[1], b[1])
    return _SENTENCE_END.search(text, start, end) is None


def _counted(text: str, span: Span, count_spans: Sequence[Span]) -> bool:
    """门店数量, number of employees: a count word beside a count metric is the metric."""
    if not _COUNT_WORDS.fullmatch(text, *span):
        return False
    return any(
        _GAP.fullmatch(text, e, span[0]) or _GAP.fullmatch(text, span[1], s) for s, e in count_spans
    )


def unit_spans(
    spans: Sequence[tuple[str, int, int]], profile: DomainProfile, kind: str
) -> list[Span]:
    """The words of each metric read whose unit is of ``kind`` (count: 门店数, employees;
    ratio: 流动比率, current ratio)."""
    out = []
    for code, start, end in spans:
        spec = profile.any_metric(code)
        if spec is not None and profile.unit(getattr(spec, "unit", "")).kind == kind:
            out.append((start, end))
    return out


def _named(text: str, word: Span, taken: Sequence[Span]) -> Span | None:
    """A party (控股股东) is named alone; a part (兽用疫苗产品, co-branded credit card) with the
    words written before it, back to the nearest thing the question names otherwise."""
    if _PARTY.fullmatch(text, *word):
        return word
    if not _PART.fullmatch(text, *word):
        return None
    floor = max((e for s, e in taken if e <= word[0]), default=0)
    start = word[0]
    while start > floor and _NAME_CHAR.match(text, start - 1):
        start -= 1
    words = text[start : word[0]].split()
    while words and words[0] in _FUNCTION:
        start += len(words[0]) + 1
        words = words[1:]
    return start, word[1]


_FUNCTION = frozenset(("the", "a", "an", "its", "their", "our", "of", "in", "on", "for", "to"))

# A stated premise (Given that …, 假设…,): context the question builds on, not a figure asked.
_PREMISE = re.compile(
    r"^\s*(?:(?:given|assuming|supposing|suppose|granted|since|considering)(?:\s+that)?|"
    r"既然说|既然|如果说|假设|假如|如果|鉴于|已知|考虑到)[^,,;;??]*[,,]"
)


def premise_only(text: str, reading: object) -> None:
    """Drop the metrics read only inside a premise clause when the question asks others after it
    (Given that group revenue fell 5%, what was the net margin: the net margin alone)."""
    premise = _PREMISE.match(text)
    spans: list[tuple[str, int, int]] = getattr(reading, "spans", [])
    if premise is None or not spans:
        return
    kept = [(c, s, e) for c, s, e in spans if s >= premise.end()]
    if not kept or len(kept) == len(spans):
        return
    codes = {c for c, _, _ in kept}
    reading.spans = kept  # type: ignore[attr-defined]
    reading.metrics = [c for c in reading.metrics if c in codes]  # type: ignore[attr-defined]
