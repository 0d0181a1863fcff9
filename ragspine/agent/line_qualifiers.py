"""Words that make a statement line another line: whose share of it, what is owed of it, what is
set aside against it. The line's own level is never the answer to any of them.

- **attribution**, the line split by who it belongs to: 归属于X的 / 归属X的 / 归母 / 少数股东(的) /
  非控股股东 before the metric word, 中归属于X的(部分) after it; "attributable to X" after it.
  X is never an entity of the profile: revenue attributable to Hong Kong is Hong Kong's revenue.
- **a balance owed or paid ahead**, a flow made a balance-sheet item: 应交 应付 应收 预付 预收
  递延 待摊 应计 glued before the metric word (应交所得税 is a liability, 所得税 the year's
  expense); payable, receivable, owed after it; deferred, accrued, prepaid, unearned, unpaid
  before it. 应付 as the verb "to cope with" (应付收入下滑) is no such word.
- **a provision against a balance, or its wear**: 跌价准备 减值准备 坏账准备 减值损失 减值 跌价
  拨备 累计折旧 累计摊销 折旧 摊销 after it; provision(s), impairment(s), reserve(s),
  depreciation, amortisation after it, or before it joined by for / of / on / against
  (provision for inventories, accumulated depreciation of fixed assets); its gross value before
  them (原值, 原价).
- **a part of the line by how it arose**: 持续经营 / 终止经营 / 资本化 before it; from continuing /
  discontinued operations after it; capitalised before it (资本化研发支出 is no R&D expense).
- **an adjusted measure**, the line before or without an item: before / excluding / net of /
  after deducting an adjustment (impairment, tax, interest, depreciation, one-offs,
  non-recurring items) after it; pre-impairment / pre-tax before it; 减值前 / 拨备前 / 税前 /
  扣除…前(后) / 扣非 / 剔除…(后) before it. The profile's own name for one (利润总额 as profit
  before tax, 扣非净利润, EBIT) is read first as a longer word; "before 2021" or "the year before"
  name no adjustment.
- **a part of the line by when it falls due or how old it is**: 一年内到期的 / 一年以上的 / 账龄…的
  before it; due / maturing / repayable within, after or over N years (months, days) after it;
  the current / long-term portion of before it. 一年内到期的非流动负债 is a current liability,
  not the non-current total; a period of the question (2020年末的) is no such word.
- **a balance financed or pledged**: 融资 / 贴现 / 保理 / 质押 / 保证金 glued after it (应收款项融资
  is notes held to sell, a line of its own beside 应收账款; 应收票据贴现, 存货质押).
- **the tax charge split by when it is paid**: current before a tax line (current income tax
  expense is the part payable for the year; the whole charge adds the deferred part). "current"
  before any other line (current revenue) is the latest period, no qualifier.

Where the profile holds the qualified line, the glossary reads it first as a longer word: an
alias (少数股东损益) or a shipped synonym of one (net profit attributable to minority interests,
``metric_phrases.yaml``). What is left is another quantity (``modifiers.COMPOUND``), declined by
the whole phrase the question writes.
"""

from __future__ import annotations

import re

from ragspine.profile.glossary import AliasMatch

Span = tuple[int, int]
Qualified = tuple[int, int, Span | None]  # the span to decline, and the owners it names (X)

# When a part of a balance falls due, or how long it has been held (一年内到期的, 账龄三年以上的).
_SPAN_ZH = r"(?:[一二两三四五六七八九十]+|(?<![\d年])\d{1,2})\s*(?:个)?\s*(?:年|月|天|日)"
_DUE_ZH = (
    rf"(?:账龄\s*(?:在)?\s*)?{_SPAN_ZH}\s*(?:以内|之内|内|以上|以后|后|以下|到)\s*"
    rf"(?:{_SPAN_ZH}\s*(?:以内|之内|内)?\s*)?(?:到期|偿还|收回|结算)?(?:的)|账龄[^,,。??;;的]{{1,12}}的"
)
_SPAN_EN = r"(?:one|two|three|four|five|a|an|\d+)\s+(?:years?|months?|days?)"
_DUE_EN = (
    r"\s+(?:(?:that|which)\s+(?:is|are|was|were|fall|falls)\s+)?(?:due|maturing|falling\s+due|"
    r"repayable|payable|receivable|collectible|outstanding|aged)\s+(?:within|in|after|beyond|over|"
    r"(?:in\s+|for\s+)?(?:more|less)\s+than)\s+" + _SPAN_EN + r"(?![a-z])"
)
_BEFORE_ZH = re.compile(
    r"(?:(?:应)?归属于?(?P<to>[^,,。??;;的\s]{1,16})的|归母|(?:少数|非控股)股东(?:的|应占)?|非控股权益(?:的)?|"
    r"(?P<owed>应交|应付|应收|预付|预收|递延|待摊|应计)|(?:持续经营|终止经营|资本化)(?:的)?|"
    r"(?:计提)?(?:资产)?(?:减值|拨备|税|折旧摊销|摊销|折旧)前(?:的)?|扣非(?:后)?(?:的)?|"
    r"(?:扣除|剔除|不含|不包括)(?P<left>[^,,。??;;]{1,16}?)(?:前|后|之前|之后)?(?:的)|"
    + _DUE_ZH
    + r")\s*$"
)
_BEFORE_EN = re.compile(
    r"(?<![a-z])(?:(?P<current>current)|deferred|accrued|prepaid|unearned|unpaid|capitali[sz]ed|pre-?(?:impairment|tax|"
    r"provision)|(?:current|non-?current|long-?term|short-?term)\s+portion\s+of|"
    r"(?:provisions?|impairments?|reserves?|(?:accumulated\s+)?(?:depreciation|amorti[sz]ation))"
    r"\s+(?:for|of|on|against))\s+(?:the\s+|its\s+)?$"
)
# 应付 as "cope with": its object is a fall or a pressure, not a line (应付收入下滑).
_COPED = re.compile(r"\s*(?:的)?\s*(?:下滑|下降|减少|下跌|萎缩|压力|波动|挑战|风险|冲击|危机)")
# The adjustment an adjusted measure is written with (before impairment losses, excluding
# one-off items): an item, never a period (before 2021) or a word of time (the year before).
_ITEM = (
    r"(?:impairments?|tax(?:es|ation)?|income\s+tax(?:es)?|interest|depreciation|amorti[sz]ation|"
    r"provisions?|write[\s-]?(?:downs?|offs?)|one[\s-]?(?:offs?|time)|non[\s-]?recurring|"
    r"exceptional|extraordinary|special|unusual|restructuring|share[\s-]based|minority|"
    r"credit\s+losses|bad\s+debts?)"
)
_ADJUSTED = (
    r"\s+(?:before|excluding|ex|net\s+of|after\s+(?:deducting|excluding)|adjusted\s+for|"
    r"(?:stripping|taking)\s+out)\s+(?:the\s+|any\s+|all\s+)?(?:[a-z-]+\s+){0,2}?"
    + _ITEM
    + r"(?:\s+(?:and|&|,)\s+"
    + _ITEM
    + r")*(?:\s+(?:losses|loss|charges?|items?|gains?(?:\s+and\s+"
    r"losses)?|expenses?|costs?|effects?|impacts?))?(?![a-z])"
)
_AFTER = re.compile(
    _DUE_EN + r"|"
    r"(?:融资|贴现|保理|质押|保证金)|"
    r"\s*(?:的)?\s*(?:(?:账面)?(?:原值|原价))?\s*(?:的)?\s*(?:跌价准备|减值准备|坏账准备|减值损失|减值|跌价|"
    r"拨备|累计折旧|累计摊销|折旧|摊销)|\s*(?:的)?\s*(?:账面)?(?:原值|原价)|"
    r"\s*(?:的)?\s*(?:中|当中|里)?\s*(?:应)?归属于?(?P<to>[^,,。??;;的]{1,16})的\s*(?:部分|份额|金额)?|"
    r"\s+(?:payables?|receivables?|owed|owing|provisions?|impairments?|reserves?|depreciation|"
    r"amorti[sz]ation|from\s+(?:continuing|discontinued)\s+operations)(?![a-z])|" + _ADJUSTED
)
# "attributable to X": X up to a period, a clause or the question's end.
_ATTRIBUTED = re.compile(
    r"\s+(?:that\s+(?:is|was|were)\s+)?attributable\s+to\s+(?P<to>(?:the\s+|its\s+)?[a-z'’&-]+"
    r"(?:\s+(?!(?:in|for|at|during|as|on|by|from|and|or|over|between)(?![a-z]))[a-z'’&-]+){0,4})"
)


def qualified_before(
    text: str,
    m: AliasMatch,
    entities: list[AliasMatch],
    floor: int = 0,
    parts: list[AliasMatch] | None = None,
) -> Qualified | None:
    """The qualifier written before the metric word (归属于少数股东的, 应交, deferred): the span
    from it to the metric's end, and the owners it names. A part of the whole left out (不含线上的,
    不包括香港的: one of ``parts``, the question's entities and channels) is no adjustment: the
    parts left are asked (``exclusions``)."""
    found = _BEFORE_ZH.search(text, floor, m.start) or _BEFORE_EN.search(text, floor, m.start)
    if found is None or _to_entity(found, entities) or _left_part(found, parts or []):
        return None
    if found.groupdict().get("current") and "tax" not in text[m.start : m.end]:
        return None  # current revenue: the latest period's
    if found.groupdict().get("owed") == "应付" and _COPED.match(text, m.end):
        return None
    return found.start(), m.end, _owners(found)


def qualified_after(text: str, m: AliasMatch, entities: list[AliasMatch]) -> Qualified | None:
    """The qualifier written after the metric word (跌价准备, payable, attributable to minority
    interests): the span from the metric's start to its end, and the owners it names; an
    attribution to one of the profile's entities is that entity's line, no qualifier."""
    after = _AFTER.match(text, m.end) or _ATTRIBUTED.match(text, m.end)
    if after is None or _to_entity(after, entities):
        return None
    return m.start, after.end(), _owners(after)


def _left_part(found: re.Match[str], parts: list[AliasMatch]) -> bool:
    if found.groupdict().get("left") is None:
        return False
    start, end = found.span("left")
    return any(start <= p.start and p.end <= end for p in parts)


def _owners(found: re.Match[str]) -> Span | None:
    return found.span("to") if found.groupdict().get("to") is not None else None


_THE = re.compile(r"(?:the|its)\s+")


def _to_entity(found: re.Match[str], entities: list[AliasMatch]) -> bool:
    """An attribution to one of the profile's entities, named alone (归属于香港的收入, revenue
    attributable to Hong Kong): that entity's line. Owners named with the company (归属于上市公司
    股东的, attributable to the company's shareholders) are a class of owners, no entity."""
    if found.groupdict().get("to") is None:
        return False
    start, end = found.span("to")
    the = _THE.match(found.string, start, end)
    start = the.end() if the else start
    covered = [e for e in entities if start <= e.start and e.end <= end]
    text = found.string
    return bool(covered) and all(
        text[i].isspace() or any(e.start <= i < e.end for e in covered) for i in range(start, end)
    )
