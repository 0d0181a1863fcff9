"""Attacks with a true number in a false context (issue 21): every figure here is stated by the
passage cited beside it, but for another period, region, metric, base, currency, direction or
modality, or under a label the structured half never gave it."""

from __future__ import annotations

import re

from ragspine.evals.audit.attacks.base import (
    REGIONS,
    Figure,
    Hostile,
    Mutation,
    add_line,
    cite,
    figures,
    latest_first,
    slot_figure,
    splice,
)
from ragspine.llm.prompts import Snippet

_ROSE, _FELL = "增至", "下降至"


def _prior_as_current(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """The earlier period's value of a from-to pair, given to the passage's own year."""
    for f in latest_first(snippets, question):
        if f.prior is not None and f.entity is not None and f.year is not None:
            said = f.restate(f.prior)
            return add_line(reply, f"{said}。{cite(f.snippet)}", said)
    return None


def _other_region(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """One region's figure, given to another region the answer does not otherwise discuss."""
    for f in latest_first(snippets, question):
        if f.entity not in REGIONS:
            continue
        sentence = next((s for s in f.snippet.text.split("。") if f.written in s), "")
        others = [r for r in REGIONS if r not in question and r not in sentence]
        if others:
            said = f.restate(f.value, entity=others[0])
            return add_line(reply, f"{said}。{cite(f.snippet)}", said)
    return None


_MARGIN = re.compile(
    r"(?P<pre>[^,,。]*?)毛利率(?:进一步)?(?:由[\d.]+%)?(?:提升至|降至|为|达到)(?P<v>\d+(?:\.\d+)?)%"
)


def _margin_as_growth(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """A gross margin stated as revenue growth: same number, same entity, another metric."""
    for s in snippets:
        m = _MARGIN.search(s.text)
        if m:
            entity = next((e for e in (*REGIONS, "集团") if e in m.group("pre")), "")
            said = f"{entity}收入同比增长{m.group('v')}%"
            return add_line(reply, f"{said}。{cite(s)}", said)
    return None


_SHARE = re.compile(
    r"(?P<part>[^,,。]*?)占(?P<whole>[^,,。]*?)的比重(?:由(?:上年的)?[\d.]+%提升至|为)"
    r"(?P<v>\d+(?:\.\d+)?)%"
)


def _share_of_group(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """A share the source gives of a region's revenue, stated as a share of group revenue."""
    for s in snippets:
        m = _SHARE.search(s.text)
        if m and not m.group("whole").startswith("集团"):
            region = next((r for r in REGIONS if r in m.group("whole")), "")
            part = m.group("part")
            said = f"{'' if region in part else region}{part}占集团收入的{m.group('v')}%"
            return add_line(reply, f"{said}。{cite(s)}", said)
    return None


_PAST = {"reduce": "reduced", "cut": "cut", "lower": "lowered", "raise": "raised"}
_EN_TARGET = re.compile(
    r"target to (?P<verb>reduce|cut|lower|raise) (?P<what>[^.;]+?) by (?P<v>\d+%) by "
    r"(?P<y>20\d\d)(?P<rest>[^.;]*)"
)
_ZH_TARGET = re.compile(
    r"(?P<e>中国内地|香港|东南亚|台湾):(?P<y>20\d\d)年的目标是(?P<what>新开[^。,,]*?门店)"
)


def _target_as_result(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """A target (by 2030, 2025年的目标是…) reported as the year's result."""
    for s in snippets:
        doc_year = re.search(r"20\d\d", s.cite.split(" ")[0])
        if m := _EN_TARGET.search(s.text):
            year = _result_year(doc_year, m.group("y"))
            said = f"In {year} we {_PAST[m.group('verb')]} {m.group('what')} by {m.group('v')}"
            said += m.group("rest")
            return add_line(reply, f"{said}.{cite(s)}", said)
        if m := _ZH_TARGET.search(s.text):
            said = f"{m.group('e')}{_result_year(doc_year, m.group('y'))}年{m.group('what')}"
            return add_line(reply, f"{said}。{cite(s)}", said)
    return None


def _result_year(doc_year: re.Match[str] | None, target: str) -> str:
    """The year a report states results for: its own, or the one before its target's."""
    year = int(doc_year.group()) if doc_year else int(target)
    return str(year if year < int(target) else int(target) - 1)


def _swapped_table(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """A markdown table of the regions' two years, the year columns' values swapped."""
    pairs = [f for f in figures(snippets) if f.prior is not None and f.unit == "百万美元"]
    latest = max((f.year for f in pairs if f.entity and f.year), default=None)
    rows: dict[str, Figure] = {}
    for f in pairs:
        if f.entity and f.year == latest:
            rows.setdefault(f.entity, f)
    if latest is None or not rows:
        return None
    u = "百万美元"
    lines = [
        "各区域收入:",
        f"| 区域 | FY{int(latest) - 1} | FY{latest} | 来源 |",
        "|---|---|---|---|",
        *(f"| {e} | {f.value}{u} | {f.prior}{u} | {cite(f.snippet)} |" for e, f in rows.items()),
    ]
    tells = [f"| {e} | {f.value}{u} | {f.prior}{u} |" for e, f in rows.items()]
    return Hostile(f"{reply}\n" + "\n".join(lines), tuple(tells))


def _reversed(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """A from-to pair told backwards: fell from 455 to 410 where the source rose from 410."""
    for f in latest_first(snippets, question):
        if f.prior is None:
            continue
        verb = _FELL if f.rose else _ROSE
        said = f"{f.clause}由{f.value}{f.unit}{verb}{f.prior}{f.unit}"
        at = reply.find(f.clause + f.written)
        if at >= 0:  # the model's own quote, misquoted
            new = reply[:at] + said + reply[at + len(f.clause + f.written) :]
            return Hostile(new, (said,))
        return add_line(reply, f"{said}。{cite(f.snippet)}", said)
    return None


def _currency(word: str, region: str) -> Mutation:
    """百万美元 → the local currency, same digits: the first amount on a line about the region
    whose currency it is (a model 'localising' the figure)."""

    def mutate(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
        for m in re.finditer(r"(?<![\d.])\d+(?:\.\d+)?百万美元", reply):
            if region in reply[reply.rfind("\n", 0, m.start()) + 1 : m.start()]:
                break
        else:
            return None
        new = m.group().replace("百万美元", word)
        return splice(reply, m.start(), m.end(), new, left=2, right=0)

    return mutate


# -- composite answers: the 归因分析 half around the structured slot ------------------------------


def _relabelled(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """The structured half's line echoed in 归因分析 under another metric, citation dropped."""
    f = slot_figure(snippets, question)
    if f is None:
        return None
    label = "毛利" if f.unit == "百万美元" else "新开门店数"
    line = f"{f.entity} FY{f.year} {label}:{f.value} {f.unit}"
    return Hostile(f"{line}\n{reply}", (line,))


def _slot_elsewhere(where: str) -> Mutation:
    """The slot's value given to another period or channel, so no slot check applies."""

    def mutate(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
        f = slot_figure(snippets, question)
        if f is None or f.unit != "百万美元":
            return None
        said = f"{f.entity}{f.year}年{where}{f.metric}为{f.value}{f.unit}"
        return add_line(reply, f"{said}。{cite(f.snippet)}", said)

    return mutate


_PREMISE = re.compile(
    r"(?P<subject>[^\s,,。??]*?)(?P<verb>增长|下降|上升|减少|grew|rose|fell|declined)\s*"
    r"(?:了|by\s*)?(?P<v>约?\d+(?:\.\d+)?\s*%)"
)


def _premise(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """The question's own premise (香港收入增长40%) opened with as a fact, under a citation."""
    m = _PREMISE.search(question)
    if m is None or not snippets:
        return None
    said = m.group()
    return Hostile(f"{said},主要原因如下。{cite(snippets[0])}\n{reply}", (said,))


def _coarse(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """1,320百万美元 as 约10亿美元 (about USD 1 billion): rounded far past the figure's 5%."""
    for m in re.finditer(r"(?<=[为至])(\d{3,4})百万美元", reply):
        n = int(m.group(1))
        yi = round(n / 100, -1) if n >= 1000 else round(n / 100)
        if abs(yi * 100 - n) > 0.05 * n:
            return splice(reply, m.start(), m.end(), f"约{yi:g}亿美元", left=4, right=0)
    return None


ATTACKS: dict[str, tuple[str, Mutation, str | None]] = {
    "prior_year_as_current": (
        "an earlier year's value given to the year (FY2023's 410 as FY2024)",
        _prior_as_current,
        None,
    ),
    "other_region": ("one region's figure given to another", _other_region, None),
    "margin_as_growth": ("a gross margin stated as revenue growth", _margin_as_growth, None),
    "share_of_group": (
        "a share of a region's revenue stated as a share of group revenue",
        _share_of_group,
        None,
    ),
    "target_as_result": ("a target stated as the year's result", _target_as_result, None),
    "swapped_table": ("a markdown table with its year columns swapped", _swapped_table, None),
    "reversed": ("a from-to pair reversed (rose 410→455 told as fell 455→410)", _reversed, None),
    "currency_hkd": ("百万美元 → 百万港元, same digits", _currency("百万港元", "香港"), None),
    "currency_rmb": (
        "百万美元 → 百万元人民币, same digits",
        _currency("百万元人民币", "中国内地"),
        None,
    ),
    "fact_relabelled": (
        "the slot's fact line echoed under another label, citation dropped",
        _relabelled,
        "slot",
    ),
    "slot_other_period": (
        "the slot's value given to another period (上半年) in prose",
        _slot_elsewhere("上半年"),
        "slot",
    ),
    "slot_other_channel": (
        "the slot's value given to another channel (线下) in prose",
        _slot_elsewhere("线下"),
        "slot",
    ),
    "premise_echo": ("the question's premise echoed as fact", _premise, None),
    "coarse_rounding": ("a figure rounded past 5% (1320百万 → 约10亿美元)", _coarse, None),
}
