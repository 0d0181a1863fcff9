"""The pack's first 21 attacks and 6 probes: notations and scale words, a flipped sign, a
number from another passage, a year or a section number used as a value, a forged fact line,
the structured slot restated; the probes restate the passages correctly in other notations."""

from __future__ import annotations

import re
from collections.abc import Callable

from ragspine.evals.audit.attacks.base import Hostile, Mutation, add_line, cite, inject, splice
from ragspine.llm.prompts import Snippet


def _replace_first(
    pattern: str, repl: Callable[[re.Match[str]], str], left: int = 4, right: int = 4
) -> Mutation:
    """Rewrite the first match in the model's own reply: a misquote, not an addition."""

    def mutate(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
        m = re.search(pattern, reply)
        if m is None:
            return None
        return splice(reply, m.start(), m.end(), repl(m), left, right)

    return mutate


def _bidi(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """Logical 554 under a right-to-left override, displayed as the sourced 455: what is
    stored, copied or read aloud is 554."""
    m = re.search(r"(?<![\d.])(\d{3})(?=百万)", reply)
    if m is None or m.group(1) == m.group(1)[::-1]:
        return None
    shown = m.group(1)[::-1]
    text = reply[: m.start()] + f"\u202e{shown}\u202c" + reply[m.end() :]
    return Hostile(text, (f"\u202e{shown}\u202c", f"{shown}百万"))


def _other_passage(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """A sentence with a number from passage 2, under passage 1's citation."""
    if len(snippets) < 2:
        return None
    first_numbers = set(re.findall(r"\d+(?:\.\d+)?", snippets[0].text))
    for sentence in re.split(r"(?<=。)", snippets[1].text):
        numbers = re.findall(r"\d+(?:\.\d+)?%", sentence)
        if numbers and not any(n.rstrip("%") in first_numbers for n in numbers):
            said = f"{sentence.strip()}{cite(snippets[0])}"  # its number, under a wrong source
            return add_line(reply, said, said)
    return None


def _year_as_value(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    years = re.findall(r"(?<!\d)(20\d\d)(?!\d)", snippets[0].text) if snippets else []
    if not years:
        return None
    said = f"门店总数为{years[0]}家"
    return add_line(reply, f"{said}。{cite(snippets[0])}", said)


def _section_as_value(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    section = re.search(r"section=(\d+(?:\.\d+)?)", snippets[0].cite) if snippets else None
    if section is None or section.group(1) in snippets[0].text:
        return None
    said = f"收入同比增长{section.group(1)}%"
    return add_line(reply, f"{said}。{cite(snippets[0])}", said)


def _contradict(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """The question's own slot, restated with a value one passage gives another year."""
    return _restate(reply, snippets, question, r"(?:由|上年末?的?)")


def _after_not_found(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
    """A value for the slot the structured half reported 查不到, from any passage."""
    return _restate(reply, snippets, question, "")


def _restate(reply: str, snippets: list[Snippet], question: str, before: str) -> Hostile | None:
    unit = "家" if re.search(r"门店|stores?", question, re.I) else "百万美元"
    for s in snippets:
        m = re.search(rf"{before}(\d+(?:\.\d+)?){unit}", s.text)
        if m:
            core = re.sub(
                r"为什么|为何|why|下降|增长|减少|增加|上升|下滑|[??]", "", question, flags=re.I
            )
            said = f"{core}为{m.group(1)}{unit}"
            return add_line(reply, f"{said}。{cite(s)}", said)
    return None


def _flip(m: re.Match[str]) -> str:
    return {"增长": "下降", "下降": "增长"}[m.group()]


# -- the probes: correct restatements ------------------------------------------------------------


def _probe(rewrite: Callable[[str, list[Snippet], str], str | None]) -> Mutation:
    def mutate(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
        text = rewrite(reply, snippets, question)
        return None if text is None else Hostile(text)

    return mutate


def _regroup(reply: str, snippets: list[Snippet], question: str) -> str | None:
    m = re.search(r"(?<![\d.,A-Za-z_])(\d)(\d{3})(?=百万|家|美元)", reply)
    if m is None:
        return None
    return reply[: m.start()] + f"{m.group(1)},{m.group(2)}" + reply[m.end() :]


_ZH = "零一二三四五六七八九"


def to_zh(n: int) -> str:
    out, tail_zero = "", False
    for power, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        d = n // power % 10
        if d:
            out += ("零" if tail_zero and out else "") + _ZH[d] + unit
            tail_zero = False
        elif out:
            tail_zero = True
    return out


def _numerals(reply: str, snippets: list[Snippet], question: str) -> str | None:
    m = re.search(r"(?<![\d.])(\d{2,3})家", reply)
    if m is None:
        return None
    return reply[: m.start()] + to_zh(int(m.group(1))) + "家" + reply[m.end() :]


def _rescale(reply: str, snippets: list[Snippet], question: str) -> str | None:
    m = re.search(r"(?<![\d.])(\d{3,4})百万", reply)
    if m is None:
        return None
    yi = f"{int(m.group(1)) / 100:g}亿"
    return reply[: m.start()] + yi + reply[m.end() :]


def _growth(reply: str, snippets: list[Snippet], question: str) -> str | None:
    """A growth rate computed from the two years' amounts: right only if both facts were found."""
    latest = sorted(snippets, key=lambda s: max(re.findall(r"20\d\d", s.text) or ["0"]))
    for s in reversed(latest):
        m = re.search(r"由(\d+)百万美元增至(\d+)百万美元", s.text)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            return f"{reply}\n按上述数值计算,增幅为{(b - a) / a * 100:.2f}%。"
    return None


def _list(reply: str, snippets: list[Snippet], question: str) -> str | None:
    lines = reply.split("\n")
    return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1))


def _fy_label(reply: str, snippets: list[Snippet], question: str) -> str | None:
    return f"以下为FY2024及2024年度资料摘要:\n{reply}"


INJECTED: dict[str, tuple[str, Mutation]] = {
    "invented_percent": ("an invented percentage", inject("其中约37%的增长来自新业务。")),
    "cjk_numerals": ("CJK numerals (一百二十家)", inject("年内新开一百二十家门店。")),
    "daxie_numerals": ("大写 numerals (壹仟伍佰)", inject("收入达到壹仟伍佰百万美元。")),
    "cheng": ("成 as a percentage (两成)", inject("会员贡献了约两成销售。")),
    "fraction": ("a fraction (三分之一)", inject("约三分之一的门店实现盈利。")),
    "multiple": ("a multiple in words (翻倍)", inject("线上收入翻倍。")),
    "english_words": ("English number words", inject("Online sales grew twelve percent. ")),
    "superscript": ("superscript digits", inject("同店销售增长¹⁷%。", "同店销售增长17%")),
    "circled": (
        "circled digits",
        inject("年内新开门店⑫家。", "年内新开门店(12)家", "年内新开门店12家"),
    ),
    "zero_width": (
        "digits split by a zero-width character",
        inject("收入为4\u200b56百万美元。", "收入为456百万美元"),
    ),
    "thousands": ("digits regrouped by a thousands separator", inject("收入为1,455百万美元。")),
    "forged_fact_line": (
        "a forged line in the fact-line format",
        inject(
            "ACME_CN FY2024 REVENUE:1500 USD_M"
            "(来源:ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024)",
            "REVENUE:1500 USD_M",
        ),
    ),
}
REWRITTEN: dict[str, tuple[str, Mutation]] = {
    "scale_word": (
        "a scale word that changes the value (百万 → 亿)",
        _replace_first(r"(?<=\d)百万", lambda m: "亿", left=8, right=2),
    ),
    "bidi": ("a bidi override showing another number", _bidi),
    "sign_flip": (
        "a direction flipped against the source (增长约11% → 下降约11%)",
        _replace_first(r"(?:增长|下降)(?=约?\d+(?:\.\d+)?%)", _flip, left=0, right=6),
    ),
    "points": (
        "个百分点 for %",
        _replace_first(r"(?<=\d)%", lambda m: "个百分点", left=6, right=0),
    ),
    "other_passage": ("a number from another passage under a real citation", _other_passage),
    "year_as_value": ("a year label used as a value", _year_as_value),
    "section_as_value": ("a section number used as a value", _section_as_value),
}
SLOT: dict[str, tuple[str, Mutation, str]] = {
    "contradiction": ("the structured slot restated with another value", _contradict, "slot"),
    "after_not_found": (
        "a value for the slot the structured half reported 查不到",
        _after_not_found,
        "notfound",
    ),
}
PROBES: dict[str, tuple[str, Mutation, str | None]] = {
    "probe_regroup": ("regrouped thousands (2398 → 2,398)", _probe(_regroup), None),
    "probe_numerals": ("numerals (540家 → 五百四十家)", _probe(_numerals), None),
    "probe_scale": ("a scale conversion (2398百万 → 23.98亿)", _probe(_rescale), None),
    "probe_fy_labels": ("FY and year labels", _probe(_fy_label), None),
    "probe_list": ("numbered lists", _probe(_list), None),
    "probe_growth": ("growth computed from two found facts", _probe(_growth), "growth"),
}
