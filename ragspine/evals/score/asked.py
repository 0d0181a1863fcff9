"""The harness's own reading of what a question asks, beside what the answer gives: is the
answered metric's name, as the question writes it, only part of a longer term it asks about?

Deliberately not the engine's parser (``tests/test_architecture.py`` pins that the harness never
imports it): the metric's names come from the profile's data (``SlotNames``), the question is
read by the rules below, so a judge and a parser that share a blind spot cannot agree by
construction. A figure for a metric whose name is only part of the asked term is an answer about
another quantity (研发费用 for 研发费用加计扣除, sales for "sales return rate"):

- **Chinese**, head last: the name followed by more of the term, glued or after 的, up to the
  question's frame (是多少, 的金额, 同比, 分别, a verb of change …): 研发费用加计扣除, 职工人数的
  薪酬, 收入增长率. A lone 率 after an amount makes a ratio of it; after a percentage it is its
  name (同店销售增长率), as growth is after a growth metric's shorter name (comparable sales
  growth).
- **English**: a quantity noun written after the name, with at most one word between that is
  no function word ("sales return rate", "R&D expenses super deduction"), or before it joined
  by of / on / in ("return on sales", "share of revenue", "growth in revenue").
- **Another metric's longer name**: the question names a metric (收入同比增长率) whose name holds
  the answered one's (收入), and the answer does not give it; unless the question states that
  metric's figure itself (40.1%的毛利率, "a 40.1% gross margin"): a figure written just before a
  name gives it as the premise, and what is asked is the other quantity.
- **A qualifier the name lacks**: words that make a statement line another line, read before or
  after the answered name: whose share of it (归属于少数股东的, 归母, 少数股东, 中归属于…的部分,
  "attributable to minority interests"), what is owed or paid ahead of it (应交 应付 应收 预付
  预收 递延 待摊 应计 before it; payable, receivable after it; deferred, accrued, prepaid,
  unearned before it), what is set aside against it or worn off it (跌价准备 折旧 after it;
  provision, impairment, reserve, depreciation after it or before it joined by for / of /
  against), how it arose (持续经营 资本化 before it; capitalised before it, from continuing
  operations after it). Income tax payable answered with the income tax expense, net profit
  attributable to minority interests with net profit.
- **An amount of money asked of a count**: the question asks for cash, pay or spending (cash,
  paid, salaries, 现金, 支付, 薪酬 …) and the answer gives a count of people or things (how much
  cash was paid to employees → the headcount).

A metric whose change the answer gives (``changes``: the question asked how it moved) is read
with its change words, never flagged for them. A name the question does not write (a metric
found through a colloquial phrasing) gives nothing to judge. The term is one the question asks
a figure of (a Chinese term ends where 是多少 / 的金额 / the question's end follows it: in
收入面临激烈竞争,是多少 the words after 收入 are a clause, not its name); in a why or how question
the figure is the context of an explanation, so only another metric's longer name is read there
("why did same-store sales decline" answered with revenue).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ragspine.evals.audit.names import Found, SlotNames, lexicon
from ragspine.text import fold

# Where a Chinese term ends: the question's own frame after the metric's name.
_FRAME_ZH = re.compile(
    r"是|为|有|多少|几|的|在|于|和|与|及|或|、|分别|各|合计|总计|总额|金额|数额|数值|数据|规模|水平|"
    r"情况|约|大约|达到|达|超过|突破|实现|录得|共|占|比|较|相比|对比|较上年|余额|净额|数量|总数|总量|"
    r"数目|账面价值|账面余额|保留|精确|以|按|单位|"
    r"(?:同比|环比)(?!增长率|增长速度|增速|增幅)|"
    r"增长(?![率速幅])|增加|减少|下降|下滑|上升|提升|提高|降低|变化|变动|表现|如何|怎么|怎样|"
    r"为何|为什么|最|排名|排第|主要|来自|呢|吗|了|请|年|月|[a-z0-9\s]"
)
_CJK = re.compile(r"[\u4e00-\u9fff]+")
# What ends a term the question asks a figure of: 的金额是多少, 是多少, the question's end.
_ASK_ZH = re.compile(
    r"\s*(?:的)?\s*(?:金额|数额|数值|规模|水平|余额|净额|总额)?\s*(?:是|为|有|约为|达到|达)?\s*"
    r"(?:多少|几|多大)|\s*[??]?\s*$"
)
# A why or how question: its figure is the context of an explanation, not the quantity asked.
_NARRATIVE = re.compile(
    r"为什么|为何|原因|如何|怎么|怎样|导致|驱动|影响|(?<![a-z])(?:why|drove|drives?|driving|"
    r"reasons?|caus\w*|explain\w*|how\s+(?:did|does|do|has|have|will|is|are|was|were))(?![a-z])"
)
# English quantity nouns that make another quantity of the name before them.
_HEADS_EN = (
    r"rates?|ratios?|returns?|refunds?|deductions?|allowances?|discounts?|rebates?|costs?|"
    r"expenses?|tax(?:es)?|margins?|share|growth|budget|target|forecast|guidance|salar(?:y|ies)|"
    r"wages?|compensation|remuneration|bonus(?:es)?|turnover|yield|coverage|intensity|density|"
    r"days|conversion|efficiency|mix|penetration|contribution|per|recognition|write-?offs?"
)
_FUNCTION_EN = frozenset(
    (  # noqa: SIM905
        "and or of in for on at to by with from as than versus vs was were is are did do does "
        "has have had the a an its their this that in during over under after before net"
    ).split()
)
_AFTER_EN = re.compile(rf"(?:'s)?\s+(?:(?P<word>[a-z&-]+)\s+)?(?P<head>{_HEADS_EN})(?![a-z])")
_BEFORE_EN = re.compile(
    r"(?<![a-z])(?P<head>returns?|costs?|discounts?|deductions?|tax(?:es)?|share|percentage|"
    r"proportion|growth)\s+(?:on|of|in)\s+(?:the\s+|its\s+|their\s+)?$"
)
# A qualifier that makes the named line another (see the module): before the name, after it.
_QUALIFIER_BEFORE = re.compile(
    r"(?:(?:应)?归属于?(?P<to>[^,,。??;;的]{1,16})的|归母|(?:少数|非控股)股东(?:的|应占)?|应交|应付|应收|预付|"
    r"预收|递延|待摊|应计|持续经营|终止经营|资本化)\s*$|(?<![a-z])(?:deferred|accrued|prepaid|"
    r"unearned|unpaid|capitali[sz]ed|(?:provisions?|impairments?|allowances?|reserves?|"
    r"(?:accumulated\s+)?(?:depreciation|amorti[sz]ation))\s+(?:for|of|on|against)"
    r"(?:\s+the|\s+its)?)\s+$"
)
_QUALIFIER_AFTER = re.compile(
    r"\s*(?:的)?\s*(?:中|当中|里)?\s*(?:应)?归属于?(?P<zh>[^,,。??;;的]{1,16})的|"
    r"(?:'s)?\s+(?:that\s+(?:is|was|were)\s+)?attributable\s+to\s+(?P<to>[^,?;]*?)"
    r"(?=\s+(?:in|for|at|during|as\s+of|by)\s|\s*[,?;.]|\s*$)|"
    r"\s+(?:payables?|receivables?|owed|owing|provisions?|impairments?|reserves?|depreciation|"
    r"amorti[sz]ation|from\s+(?:continuing|discontinued)\s+operations)(?![a-z])"
)
_MONEY = re.compile(
    r"现金|支付|付给|发放|工资|薪酬|薪资|报酬|奖金|花费|花了|多少钱|"
    r"(?<![a-z])(?:cash|money|paid|pay|pays|paying|payments?|salar(?:y|ies)|wages?|"
    r"compensation|remuneration|spend|spent|spending)(?![a-z])"
)


def longer_term(
    question: str,
    found: Sequence[str],
    names: SlotNames | None,
    changes: Sequence[str] = (),
) -> str | None:
    """Why the answer's metric covers only part of the asked quantity, or None: the answered
    code, and the longer term the question asks (see the module)."""
    if names is None or not found:
        return None
    text = fold(question)
    lex = lexicon(names)
    hits = lex.metrics(text)
    figure = _NARRATIVE.search(text) is None  # why / how did: the figure is context, not asked
    for code in found:
        if code in changes:
            continue
        own = [fold(w) for w in names.metrics.get(code, ())]
        for hit in hits:  # 收入 answered where the question names 收入同比增长率, another metric
            words = text[hit.start : hit.end]
            if hit.code not in found and any(w and w != words and w in words for w in own):
                if _STATED.search(text[: hit.start]):
                    continue  # 40.1%的毛利率, 对应的毛利: the premise, not the quantity asked
                return f"answered {code}, asked {words} ({hit.code})"
        for hit in (f for f in hits if f.code == code and figure):
            term = _after_zh(text, hit.start, hit.end) or _after_en(text, hit.start, hit.end)
            if term and _same(term[hit.end - hit.start :], code, own, lex.percent_metric(code)):
                term = None
            term = term or _before_en(text, hit.start, hit.end)
            term = term or _qualified(text, hit.start, hit.end, lex.entities(text))
            if term:
                return f"answered {code}, asked {term}"
        if figure and _money_of_count(text, code, names):
            return f"answered {code} (a count), asked an amount of money"
    return None


# A figure with its unit written just before a name: that name's value is given, not asked.
_STATED = re.compile(
    r"\d(?:[\d,.]*\d)?\s*(?:%|％|个?百分点|倍|亿|万|千|百万|元|美元|(?:percent|per\s+cent|"
    r"million|billion|thousand|times)(?![a-z]))\s*的?\s*$"
)
_RATE = re.compile(r"\s*(?:的)?\s*(?:率|rate)")
_GROWTH = re.compile(r"\s*(?:的)?\s*(?:增长率|增长|增幅|增速|growth(?:\s+rate)?)")


def _same(rest: str, code: str, own: Sequence[str], percent: bool) -> bool:
    """同店销售增长率, comparable sales growth: 率 after a percentage names the percentage, and
    growth after a growth metric's shorter name is that metric (its other name says so)."""
    if not percent:
        return False
    if _RATE.fullmatch(rest):
        return True
    grows = any("增长" in w or "growth" in w for w in own)
    return grows and _GROWTH.fullmatch(rest) is not None


def _after_zh(text: str, start: int, end: int) -> str | None:
    """研发费用加计扣除, 职工人数的薪酬: the CJK run after the name, up to the frame."""
    at = end + 1 if text[end : end + 1] == "的" else end
    run = _CJK.match(text, at)
    if run is None:
        return None
    frame = _FRAME_ZH.search(text, at, run.end())
    head = text[at : frame.start() if frame else run.end()]
    asked = _ASK_ZH.match(text, at + len(head))  # a term the question asks a figure of
    if (len(head) >= 2 or head == "率") and asked:
        return text[start : at + len(head)]
    return None


def _after_en(text: str, start: int, end: int) -> str | None:
    m = _AFTER_EN.match(text, end)
    if m is None or (m.group("word") and m.group("word") in _FUNCTION_EN):
        return None
    return text[start : m.end()]


def _before_en(text: str, start: int, end: int) -> str | None:
    m = _BEFORE_EN.search(text, 0, start)
    return text[m.start() : end] if m else None


def _qualified(text: str, start: int, end: int, places: Sequence[Found]) -> str | None:
    """应交所得税, income tax payable, net profit attributable to minority interests: the name
    with a qualifier written beside it that its own words lack. An attribution to an entity
    alone (归属于香港的收入, revenue attributable to Hong Kong) is that entity's line."""
    before = _QUALIFIER_BEFORE.search(text, 0, start)
    if before is not None and not _to_place(before, places):
        return text[before.start() : end]
    after = _QUALIFIER_AFTER.match(text, end)
    if after is None or _to_place(after, places):
        return None
    return text[start : after.end()].strip()


def _to_place(found: re.Match[str], places: Sequence[Found]) -> bool:
    """Is whom the line is attributed to only an entity's name (the, spaces aside)?"""
    group = next((g for g in ("to", "zh") if found.groupdict().get(g)), None)
    if group is None:
        return False
    start, end = found.span(group)
    words = re.sub(r"(?<![a-z])the\s+", lambda t: " " * len(t.group()), found.string[start:end])
    return any(p.start < end and start < p.end for p in places) and all(
        c.isspace() or any(p.start <= start + i < p.end for p in places)
        for i, c in enumerate(words)
    )


def _money_of_count(text: str, code: str, names: SlotNames) -> bool:
    kinds: Mapping[str, str] = names.unit_kinds
    return kinds.get(names.metric_units.get(code, ""), "") == "count" and bool(_MONEY.search(text))
