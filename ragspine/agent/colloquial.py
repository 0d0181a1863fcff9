"""Colloquial verbs that name a quantity when no metric word does: what was sold (卖了多少钱,
how much did Taiwan sell) is revenue, what was earned (赚了多少, 挣了多少钱, how much did the
group earn) is net profit, how many people it has (多少号人, how many people does it employ) its
headcount. Read as the profile's metric the shipped group anchors, or as the
shipped quantity (declined by name) where the profile holds none.

Not a verb with a counter after it (卖了多少家门店 counts stores), nor a sell verb with a noun
after it (卖出了多少咖啡 asks for the coffee sold, a product the profile does not know), and
never beside a metric word (毛利赚了多少: the metric named is the one asked).
"""

from __future__ import annotations

import re

from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch, glossary_for
from ragspine.profile.vocabulary import group_anchor

# A counter after 多少 counts things, not money.
_COUNTER = r"(?![家个間间件台种款座所位名人只头张份套辆次笔单户])"
# What sold 多少 is money before: nothing more of the clause, a unit of money or a particle. A
# noun after it is what was sold (卖出了多少咖啡, 多少香港啤酒), no revenue of the company's.
_MONEY = r"(?=\s*(?:[万亿千百]|[美港日欧]?元|块|人民币|[呢啊呀吗]|[^\u4e00-\u9fff]|$))"
_VERBS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "REVENUE",
        re.compile(
            rf"(?:卖|销售|卖出|售出)了?(?:多少钱|多少{_MONEY})|"
            r"(?<![a-z])how\s+much\s+(?:money\s+)?(?:did|does|do|will)\s+[^?？.]{1,40}?\s+"
            r"(?P<en>sell|bring\s+in|take\s+in)(?![a-z])"
        ),
    ),
    (
        "NET_PROFIT",
        re.compile(
            rf"(?:赚|挣|净赚)了?(?:多少钱|多少{_COUNTER})|"
            r"(?<![a-z])how\s+much\s+(?:money\s+)?(?:did|does|do|will)\s+[^?？.]{1,40}?\s+"
            r"(?P<en>earn|net)(?![a-z])"
        ),
    ),
    (  # how many people a company has: 多少号人 (号, a counter of people), 多少人, 几个人 asked
        # of the company as a whole, the count ending the clause (not 多少人民币, 多少人次, 多少人
        # 参加); how many people does X employ
        "EMPLOYEES",
        re.compile(
            r"(?:多少|几)\s*(?:号|个)?\s*人(?=\s*(?:呢|啊|呀|吗)?\s*(?:[?？。!！,,;；]|$))|"
            r"(?<![a-z])how\s+many\s+(?:people|persons|staff)\s+(?:did|does|do|will)\s+"
            r"[^?？.]{1,40}?\s+(?P<en>employ|have\s+on\s+(?:its|the)\s+payroll)(?![a-z])|"
            # how many people were on X's payroll: on the payroll is employed
            r"(?<![a-z])how\s+many\s+(?:people|persons|staff)\s+(?:were|are|was|is)\s+on\s+"
            r"[^?？.]{0,40}?(?P<en_on>payroll)(?![a-z])"
        ),
    ),
    (  # how big the store network is: how many stores (the network alone is a document topic)
        "STORE_COUNT",
        re.compile(
            r"门店网络(?:有多大|多大|规模有多大)|"
            r"(?<![a-z])how\s+(?:big|large|extensive)\s+(?:is|was|were)\s+[^?？.]{0,40}?"
            r"(?P<en>store\s+(?:network|footprint|estate))(?![a-z])"
        ),
    ),
)


def colloquial_matches(text: str, profile: DomainProfile) -> list[tuple[str, AliasMatch]]:
    """(kind, match) for each colloquial verb in folded ``text``, over the verb's span."""
    out = []
    for group, pattern in _VERBS:
        for m in pattern.finditer(text):
            on = m.groupdict().get("en_on")  # on the payroll: named by payroll
            if (
                group == "EMPLOYEES"
                and not (m.group("en") or on)
                and not _of_the_whole(text, m, profile)
            ):
                continue  # 会员有多少人: the members are counted, not the company's people
            named = "en" if m.group("en") else "en_on" if m.groupdict().get("en_on") else None
            start, end = m.span(named) if named else m.span()
            kind, code = group_anchor(group, profile).split(":", 1)
            out.append((kind, AliasMatch(code, start, end)))
    return out


# What may stand between the company (or the period) and 有多少人: when, and the verb.
_PEOPLE_FRAME = re.compile(r"(?:年底|年末|底|末|时|的|一共|总共|共|拥有|有|\s)*$")
_CLAUSE = re.compile(r"[?？。!！,,;；]")


def _of_the_whole(text: str, m: re.Match[str], profile: DomainProfile) -> bool:
    """多少人 counts the company's people where only a when and 有 stand between it and the
    company, an entity or a period (金宇生物2021年底有多少号人), or where nothing stands before
    it in its clause; a noun before it (会员有多少人) says whom it counts."""
    start = max((c.end() for c in _CLAUSE.finditer(text, 0, m.start())), default=0)
    frame = _PEOPLE_FRAME.search(text, start, m.start())
    before = text[start : frame.start() if frame else m.start()]
    if not before.strip():
        return True
    if re.search(r"(?:\d|年|财年|年度|fy)$", before):
        return True  # a period: 2021年, 去年
    ends = {w.end for k, w in glossary_for(profile).scan(text) if k == "entities"}
    return start + len(before) in ends
