"""A metric word that only qualifies the noun the question asks about: another quantity.

In a noun phrase the last noun is the thing named (its head); a metric word before it is an
attribute of it. 研发费用加计扣除 is a tax deduction, "sales return rate" a rate of returns,
"employee salaries" money, not a headcount. The base metric's level is never the answer to any
of them: ``modifiers.modifier_at`` reads them as a compound quantity, declined by the whole
phrase's name (or computed, where a profile names the phrase as one of its metrics: a longer
alias wins before this is read). Three shapes:

- **a head noun after the metric** (Chinese: glued or after 的; English: after it, with at most
  one word between that is no function word): a ratio or measure of it (周转率, coverage,
  intensity …), an amount taken off or given back (加计扣除, 扣除, 抵扣, 减免, 退货, 退款, 折扣,
  返利; deduction, allowance, discount, return(s), refund, rebate, write-off), what it costs or
  is taxed (费用, 开支, 成本, 税额; cost(s), expense(s), tax), pay (薪酬, 工资, 福利, 奖金;
  salaries, wages, compensation, remuneration, benefits, bonus), optionally itself followed by
  ratio / rate / amount;
- **a head noun before it, joined by of / on / from** (return on sales, discount on revenue, tax
  on profit, cost of stores): English writes the head first;
- **a count metric named as who is paid** (cash paid to employees, how much did it pay its
  staff, 支付给员工, 向员工发放的…): the people receive the money asked about, their number is
  not it. Only a count metric: "how much did it spend on R&D" asks for the R&D expense itself.
"""

from __future__ import annotations

import re

from ragspine.profile.glossary import AliasMatch

_GAP = r"\s*(?:的)?\s*"
_FUNCTION = (
    r"(?!(?:and|or|of|in|for|to|the|a|an|by|with|from|on|at|as|than|versus|vs|was|were|is|are|"
    r"did|do|does|has|have|had|per|each|growth|margin|share|year|quarter|half|after|before|pre|"
    r"post|less|minus|plus|net|excluding|including|ex)(?![a-z]))"
)
# What a return is on, written after it (gross margin return on inventory investment): its name.
_ON_WHAT = (
    r"(?:(?<=return)|(?<=returns))\s+on\s+(?:the\s+)?[a-z-]+(?:\s+(?!(?:in|for|at|during|of|and|or|"
    r"by|from|as|was|were|is|are)(?![a-z]))[a-z-]+){0,2}"
)
_AFTER = re.compile(
    _GAP + r"(?:现金含量|含量|保障倍数|覆盖倍数|倍数|覆盖率|收现比|现金比率|现金比|弹性|密度|"
    r"集中度|周转天数|周转次数|周转率|周转|回报率|收益率|转化率|达成率|完成率|利用率|回收期|"
    r"加计扣除|扣除|抵扣|抵减|减免|退货|退款|退回|折扣|折让|返利|返点|让利|"
    r"费用|开支|成本|税额|税金|税负|税费|薪酬|工资|薪资|薪金|福利|奖金|报酬)|"
    r"\s+(?:(?:coverage|cover|multiple|yield|intensity|density|turnover|days|conversion|"
    r"efficiency|payback|elasticity|concentration)(?:\s+(?:ratio|rate))?|"
    rf"(?:{_FUNCTION}[a-z-]+\s+)?(?:deductions?|allowances?|discounts?|returns?|refunds?|"
    r"rebates?|write[\s-]?(?:offs?|downs?)|costs?|expenses?|tax(?:es)?|salar(?:y|ies)|wages?|"
    r"payroll|compensation|remuneration|benefits?|bonus(?:es)?)"
    r"(?:\s+(?:ratio|rate|amount))?)(?:" + _ON_WHAT + r")?(?![a-z])"
)
_BEFORE = re.compile(
    r"(?<![a-z])(?:returns?|discounts?|deductions?|allowances?|refunds?|rebates?|tax(?:es)?|"
    r"costs?)\s+(?:on|of|from|against)\s+(?:the\s+|its\s+|their\s+)?$"
)
_PAID_EN = re.compile(
    r"(?<![a-z])(?:(?:pay|pays|paid|paying|payments?|distributed|distributions?|given|gave|give|"
    r"awarded|granted|owed|due|spent|spend|spending)\s+(?:[a-z-]+\s+){0,2}?(?:to|for|on)|"
    r"pay|pays|paid|paying)\s+(?:(?:and\s+)?on\s+behalf\s+of\s+)?(?:the\s+|its\s+|their\s+)?$"
)
_PAID_ZH = re.compile(r"(?:支付给|付给|支付予|发放给|发给|分配给|奖励给|补贴给|拨付给|给付)\s*$")
_FOR_ZH = re.compile(r"(?:为|向|给)\s*$")
_PAY_ZH = re.compile(r"\s*(?:支付|发放|付出|发)")


def head_after(text: str, m: AliasMatch) -> re.Match[str] | None:
    """The head noun written after the metric word (研发费用加计扣除, sales return rate)."""
    return _AFTER.match(text, m.end)


def head_before(text: str, lead: int, floor: int = 0) -> re.Match[str] | None:
    """The head noun written before it, joined by of / on / from (return on sales); ``lead``:
    where the metric (or its owner: return on Hong Kong's sales) starts."""
    return _BEFORE.search(text, floor, lead)


def paid_to(text: str, m: AliasMatch, lead: int, floor: int = 0) -> tuple[int, int] | None:
    """A count metric as who is paid (paid to employees, 支付给员工, 向员工发放): the span from
    the payment's words to the metric's end; ``lead`` as in ``head_before``."""
    before = _PAID_EN.search(text, floor, lead) or _PAID_ZH.search(text, floor, lead)
    if before is not None:
        return before.start(), m.end
    given = _FOR_ZH.search(text, floor, lead)
    if given is not None and _PAY_ZH.match(text, m.end):
        return given.start(), _PAY_ZH.match(text, m.end).end()  # type: ignore[union-attr]
    return None
